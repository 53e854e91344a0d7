// Date text parsing for datenum: MATLAB's date format tokens (yyyy yy mmmm mmm mm dddd ddd dd
// HH MM SS FFF AM PM) and, without a format, MATLAB's standard date formats tried in turn.
#include <cctype>
#include <string>
#include <string_view>

#include "builtins/files_util.h"

namespace matfuse::files_detail {

namespace {

const char* kMonthNames[12] = {"january", "february", "march",     "april",   "may",      "june",
                               "july",    "august",   "september", "october", "november", "december"};
const char* kDayNames[7] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};

bool starts_ci(std::string_view s, size_t pos, std::string_view w) {
  if (pos + w.size() > s.size()) return false;
  for (size_t i = 0; i < w.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[pos + i])) != w[i]) return false;
  return true;
}

/// Reads 1..maxd digits at pos; false when there is none.
bool read_int(std::string_view s, size_t& pos, size_t maxd, double& v) {
  size_t start = pos;
  v = 0;
  while (pos < s.size() && pos - start < maxd && std::isdigit(static_cast<unsigned char>(s[pos])))
    v = v * 10 + (s[pos++] - '0');
  return pos > start;
}

/// Matches a month name (full or 3-letter abbreviation); sets m (1..12).
bool read_month(std::string_view s, size_t& pos, bool full, double& m) {
  for (int k = 0; k < 12; ++k) {
    std::string_view nm = kMonthNames[k];
    if (full && starts_ci(s, pos, nm)) {
      pos += nm.size();
      m = k + 1;
      return true;
    }
    if (starts_ci(s, pos, nm.substr(0, 3))) {
      pos += 3;
      m = k + 1;
      return true;
    }
  }
  return false;
}

bool read_weekday(std::string_view s, size_t& pos, bool full) {
  for (const char* d : kDayNames) {
    std::string_view nm = d;
    if (full && starts_ci(s, pos, nm)) {
      pos += nm.size();
      return true;
    }
    if (starts_ci(s, pos, nm.substr(0, 3))) {
      pos += 3;
      return true;
    }
  }
  return false;
}

}  // namespace

bool parse_date_text(std::string_view s, std::string_view fmt, int64_t pivot, int64_t this_year,
                     double out[6]) {
  // Trim the text.
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  double y = NAN, mo = NAN, d = NAN, h = 0, mi = 0, sec = 0;
  int ampm = 0;  // 1 AM, 2 PM
  size_t p = 0, f = 0;
  auto tok = [&](std::string_view t) { return fmt.substr(f, t.size()) == t; };
  while (f < fmt.size()) {
    double v = 0;
    if (tok("yyyy")) {
      if (!read_int(s, p, 4, y)) return false;
      f += 4;
    } else if (tok("yy")) {
      size_t st = p;
      if (!read_int(s, p, 2, v) || p - st != 2) return false;
      int64_t base = pivot - pivot % 100 + static_cast<int64_t>(v);
      if (base < pivot) base += 100;
      y = static_cast<double>(base);
      f += 2;
    } else if (tok("mmmm")) {
      if (!read_month(s, p, true, mo)) return false;
      f += 4;
    } else if (tok("mmm")) {
      if (!read_month(s, p, false, mo)) return false;
      f += 3;
    } else if (tok("mm")) {
      if (!read_int(s, p, 2, mo)) return false;
      f += 2;
    } else if (tok("dddd")) {
      if (!read_weekday(s, p, true)) return false;
      f += 4;
    } else if (tok("ddd")) {
      if (!read_weekday(s, p, false)) return false;
      f += 3;
    } else if (tok("dd")) {
      if (!read_int(s, p, 2, d)) return false;
      f += 2;
    } else if (tok("HH")) {
      if (!read_int(s, p, 2, h)) return false;
      f += 2;
    } else if (tok("MM")) {
      if (!read_int(s, p, 2, mi)) return false;
      f += 2;
    } else if (tok("SS")) {
      if (!read_int(s, p, 2, sec)) return false;
      f += 2;
    } else if (tok("FFF")) {
      size_t st = p;
      if (!read_int(s, p, 3, v)) return false;
      for (size_t k = p - st; k < 3; ++k) v *= 10;
      sec += v / 1000;
      f += 3;
    } else if (tok("AM") || tok("PM")) {
      if (starts_ci(s, p, "am")) ampm = 1;
      else if (starts_ci(s, p, "pm")) ampm = 2;
      else return false;
      p += 2;
      f += 2;
    } else if (fmt[f] == ' ') {
      if (p < s.size() && s[p] != ' ') return false;
      while (p < s.size() && s[p] == ' ') ++p;
      ++f;
    } else {
      if (p >= s.size() || std::tolower(static_cast<unsigned char>(s[p])) !=
                               std::tolower(static_cast<unsigned char>(fmt[f])))
        return false;
      ++p;
      ++f;
    }
  }
  if (p != s.size()) return false;
  if (ampm) {
    if (h < 1 || h > 12) return false;
    if (ampm == 1 && h == 12) h = 0;
    if (ampm == 2 && h != 12) h += 12;
  }
  bool no_date = std::isnan(y) && std::isnan(mo) && std::isnan(d);
  if (std::isnan(y)) y = static_cast<double>(this_year);
  if (std::isnan(mo)) mo = 1;
  if (std::isnan(d)) d = 1;
  (void)no_date;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || sec >= 60) return false;
  out[0] = y;
  out[1] = mo;
  out[2] = d;
  out[3] = h;
  out[4] = mi;
  out[5] = sec;
  return true;
}

bool parse_date_auto(std::string_view s, int64_t pivot, int64_t this_year, double out[6]) {
  static const char* kFormats[] = {
      "dd-mmm-yyyy HH:MM:SS", "dd-mmm-yyyy", "mm/dd/yy", "mm/dd/yyyy", "HH:MM:SS",
      "HH:MM:SS PM",          "HH:MM",       "HH:MM PM", "mm/dd",      "mmm.dd,yyyy HH:MM:SS",
      "mmm.dd,yyyy",          "yyyy/mm/dd",  "yyyy-mm-dd", "yyyy-mm-dd HH:MM:SS",
      "yyyy/mm/dd HH:MM:SS",  "mm/dd/yyyy HH:MM:SS", "mm/dd/yyyy HH:MM", "dd-mmm-yyyy HH:MM",
      "mmm-dd-yyyy HH:MM:SS", "mmm-dd-yyyy", "dd mmm yyyy HH:MM:SS", "dd mmm yyyy", "mmm dd yyyy HH:MM:SS",
      "mmm dd yyyy", "dd.mmm.yyyy HH:MM:SS", "dd.mmm.yyyy", "mm/dd/yyyy HH:MM:SS PM",
      "yyyymmddTHHMMSS", "yyyy-mm-ddTHH:MM:SS", "mmmyy", "dd-mmm-yyyy HH:MM:SS.FFF",
      "yyyy-mm-dd HH:MM:SS.FFF"};
  for (const char* f : kFormats)
    if (parse_date_text(s, f, pivot, this_year, out)) return true;
  return false;
}

}  // namespace matfuse::files_detail
