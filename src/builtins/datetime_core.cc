// datetime, duration, calendarDuration: the array classes (datetime.h) — calendar fields,
// time zones, LDML formatting and parsing, element display, gathering and concatenation.
//
// Calendar arithmetic uses std::chrono's civil calendar (year_month_day, sys_days); time zones
// use Howard Hinnant's date/tz library on the system's tzdata (the IANA time zone database)
// when it is built in (MATFUSE_HAVE_DATE_TZ). Format letters follow Unicode Technical Standard
// #35 (LDML), part 4 "Dates", as MATLAB's datetime Format does.
#include "builtins/datetime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "builtins/construct.h"
#include "builtins/format.h"
#include "builtins/text_util.h"

#ifdef MATFUSE_HAVE_DATE_TZ
#include <date/tz.h>
#endif

namespace matfuse {

namespace chr = std::chrono;

namespace {

const char* kMonthNames[12] = {"January", "February", "March",     "April",   "May",      "June",
                               "July",    "August",   "September", "October", "November", "December"};
const char* kDayNames[7] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                            "Thursday", "Friday", "Saturday"};

int64_t days_from_civil(int64_t y, int m, int d) {
  return chr::sys_days(chr::year(static_cast<int>(y)) / chr::month(static_cast<unsigned>(m)) /
                       chr::day(static_cast<unsigned>(d)))
      .time_since_epoch()
      .count();
}

std::string two(int64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "%02lld", static_cast<long long>(v));
  return b;
}

std::string padded(int64_t v, size_t n) {
  char b[40];
  if (v < 0) std::snprintf(b, sizeof b, "-%0*lld", static_cast<int>(n), static_cast<long long>(-v));
  else std::snprintf(b, sizeof b, "%0*lld", static_cast<int>(n), static_cast<long long>(v));
  return b;
}

/// Fixed UTC offsets written '+HH:MM', '-HHMM' or '+HH': true and the offset in ms.
bool fixed_offset(const std::string& tz, double& ms) {
  if (tz.size() < 3 || (tz[0] != '+' && tz[0] != '-')) return false;
  int h = 0, m = 0;
  std::string digits;
  for (size_t i = 1; i < tz.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(tz[i]))) digits += tz[i];
    else if (tz[i] != ':' || i != 3) return false;
  }
  if (digits.size() != 2 && digits.size() != 4) return false;
  h = std::stoi(digits.substr(0, 2));
  if (digits.size() == 4) m = std::stoi(digits.substr(2, 2));
  if (h > 14 || m > 59) return false;
  ms = (tz[0] == '-' ? -1.0 : 1.0) * (h * 3600000.0 + m * 60000.0);
  return true;
}

#ifndef MATFUSE_HAVE_DATE_TZ
[[noreturn]] void no_tz_library(const std::string& tz) {
  throw_error("matfuse:notAvailable",
              "Time zone '%s' needs the time-zone library, which this build of matfuse does not "
              "have (Debian: libhowardhinnant-date-dev). Only '' and 'UTC' are available.",
              tz.c_str());
}
#endif

std::string offset_text(double off_ms, bool colon, bool with_minutes_always) {
  const int64_t total = static_cast<int64_t>(std::llround(off_ms / 60000.0));
  const int64_t a = total < 0 ? -total : total;
  std::string s = total < 0 ? "-" : "+";
  s += two(a / 60);
  if (with_minutes_always || a % 60) {
    if (colon) s += ":";
    s += two(a % 60);
  }
  return s;
}

}  // namespace

double civil_to_ms(double y, double mo, double d, double h, double mi, double s) {
  if (!std::isfinite(y) || !std::isfinite(mo) || !std::isfinite(d) || !std::isfinite(h) ||
      !std::isfinite(mi) || !std::isfinite(s)) {
    // Inf years give Inf datetimes; any NaN gives NaT.
    if (std::isnan(y) || std::isnan(mo) || std::isnan(d) || std::isnan(h) || std::isnan(mi) ||
        std::isnan(s))
      return NAN;
    double inf = 0;
    for (double v : {y, mo, d, h, mi, s})
      if (std::isinf(v)) inf = v;
    return inf;
  }
  if (std::abs(y) > 30000) return NAN;
  const double mo0 = std::floor(mo) - 1;
  const double ycarry = std::floor(mo0 / 12);
  const int m = static_cast<int>(mo0 - ycarry * 12) + 1;
  const int64_t yy = static_cast<int64_t>(std::floor(y) + ycarry);
  const double days = static_cast<double>(days_from_civil(yy, m, 1)) + (d - 1);
  // Fractional years (datetime(2014.5,1,1)) are not MATLAB's; the integer part is used.
  return days * kMsPerDay + h * 3600000.0 + mi * 60000.0 + s * 1000.0;
}

CivilTime ms_to_civil(double ms) {
  CivilTime c;
  // A datetime holds no value past kDatetimeMaxAbsMs (its constructor makes those NaT); other
  // callers' days are clamped to that range, inside chrono's years.
  const double max_days = kDatetimeMaxAbsMs / kMsPerDay;
  const double dd = std::clamp(std::floor(ms / kMsPerDay), -max_days, max_days);
  double rem = ms - dd * kMsPerDay;
  if (rem < 0) rem = 0;
  const chr::sys_days sd{chr::days{static_cast<int64_t>(dd)}};
  const chr::year_month_day ymd{sd};
  c.year = static_cast<int>(ymd.year());
  c.month = static_cast<int>(static_cast<unsigned>(ymd.month()));
  c.day = static_cast<int>(static_cast<unsigned>(ymd.day()));
  c.hour = static_cast<int>(std::floor(rem / 3600000.0));
  rem -= c.hour * 3600000.0;
  c.minute = static_cast<int>(std::floor(rem / 60000.0));
  rem -= c.minute * 60000.0;
  c.second = rem / 1000.0;
  c.weekday = static_cast<int>(chr::weekday{sd}.c_encoding()) + 1;
  c.day_of_year =
      static_cast<int>(static_cast<int64_t>(dd) - days_from_civil(c.year, 1, 1)) + 1;
  return c;
}

// ------------------------------------------------------------------------------ time zones

std::string canonical_time_zone(const std::string& tz) {
  if (tz.empty()) return tz;
  const std::string low = text_detail::lower(tz);
  if (low == "utc" || low == "gmt" || low == "z") return "UTC";
  double off;
  if (fixed_offset(tz, off)) return offset_text(off, true, true);
#ifdef MATFUSE_HAVE_DATE_TZ
  try {
    if (low == "local") return std::string(date::current_zone()->name());
    return std::string(date::locate_zone(tz)->name());
  } catch (const std::exception&) {
    throw_error("MATLAB:datetime:UnknownTimeZone", "Unknown time zone '%s'.", tz.c_str());
  }
#else
  no_tz_library(tz);
#endif
}

double zone_offset_ms(const std::string& tz, double t_ms, bool is_local) {
  if (tz.empty() || tz == "UTC" || !std::isfinite(t_ms)) return 0;
  double off;
  if (fixed_offset(tz, off)) return off;
#ifdef MATFUSE_HAVE_DATE_TZ
  const date::time_zone* z = date::locate_zone(tz);
  const auto secs = chr::seconds{static_cast<int64_t>(std::floor(t_ms / 1000.0))};
  if (!is_local) return static_cast<double>(z->get_info(date::sys_seconds{secs}).offset.count()) * 1000.0;
  // Local clock times in a daylight-saving gap move forward (the offset before the gap);
  // ambiguous ones take the earlier instant.
  const date::local_info li = z->get_info(date::local_seconds{secs});
  return static_cast<double>(li.first.offset.count()) * 1000.0;
#else
  (void)is_local;
  no_tz_library(tz);
#endif
}

std::string zone_abbrev(const std::string& tz, double utc_ms) {
  if (tz.empty()) return "";
  if (tz == "UTC") return "UTC";
  double off;
  if (fixed_offset(tz, off)) return "GMT" + offset_text(off, true, false);
#ifdef MATFUSE_HAVE_DATE_TZ
  const date::time_zone* z = date::locate_zone(tz);
  const auto secs = chr::seconds{static_cast<int64_t>(std::floor(utc_ms / 1000.0))};
  return z->get_info(date::sys_seconds{secs}).abbrev;
#else
  (void)utc_ms;
  no_tz_library(tz);
#endif
}

double now_ms(const std::string& tz) {
  const double utc = static_cast<double>(
      chr::duration_cast<chr::microseconds>(chr::system_clock::now().time_since_epoch()).count()) /
                     1000.0;
  if (!tz.empty()) return utc;
  // Unzoned: the local clock time of the system's zone (the C library's localtime).
  const std::time_t t = static_cast<std::time_t>(std::floor(utc / 1000.0));
  std::tm lt{};
  localtime_r(&t, &lt);
  return utc + static_cast<double>(lt.tm_gmtoff) * 1000.0;
}

// ------------------------------------------------------------------------------ formatting

namespace {

/// Splits an LDML pattern into letter runs and literal text ('quoted' text; '' is a quote).
struct FmtTok {
  char letter = 0;  ///< 0 for literal
  size_t count = 0;
  std::string lit;
};

std::vector<FmtTok> tokenize(const std::string& f) {
  std::vector<FmtTok> out;
  for (size_t i = 0; i < f.size();) {
    const char c = f[i];
    if (c == '\'') {
      if (i + 1 < f.size() && f[i + 1] == '\'') {
        out.push_back({0, 0, "'"});
        i += 2;
        continue;
      }
      std::string lit;
      size_t j = i + 1;
      for (; j < f.size(); ++j) {
        if (f[j] == '\'') {
          if (j + 1 < f.size() && f[j + 1] == '\'') {
            lit += '\'';
            ++j;
            continue;
          }
          break;
        }
        lit += f[j];
      }
      out.push_back({0, 0, lit});
      i = j + 1;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < f.size() && f[j] == c) ++j;
      out.push_back({c, j - i, {}});
      i = j;
    } else {
      out.push_back({0, 0, std::string(1, c)});
      ++i;
    }
  }
  return out;
}

std::string format_local(double local, double utc, const std::string& fmt, const std::string& tz) {
  const CivilTime c = ms_to_civil(local);
  std::string out;
  for (const FmtTok& t : tokenize(fmt)) {
    const size_t n = t.count;
    switch (t.letter) {
      case 0: out += t.lit; break;
      case 'G': out += n >= 4 ? (c.year > 0 ? "Anno Domini" : "Before Christ") : (c.year > 0 ? "AD" : "BC"); break;
      case 'y':
      case 'u':
      case 'Y':
        if (n == 2) out += two(((c.year % 100) + 100) % 100);
        else out += padded(c.year, n);
        break;
      case 'Q':
      case 'q': {
        const int q = (c.month - 1) / 3 + 1;
        static const char* ord[] = {"1st", "2nd", "3rd", "4th"};
        if (n <= 2) out += padded(q, n);
        else if (n == 3) out += "Q" + std::to_string(q);
        else out += std::string(ord[q - 1]) + " quarter";
        break;
      }
      case 'M':
      case 'L':
        if (n <= 2) out += padded(c.month, n);
        else if (n == 3) out += std::string(kMonthNames[c.month - 1], 3);
        else if (n == 4) out += kMonthNames[c.month - 1];
        else out += kMonthNames[c.month - 1][0];
        break;
      case 'd': out += padded(c.day, n); break;
      case 'D': out += padded(c.day_of_year, n); break;
      case 'e':
      case 'c':
      case 'E':
        if (t.letter != 'E' && n <= 2) out += padded(c.weekday, n);
        else if (n <= 3) out += std::string(kDayNames[c.weekday - 1], 3);
        else if (n == 4) out += kDayNames[c.weekday - 1];
        else out += kDayNames[c.weekday - 1][0];
        break;
      case 'a': out += c.hour < 12 ? "AM" : "PM"; break;
      case 'h': out += padded(c.hour % 12 == 0 ? 12 : c.hour % 12, n); break;
      case 'H': out += padded(c.hour, n); break;
      case 'k': out += padded(c.hour == 0 ? 24 : c.hour, n); break;
      case 'K': out += padded(c.hour % 12, n); break;
      case 'm': out += padded(c.minute, n); break;
      case 's': out += padded(static_cast<int64_t>(std::floor(c.second)), n); break;
      case 'S': {
        // Fractional seconds, truncated to n digits (as ICU and MATLAB display them).
        double frac = c.second - std::floor(c.second);
        double scaled = std::floor(frac * std::pow(10.0, static_cast<double>(n)) + 1e-6);
        if (scaled >= std::pow(10.0, static_cast<double>(n))) scaled = std::pow(10.0, static_cast<double>(n)) - 1;
        out += padded(static_cast<int64_t>(scaled), n);
        break;
      }
      case 'z':
        if (tz.empty()) break;
        if (n >= 4) out += tz;
        else out += zone_abbrev(tz, utc);
        break;
      case 'Z':
      case 'x':
      case 'X':
      case 'O': {
        if (tz.empty()) break;
        const double off = local - utc;
        if (t.letter == 'X' && off == 0) {
          out += "Z";
          break;
        }
        if (t.letter == 'O') out += "GMT" + offset_text(off, true, false);
        else if (t.letter == 'Z' && n == 4) out += "GMT" + offset_text(off, true, true);
        else if (t.letter == 'Z' && n <= 3) out += offset_text(off, false, true);
        else if (t.letter == 'Z') out += offset_text(off, true, true);
        else if (n == 1) out += offset_text(off, false, false);
        else if (n == 2 || n == 4) out += offset_text(off, false, true);
        else out += offset_text(off, true, true);
        break;
      }
      default:
        out += std::string(n, t.letter);
    }
  }
  return out;
}

// ------------------------------------------------------------------------------ parsing

bool starts_ci(const std::string& s, size_t pos, const std::string& w) {
  if (pos + w.size() > s.size()) return false;
  for (size_t i = 0; i < w.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[pos + i])) !=
        std::tolower(static_cast<unsigned char>(w[i])))
      return false;
  return true;
}

bool read_num(const std::string& s, size_t& p, size_t mind, size_t maxd, int64_t& v) {
  size_t st = p;
  v = 0;
  while (p < s.size() && p - st < maxd && std::isdigit(static_cast<unsigned char>(s[p])))
    v = v * 10 + (s[p++] - '0');
  return p - st >= mind && p > st;
}

/// Parses s with LDML pattern fmt into local clock ms; offset_ms set when the text gives a
/// UTC offset (Z, x, X letters).
bool parse_with(const std::string& s, const std::string& fmt, double& local, bool& has_off,
                double& off_ms) {
  int64_t y = 1970, mo = 1, d = 1, h = 0, mi = 0, doy = -1;
  double sec = 0;
  int ampm = 0;
  has_off = false;
  size_t p = 0;
  const auto toks = tokenize(fmt);
  for (size_t k = 0; k < toks.size(); ++k) {
    const FmtTok& t = toks[k];
    const size_t n = t.count;
    // A numeric field followed directly by another numeric field reads exactly n digits.
    const bool fixed = k + 1 < toks.size() && toks[k + 1].letter != 0;
    int64_t v = 0;
    switch (t.letter) {
      case 0:
        for (char c : t.lit) {
          if (c == ' ') {
            if (p >= s.size() || s[p] != ' ') return false;
            while (p < s.size() && s[p] == ' ') ++p;
            continue;
          }
          if (p >= s.size() || std::tolower(static_cast<unsigned char>(s[p])) !=
                                   std::tolower(static_cast<unsigned char>(c)))
            return false;
          ++p;
        }
        break;
      case 'y':
      case 'u':
      case 'Y': {
        bool neg = false;
        if (p < s.size() && s[p] == '-' && n != 2) {
          neg = true;
          ++p;
        }
        if (n == 2) {
          if (!read_num(s, p, 2, 2, v)) return false;
          // Two-digit years: the century that puts them within 50 years of now is MATLAB's
          // pivot; the fixed pivot 1950..2049 keeps results reproducible.
          y = v < 50 ? 2000 + v : 1900 + v;
        } else {
          if (!read_num(s, p, fixed ? n : 1, fixed ? n : 9, v)) return false;
          y = neg ? -v : v;
        }
        break;
      }
      case 'M':
      case 'L':
        if (n <= 2) {
          if (!read_num(s, p, fixed ? 2 : 1, 2, mo)) return false;
        } else {
          bool ok = false;
          for (int m = 0; m < 12 && !ok; ++m) {
            const std::string full = kMonthNames[m];
            if (n >= 4 && starts_ci(s, p, full)) {
              p += full.size();
              mo = m + 1;
              ok = true;
            } else if (starts_ci(s, p, full.substr(0, 3))) {
              p += 3;
              mo = m + 1;
              ok = true;
            }
          }
          if (!ok) return false;
        }
        break;
      case 'd':
        if (!read_num(s, p, fixed ? 2 : 1, 2, d)) return false;
        break;
      case 'D':
        if (!read_num(s, p, fixed ? 3 : 1, 3, doy)) return false;
        break;
      case 'e':
      case 'E':
      case 'c': {
        if (t.letter != 'E' && n <= 2) {
          if (!read_num(s, p, 1, 2, v)) return false;
          break;
        }
        bool ok = false;
        for (int w = 0; w < 7 && !ok; ++w) {
          const std::string full = kDayNames[w];
          if (starts_ci(s, p, full)) {
            p += full.size();
            ok = true;
          } else if (starts_ci(s, p, full.substr(0, 3))) {
            p += 3;
            ok = true;
          }
        }
        if (!ok) return false;
        break;
      }
      case 'a':
        if (starts_ci(s, p, "am")) ampm = 1;
        else if (starts_ci(s, p, "pm")) ampm = 2;
        else return false;
        p += 2;
        break;
      case 'h':
      case 'H':
      case 'k':
      case 'K':
        if (!read_num(s, p, fixed ? 2 : 1, 2, h)) return false;
        if (t.letter == 'k' && h == 24) h = 0;
        break;
      case 'm':
        if (!read_num(s, p, fixed ? 2 : 1, 2, mi)) return false;
        break;
      case 's':
        if (!read_num(s, p, fixed ? 2 : 1, 2, v)) return false;
        sec += static_cast<double>(v);
        break;
      case 'S': {
        size_t st = p;
        if (!read_num(s, p, 1, n, v)) return false;
        sec += static_cast<double>(v) / std::pow(10.0, static_cast<double>(p - st));
        break;
      }
      case 'Z':
      case 'x':
      case 'X':
      case 'z': {
        if (p < s.size() && (s[p] == 'Z' || s[p] == 'z') && t.letter != 'z') {
          ++p;
          has_off = true;
          off_ms = 0;
          break;
        }
        if (starts_ci(s, p, "UTC") || starts_ci(s, p, "GMT")) p += 3;
        if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
          const double sign = s[p] == '-' ? -1 : 1;
          ++p;
          int64_t hh = 0, mm = 0;
          if (!read_num(s, p, 1, 2, hh)) return false;
          if (p < s.size() && s[p] == ':') ++p;
          read_num(s, p, 0, 2, mm);
          off_ms = sign * (static_cast<double>(hh) * 3600000.0 + static_cast<double>(mm) * 60000.0);
        } else {
          off_ms = 0;
        }
        has_off = true;
        break;
      }
      default:
        return false;
    }
  }
  if (p != s.size()) return false;
  if (ampm) {
    if (h < 1 || h > 12) return false;
    if (ampm == 1 && h == 12) h = 0;
    if (ampm == 2 && h != 12) h += 12;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || sec >= 61) return false;
  if (doy >= 1) {
    mo = 1;
    d = doy;
  } else if (d > static_cast<int64_t>(static_cast<unsigned>(
                     (chr::year(static_cast<int>(y)) / chr::month(static_cast<unsigned>(mo)) /
                      chr::last)
                         .day()))) {
    return false;
  }
  local = civil_to_ms(static_cast<double>(y), static_cast<double>(mo), static_cast<double>(d),
                      static_cast<double>(h), static_cast<double>(mi), sec);
  return true;
}

/// MATLAB's common formats, tried in turn when no InputFormat is given.
const char* kGuessFormats[] = {
    "dd-MMM-uuuu HH:mm:ss", "dd-MMM-uuuu HH:mm:ss.SSS", "dd-MMM-uuuu HH:mm", "dd-MMM-uuuu",
    "uuuu-MM-dd HH:mm:ss", "uuuu-MM-dd HH:mm:ss.SSSSSSSSS", "uuuu-MM-dd HH:mm",
    "uuuu-MM-dd'T'HH:mm:ss", "uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS", "uuuu-MM-dd'T'HH:mm:ssXXX",
    "uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSXXX", "uuuu-MM-dd'T'HH:mm", "uuuu-MM-dd", "MM/dd/uuuu HH:mm:ss",
    "MM/dd/uuuu HH:mm", "MM/dd/uuuu hh:mm:ss a", "MM/dd/uuuu", "uuuu/MM/dd HH:mm:ss", "uuuu/MM/dd",
    "dd.MM.uuuu HH:mm:ss", "dd.MM.uuuu", "MMMM d, uuuu HH:mm:ss", "MMMM d, uuuu", "MMM d, uuuu",
    "dd MMM uuuu HH:mm:ss", "dd MMM uuuu", "dd-MMM-yy", "eeee, MMMM d, uuuu", "uuuuMMdd'T'HHmmss"};

std::vector<std::optional<std::string>> text_elements(const Value& v, Dims& d) {
  std::vector<std::optional<std::string>> out;
  if (v.is_string()) {
    d = v.dims();
    return v.string_array().elems();
  }
  if (v.is_cell()) {
    d = v.dims();
    for (const Value& e : v.cell().elems()) {
      if (!e.is_text())
        throw_error("MATLAB:datetime:InvalidTextInput",
                    "Input data must be a string array, character vector, or cell array of "
                    "character vectors.");
      out.push_back(e.to_text());
    }
    return out;
  }
  if (v.is_char()) {
    const Dims cd = v.dims();
    if (cd.rows() <= 1) {
      d = Dims(1, 1);
      out.push_back(v.to_text());
      return out;
    }
    // Char matrix: one text per row.
    const Tensor t = v.tensor();
    d = Dims(cd.rows(), 1);
    for (int64_t r = 0; r < cd.rows(); ++r) {
      std::string s;
      for (int64_t c = 0; c < cd.cols(); ++c) {
        const uint32_t u = t.data<char16_t>()[c * cd.rows() + r];
        if (u < 0x80) s += static_cast<char>(u);
      }
      out.push_back(s);
    }
    return out;
  }
  throw_error("MATLAB:datetime:InvalidTextInput",
              "Input data must be a string array, character vector, or cell array of character "
              "vectors.");
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

}  // namespace

Value datetime_from_text(const Value& text, const std::string& infmt, const std::string& fmt,
                         const std::string& tz, bool date_only_default) {
  Dims d;
  const auto elems = text_elements(text, d);
  std::vector<double> ms(elems.size(), NAN);
  const char* guessed = nullptr;
  // Whether the format that reads the text has time fields.
  auto has_time = [](const std::string& f) {
    for (const FmtTok& t : tokenize(f))
      if (t.letter && std::strchr("HhkKmsSa", t.letter)) return true;
    return false;
  };
  for (size_t i = 0; i < elems.size(); ++i) {
    if (!elems[i]) continue;
    const std::string s = trim(*elems[i]);
    if (s.empty() || text_detail::lower(s) == "nat") continue;
    double local = NAN, off = 0;
    bool has_off = false;
    bool ok = false;
    if (!infmt.empty()) {
      ok = parse_with(s, infmt, local, has_off, off);
      if (!ok)
        throw_error("MATLAB:datetime:ParseErr",
                    "Unable to convert '%s' to datetime using the format '%s'.", s.c_str(),
                    infmt.c_str());
    } else {
      // All elements share the format found for the first one, as in MATLAB.
      if (guessed) ok = parse_with(s, guessed, local, has_off, off);
      for (const char* f : kGuessFormats) {
        if (ok) break;
        if (parse_with(s, f, local, has_off, off)) {
          ok = true;
          guessed = f;
        }
      }
      if (!ok)
        throw_error("MATLAB:datetime:UnrecognizedDateStringSuggestLocale",
                    "Could not recognize the date/time format of '%s'. You can specify a format "
                    "using the 'InputFormat' parameter. If the date/time text contains day, "
                    "month, or time zone names in a language foreign to the 'en_US' locale, "
                    "those might not be recognized. You can specify a different locale using the "
                    "'Locale' parameter.",
                    s.c_str());
    }
    if (tz.empty()) ms[i] = local;
    else if (has_off) ms[i] = local - off;
    else ms[i] = local - zone_offset_ms(tz, local, true);
  }
  const std::string used = infmt.empty() ? std::string(guessed ? guessed : "") : infmt;
  const bool date_only = date_only_default && fmt.empty() && !used.empty() && !has_time(used);
  return DatetimeArray::make(d, std::move(ms), date_only ? kDefaultDateFormat : fmt, tz);
}

// ------------------------------------------------------------------------------ TemporalArray

Value TemporalArray::gather(const Tensor& pos, const ElementArrayObject* src) const {
  const auto* s = dynamic_cast<const TemporalArray*>(src);
  const int64_t n = pos.numel();
  std::vector<std::vector<double>> f(f_.size(), std::vector<double>(static_cast<size_t>(n)));
  for (int64_t k = 0; k < n; ++k) {
    const double p = pos.get_double(k);
    for (size_t j = 0; j < f_.size(); ++j) {
      if (p > 0) f[j][k] = f_[j][static_cast<size_t>(p) - 1];
      else if (p < 0) f[j][k] = s->f_[j][static_cast<size_t>(-p) - 1];
      else f[j][k] = fill_value();
    }
  }
  return Value(std::static_pointer_cast<Object>(with_data(pos.dims(), std::move(f))));
}

Value TemporalArray::concat(int dim, std::span<const Value> parts) const {
  std::vector<std::vector<Value>> per_field(f_.size());
  for (const Value& p : parts) {
    Value c = p;
    if (!as_element_array(p) || p.class_name() != class_name()) c = convert(p);
    const auto* t = dynamic_cast<const TemporalArray*>(c.object().get());
    check_compatible(*t);
    for (size_t j = 0; j < f_.size(); ++j) {
      Tensor x = Tensor::uninit(ClassId::Double, t->dims_);
      std::copy(t->f_[j].begin(), t->f_[j].end(), x.mutable_data<double>());
      per_field[j].push_back(Value(std::move(x)));
    }
  }
  std::vector<std::vector<double>> f(f_.size());
  Dims d;
  for (size_t j = 0; j < f_.size(); ++j) {
    const Tensor r = cat_dim(dim, per_field[j]).tensor();
    d = r.dims();
    f[j].assign(r.data<double>(), r.data<double>() + r.numel());
  }
  return Value(std::static_pointer_cast<Object>(with_data(d, std::move(f))));
}

// ------------------------------------------------------------------------------ DatetimeArray

Value DatetimeArray::make(Dims d, std::vector<double> ms, std::string fmt, std::string tz) {
  return Value(std::static_pointer_cast<Object>(
      std::make_shared<DatetimeArray>(d, std::move(ms), std::move(fmt), std::move(tz))));
}

std::shared_ptr<TemporalArray> DatetimeArray::with_data(Dims d,
                                                       std::vector<std::vector<double>> f) const {
  return std::make_shared<DatetimeArray>(d, std::move(f[0]), fmt_, tz_);
}

double DatetimeArray::fill_value() const { return NAN; }

void DatetimeArray::check_compatible(const TemporalArray& other) const {
  const auto* o = dynamic_cast<const DatetimeArray*>(&other);
  if (o && o->tz_.empty() != tz_.empty())
    throw_error("MATLAB:datetime:IncompatibleTZ",
                "Unable to combine datetime values with and without a time zone.");
}

double DatetimeArray::local_ms(int64_t i) const {
  const double v = f_[0][static_cast<size_t>(i)];
  if (tz_.empty() || !std::isfinite(v)) return v;
  return v + zone_offset_ms(tz_, v, false);
}

double DatetimeArray::from_local(double local) const {
  if (tz_.empty() || !std::isfinite(local)) return local;
  return local - zone_offset_ms(tz_, local, true);
}

std::string DatetimeArray::display_format() const {
  return fmt_.empty() ? std::string("dd-MMM-uuuu HH:mm:ss") : fmt_;
}

std::string DatetimeArray::text(int64_t i, const std::string& fmt) const {
  const double v = f_[0][static_cast<size_t>(i)];
  if (std::isnan(v)) return "NaT";
  if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
  return format_local(local_ms(i), v, fmt, tz_);
}

std::vector<std::string> DatetimeArray::element_texts() const {
  const std::string f = display_format();
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(dims_.numel()));
  for (int64_t i = 0; i < dims_.numel(); ++i) out.push_back(text(i, f));
  return out;
}

Value DatetimeArray::convert(const Value& rhs) const {
  if (const DatetimeArray* d = as_datetime(rhs)) {
    check_compatible(*d);
    return rhs;
  }
  if (rhs.is_text() || rhs.is_string() || rhs.is_cell() || rhs.is_char())
    return datetime_from_text(rhs, "", fmt_, tz_);
  if (rhs.is_tensor() && rhs.is_empty())
    return make(rhs.dims(), {}, fmt_, tz_);
  if (rhs.is_numeric()) {  // NaN is NaT (MATLAB allows assigning NaN into datetime arrays)
    std::vector<double> v = std::vector<double>(static_cast<size_t>(rhs.numel()));
    const Tensor t = rhs.tensor();
    bool all_nan = true;
    for (int64_t i = 0; i < t.numel(); ++i) {
      v[i] = t.get_double(i);
      all_nan = all_nan && std::isnan(v[i]);
    }
    if (all_nan) return make(rhs.dims(), std::move(v), fmt_, tz_);
  }
  throw_error("MATLAB:datetime:InvalidAssignmentRHS",
              "Unable to use '%s' values as datetime values: use a datetime array or text that "
              "represents dates and times.",
              rhs.class_name().c_str());
}

std::vector<std::string> DatetimeArray::property_names() const {
  return {"Format", "TimeZone", "Year", "Month", "Day", "Hour", "Minute", "Second", "SystemTimeZone"};
}

bool DatetimeArray::get_property(std::string_view name, Value& out) const {
  if (name == "Format") {
    out = char_row(display_format());
    return true;
  }
  if (name == "TimeZone") {
    out = char_row(tz_);
    return true;
  }
  if (name == "SystemTimeZone") {
#ifdef MATFUSE_HAVE_DATE_TZ
    out = char_row(std::string(date::current_zone()->name()));
#else
    out = char_row("UTC");
#endif
    return true;
  }
  static const char* comps[] = {"Year", "Month", "Day", "Hour", "Minute", "Second"};
  for (int k = 0; k < 6; ++k) {
    if (name != comps[k]) continue;
    Tensor t = Tensor::uninit(ClassId::Double, dims_);
    double* p = t.mutable_data<double>();
    for (int64_t i = 0; i < dims_.numel(); ++i) {
      const double l = local_ms(i);
      if (!std::isfinite(l)) {
        p[i] = std::isnan(l) ? NAN : l;
        continue;
      }
      const CivilTime c = ms_to_civil(l);
      const double vals[6] = {static_cast<double>(c.year), static_cast<double>(c.month),
                              static_cast<double>(c.day),  static_cast<double>(c.hour),
                              static_cast<double>(c.minute), c.second};
      p[i] = vals[k];
    }
    out = Value(std::move(t));
    return true;
  }
  return false;
}

namespace {

/// The Format text of a set: 'default' gives "" (the default formats).
std::string datetime_format_arg(const Value& v) {
  if (!v.is_text())
    throw_error("MATLAB:datetime:InvalidFormat",
                "Datetime format must be a character vector or string scalar.");
  std::string f = v.to_text();
  if (text_detail::lower(f) == "default") return "";
  if (text_detail::lower(f) == "defaultdate") return kDefaultDateFormat;
  return f;
}

}  // namespace

bool DatetimeArray::set_property(std::string_view name, const Value& rhs, Value& self) {
  if (name == "Format") {
    self = make(dims_, f_[0], datetime_format_arg(rhs), tz_);
    return true;
  }
  if (name == "TimeZone") {
    if (!rhs.is_text())
      throw_error("MATLAB:datetime:InvalidTimeZone",
                  "TimeZone must be a character vector or string scalar.");
    const std::string tz = canonical_time_zone(rhs.to_text());
    std::vector<double> v = f_[0];
    if (tz_.empty() && !tz.empty()) {
      // Unzoned clock times are read as clock times of the new zone.
      for (double& x : v)
        if (std::isfinite(x)) x -= zone_offset_ms(tz, x, true);
    } else if (!tz_.empty() && tz.empty()) {
      for (int64_t i = 0; i < dims_.numel(); ++i) v[i] = local_ms(i);
    }
    self = make(dims_, std::move(v), fmt_, tz);
    return true;
  }
  static const char* comps[] = {"Year", "Month", "Day", "Hour", "Minute", "Second"};
  for (int k = 0; k < 6; ++k) {
    if (name != comps[k]) continue;
    if (!rhs.is_numeric() && !rhs.is_logical())
      throw_error("MATLAB:datetime:InvalidComponent", "%s must be numeric.", comps[k]);
    const Tensor t = rhs.tensor();
    if (t.numel() != 1 && t.dims() != dims_)
      throw_error("MATLAB:datetime:InvalidComponentSize",
                  "The value assigned to %s must be a scalar or the same size as the array.",
                  comps[k]);
    std::vector<double> v = f_[0];
    for (int64_t i = 0; i < dims_.numel(); ++i) {
      const double l = local_ms(i);
      if (!std::isfinite(l)) continue;
      const CivilTime c = ms_to_civil(l);
      double vals[6] = {static_cast<double>(c.year), static_cast<double>(c.month),
                        static_cast<double>(c.day),  static_cast<double>(c.hour),
                        static_cast<double>(c.minute), c.second};
      vals[k] = t.get_double(t.numel() == 1 ? 0 : i);
      v[i] = from_local(civil_to_ms(vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]));
    }
    self = make(dims_, std::move(v), fmt_, tz_);
    return true;
  }
  return false;
}

// ------------------------------------------------------------------------------ DurationArray

Value DurationArray::make(Dims d, std::vector<double> ms, std::string fmt) {
  return Value(std::static_pointer_cast<Object>(
      std::make_shared<DurationArray>(d, std::move(ms), std::move(fmt))));
}

std::shared_ptr<TemporalArray> DurationArray::with_data(Dims d,
                                                       std::vector<std::vector<double>> f) const {
  return std::make_shared<DurationArray>(d, std::move(f[0]), fmt_);
}

namespace {

/// MATLAB's short number text of a duration in one unit: up to 5 significant digits.
std::string short_number(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.5g", v);
  return b;
}

bool is_unit_format(const std::string& f) {
  return f == "y" || f == "d" || f == "h" || f == "m" || f == "s";
}

bool valid_duration_format(const std::string& f) {
  if (is_unit_format(f)) return true;
  static const char* digital[] = {"dd:hh:mm:ss", "hh:mm:ss", "mm:ss", "hh:mm"};
  for (const char* d : digital) {
    const size_t n = std::strlen(d);
    if (f.compare(0, n, d) != 0) continue;
    if (f.size() == n) return true;
    if (std::strcmp(d, "hh:mm") == 0) return false;
    if (f[n] != '.' || f.size() - n - 1 > 9) return false;
    for (size_t i = n + 1; i < f.size(); ++i)
      if (f[i] != 'S') return false;
    return f.size() > n + 1;
  }
  return false;
}

}  // namespace

std::string DurationArray::text(int64_t i) const {
  const double v = f_[0][static_cast<size_t>(i)];
  if (is_unit_format(fmt_)) {
    const char u = fmt_[0];
    const double scale = u == 'y' ? 365.2425 * kMsPerDay : u == 'd' ? kMsPerDay
                         : u == 'h' ? 3600000.0 : u == 'm' ? 60000.0 : 1000.0;
    const double x = v / scale;
    std::string n = std::isnan(x) ? "NaN" : std::isinf(x) ? (x > 0 ? "Inf" : "-Inf") : short_number(x);
    if (u == 'y') return n + (x == 1 ? " yr" : " yrs");
    if (u == 'd') return n + (x == 1 ? " day" : " days");
    if (u == 'h') return n + " hr";
    if (u == 'm') return n + " min";
    return n + " sec";
  }
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
  const bool neg = v < 0;
  const double a = std::abs(v);
  const size_t dot = fmt_.find('.');
  const size_t nfrac = dot == std::string::npos ? 0 : fmt_.size() - dot - 1;
  const std::string base = fmt_.substr(0, dot);
  // Whole units truncate toward zero; the fraction digits too (as MATLAB displays them).
  const double unit_ms = std::pow(10.0, -static_cast<double>(nfrac)) * 1000.0;
  const double total = std::floor(a / unit_ms + 1e-9) * unit_ms;
  int64_t secs = static_cast<int64_t>(std::floor(total / 1000.0 + 1e-12));
  const double frac_ms = total - static_cast<double>(secs) * 1000.0;
  std::string out = neg ? "-" : "";
  if (base == "dd:hh:mm:ss") {
    out += two(secs / 86400) + ":" + two(secs / 3600 % 24) + ":" + two(secs / 60 % 60) + ":" +
           two(secs % 60);
  } else if (base == "hh:mm:ss") {
    out += two(secs / 3600) + ":" + two(secs / 60 % 60) + ":" + two(secs % 60);
  } else if (base == "mm:ss") {
    out += two(secs / 60) + ":" + two(secs % 60);
  } else {  // hh:mm
    out += two(secs / 3600) + ":" + two(secs / 60 % 60);
  }
  if (nfrac) {
    const int64_t digits =
        static_cast<int64_t>(std::llround(frac_ms / 1000.0 * std::pow(10.0, static_cast<double>(nfrac))));
    out += "." + padded(digits, nfrac);
  }
  return out;
}

std::vector<std::string> DurationArray::element_texts() const {
  std::vector<std::string> out;
  for (int64_t i = 0; i < dims_.numel(); ++i) out.push_back(text(i));
  return out;
}

Value DurationArray::convert(const Value& rhs) const {
  if (as_duration(rhs)) return rhs;
  if (rhs.is_tensor() && rhs.is_empty()) return make(rhs.dims(), {}, fmt_);
  if (rhs.is_numeric() || rhs.is_logical()) {
    // Numbers are days here, as in duration arithmetic and comparison.
    const Tensor t = rhs.tensor();
    std::vector<double> v(static_cast<size_t>(t.numel()));
    for (int64_t i = 0; i < t.numel(); ++i) v[i] = t.get_double(i) * kMsPerDay;
    return make(t.dims(), std::move(v), fmt_);
  }
  throw_error("MATLAB:duration:InvalidAssignmentRHS",
              "Unable to use '%s' values as duration values.", rhs.class_name().c_str());
}

bool DurationArray::get_property(std::string_view name, Value& out) const {
  if (name != "Format") return false;
  out = char_row(fmt_);
  return true;
}

bool DurationArray::set_property(std::string_view name, const Value& rhs, Value& self) {
  if (name != "Format") return false;
  const std::string f = rhs.is_text() ? rhs.to_text() : std::string("?");
  if (!valid_duration_format(f))
    throw_error("MATLAB:duration:UnrecognizedFormat",
                "Invalid duration format. Valid formats are 'y', 'd', 'h', 'm', 's', "
                "'dd:hh:mm:ss', 'hh:mm:ss', 'mm:ss', 'hh:mm', and any of the first three digital "
                "formats with up to nine S characters to indicate fractional second digits, "
                "such as 'hh:mm:ss.SSSS'.");
  self = make(dims_, f_[0], f);
  return true;
}

// ------------------------------------------------------------------------------ calendarDuration

Value CalendarDurationArray::make(Dims d, std::vector<double> months, std::vector<double> days,
                                  std::vector<double> ms, std::string fmt) {
  return Value(std::static_pointer_cast<Object>(std::make_shared<CalendarDurationArray>(
      d, std::move(months), std::move(days), std::move(ms), std::move(fmt))));
}

std::shared_ptr<TemporalArray> CalendarDurationArray::with_data(
    Dims d, std::vector<std::vector<double>> f) const {
  return std::make_shared<CalendarDurationArray>(d, std::move(f[0]), std::move(f[1]),
                                                 std::move(f[2]), fmt_);
}

std::string CalendarDurationArray::text(int64_t i) const {
  const double mo = f_[0][static_cast<size_t>(i)], dd = f_[1][static_cast<size_t>(i)],
               t = f_[2][static_cast<size_t>(i)];
  if (std::isnan(mo) || std::isnan(dd) || std::isnan(t)) return "NaN";
  if (std::isinf(mo) || std::isinf(dd) || std::isinf(t)) return (mo + dd + t) > 0 ? "Inf" : "-Inf";
  std::vector<std::string> parts;
  auto num = [](double v) { return short_number(v); };
  const bool has_y = fmt_.find('y') != std::string::npos;
  const bool has_q = fmt_.find('q') != std::string::npos;
  const bool has_w = fmt_.find('w') != std::string::npos;
  double m = mo;
  if (has_y) {
    const double y = std::trunc(m / 12);
    if (y != 0) parts.push_back(num(y) + "y");
    m -= y * 12;
  }
  if (has_q) {
    const double q = std::trunc(m / 3);
    if (q != 0) parts.push_back(num(q) + "q");
    m -= q * 3;
  }
  if (m != 0) parts.push_back(num(m) + "mo");
  double d = dd;
  if (has_w) {
    const double w = std::trunc(d / 7);
    if (w != 0) parts.push_back(num(w) + "w");
    d -= w * 7;
  }
  if (d != 0) parts.push_back(num(d) + "d");
  if (t != 0) {
    const double a = std::abs(t);
    const double h = std::floor(a / 3600000.0);
    const double mi = std::floor((a - h * 3600000.0) / 60000.0);
    const double s = (a - h * 3600000.0 - mi * 60000.0) / 1000.0;
    const std::string sg = t < 0 ? "-" : "";
    parts.push_back(sg + num(h) + "h");
    parts.push_back(sg + num(mi) + "m");
    parts.push_back(sg + num(s) + "s");
  }
  if (parts.empty()) return "0d";
  std::string out;
  for (size_t k = 0; k < parts.size(); ++k) out += (k ? " " : "") + parts[k];
  return out;
}

std::vector<std::string> CalendarDurationArray::element_texts() const {
  std::vector<std::string> out;
  for (int64_t i = 0; i < dims_.numel(); ++i) out.push_back(text(i));
  return out;
}

Value CalendarDurationArray::convert(const Value& rhs) const {
  if (as_caldur(rhs)) return rhs;
  if (const DurationArray* d = as_duration(rhs)) {
    const size_t n = d->ms().size();
    return make(rhs.dims(), std::vector<double>(n, 0), std::vector<double>(n, 0), d->ms(), fmt_);
  }
  if (rhs.is_tensor() && rhs.is_empty()) return make(rhs.dims(), {}, {}, {}, fmt_);
  throw_error("MATLAB:calendarDuration:InvalidAssignmentRHS",
              "Unable to use '%s' values as calendarDuration values.",
              rhs.class_name().c_str());
}

bool CalendarDurationArray::get_property(std::string_view name, Value& out) const {
  if (name != "Format") return false;
  out = char_row(fmt_);
  return true;
}

bool CalendarDurationArray::set_property(std::string_view name, const Value& rhs, Value& self) {
  if (name != "Format") return false;
  const std::string f = rhs.is_text() ? rhs.to_text() : std::string();
  bool ok = !f.empty() && f.find('m') != std::string::npos && f.find('d') != std::string::npos;
  for (char c : f) ok = ok && std::strchr("yqmwdt", c) != nullptr;
  if (!ok)
    throw_error("MATLAB:calendarDuration:InvalidFormat",
                "Invalid calendarDuration format: use the letters y, q, m, w, d and t in that "
                "order, with m and d required.");
  self = make(dims_, f_[0], f_[1], f_[2], f);
  return true;
}

}  // namespace matfuse
