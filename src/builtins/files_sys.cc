// File-system and time builtins of the files family: isfile, isfolder, delete, mkdir, pwd,
// fileparts, fullfile, tempdir, tempname, clock, now, datenum, datestr.
//
// Serial date numbers (MATLAB datenum): days since the proleptic Gregorian 0-Jan-0000, so
// datenum(0,1,1) = 1 and datenum(2000,1,1) = 730486; the fraction is the time of day.
#include <glob.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <ostream>
#include <random>

#include "builtins/files_util.h"
#include "builtins/format.h"
#include "builtins/text_import.h"
#include "runtime/figure_hook.h"

namespace matfuse {

namespace {

namespace fs = std::filesystem;

/// The text elements of a char row, string array or cell array of char rows.
std::vector<std::string> text_list(const Value& v, std::string_view fname) {
  std::vector<std::string> out;
  if (v.is_string()) {
    for (const auto& e : v.string_array().elems()) out.push_back(e ? *e : std::string());
  } else if (v.is_cell()) {
    for (const auto& e : v.cell().elems()) out.push_back(text_arg(e, fname, 1));
  } else {
    out.push_back(text_arg(v, fname, 1));
  }
  return out;
}

Outputs is_kind(Args args, int nargout, const char* fname, bool folder) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  std::vector<std::string> names = text_list(args[0], fname);
  Dims d = args[0].is_text() ? Dims(1, 1) : args[0].dims();
  Tensor t = Tensor::zeros(ClassId::Logical, d);
  for (size_t i = 0; i < names.size(); ++i) {
    std::error_code ec;
    auto st = fs::status(names[i], ec);
    bool yes = !ec && (folder ? fs::is_directory(st) : fs::is_regular_file(st));
    t.set_double(static_cast<int64_t>(i), yes ? 1 : 0);
  }
  return {Value(std::move(t))};
}

/// tf = isfile(name): true for existing regular files; arrays for string/cell inputs.
Outputs bi_isfile(CallContext&, Args args, int nargout) {
  return is_kind(args, nargout, "isfile", false);
}
/// tf = isfolder(name): true for existing folders; arrays for string/cell inputs.
Outputs bi_isfolder(CallContext&, Args args, int nargout) {
  return is_kind(args, nargout, "isfolder", true);
}

/// type(name, ...): prints the contents of text files, each after an empty line and followed
/// by one. A name that is not a file is tried with '.m' appended. Errors:
/// MATLAB:type:fileNotFound for a name that is neither.
Outputs bi_type(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 0);
  std::ostream& os = *ctx.session().out;
  for (const Value& a : args) {
    const std::string name = a.to_text("file name");
    std::error_code ec;
    std::string path = name;
    if (!std::filesystem::is_regular_file(path, ec) &&
        std::filesystem::is_regular_file(name + ".m", ec))
      path = name + ".m";
    if (!std::filesystem::is_regular_file(path, ec))
      throw_error("MATLAB:type:fileNotFound", "File '%s' not found.", name.c_str());
    std::string text = text_import::read_file(path);
    if (!text.empty() && text.back() != '\n') text += '\n';
    os << "\n" << text << "\n";
  }
  return {};
}

/// delete(file1, ...): removes files ('*' and '?' wildcards allowed). A name matching no file
/// gives warning MATLAB:DELETE:FileNotFound; folders are not removed (MATLAB:DELETE:Permission).
/// delete(h) with graphics handles removes those objects (figures close).
Outputs bi_delete(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 0);
  if (const HandleDeleteHook del = handle_delete_hook(); del && args.size() == 1 && del(args[0]))
    return {};
  for (const Value& a : args) {
    for (const std::string& pat : text_list(a, "delete")) {
      std::vector<std::string> matches;
      glob_t g{};
      if (glob(pat.c_str(), GLOB_NOSORT, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) matches.emplace_back(g.gl_pathv[i]);
      globfree(&g);
      if (matches.empty()) {
        files_detail::warn(ctx, "MATLAB:DELETE:FileNotFound", "File '" + pat + "' not found.");
        continue;
      }
      for (const auto& m : matches) {
        std::error_code ec;
        if (fs::is_directory(m, ec)) {
          files_detail::warn(ctx, "MATLAB:DELETE:Permission",
                             "Cannot delete folder '" + m + "' with delete; use rmdir.");
          continue;
        }
        if (!fs::remove(m, ec))
          files_detail::warn(ctx, "MATLAB:DELETE:Permission",
                             "File '" + m + "' could not be deleted: " + ec.message() + ".");
      }
    }
  }
  return {};
}

/// [status, msg, msgID] = mkdir(folder) or mkdir(parent, folder): creates the folder and any
/// missing parents. An existing folder gives status 1 with MATLAB:MKDIR:DirectoryExists
/// (a warning when no outputs are requested); failure gives status 0 (MATLAB:MKDIR:OSError
/// raised when no outputs are requested).
Outputs bi_mkdir(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 3);
  fs::path p = text_arg(args[0], "mkdir", 1);
  if (args.size() == 2) p /= text_arg(args[1], "mkdir", 2);
  std::error_code ec;
  double status = 1;
  std::string msg, id;
  if (fs::is_directory(p, ec)) {
    msg = "Directory already exists.";
    id = "MATLAB:MKDIR:DirectoryExists";
    if (nargout == 0) files_detail::warn(ctx, id.c_str(), msg);
  } else if (!fs::create_directories(p, ec) || ec) {
    status = 0;
    msg = "Cannot create directory " + p.string() + ": " + ec.message() + ".";
    id = "MATLAB:MKDIR:OSError";
    if (nargout == 0) throw_error(id.c_str(), "%s", msg.c_str());
  }
  if (nargout == 0) return {};
  return {Value(status), char_row(msg), char_row(id)};
}

/// pwd: the current folder as a char row.
Outputs bi_pwd(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  std::error_code ec;
  return {char_row(fs::current_path(ec).string())};
}

/// [filepath, name, ext] = fileparts(file): splits at the last '/' and the last '.' of the
/// name. A leading '.' of the name starts the extension ('.bashrc'). String in, strings out.
Outputs bi_fileparts(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 3);
  if (!args[0].is_text())
    throw_error("MATLAB:fileparts:MustBeChar", "Input must be a row vector of characters, or "
                "a string scalar.");
  std::string f = args[0].to_text();
  std::string dir, name, ext;
  size_t slash = f.find_last_of('/');
  if (slash != std::string::npos) {
    dir = slash == 0 ? "/" : f.substr(0, slash);
    name = f.substr(slash + 1);
  } else {
    name = f;
  }
  size_t dot = name.find_last_of('.');
  if (dot != std::string::npos) {
    ext = name.substr(dot);
    name.resize(dot);
  }
  bool str = args[0].is_string();
  auto mk = [&](const std::string& s) { return str ? Value::from_string(s) : Value::from_chars(s); };
  Outputs out{mk(dir), mk(name), mk(ext)};
  if (args.size() == 2) {
    std::string part = text_arg(args[1], "fileparts", 2);
    if (part == "path") return {out[0]};
    if (part == "name") return {out[1]};
    if (part == "ext") return {out[2]};
    throw_error("MATLAB:fileparts:InvalidFilePart",
                "Second argument must be 'path', 'name' or 'ext'.");
  }
  out.resize(static_cast<size_t>(std::max(nargout, 1)));
  return out;
}

std::string join_parts(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) {
    if (p.empty()) continue;
    if (!out.empty() && out.back() != '/') out += '/';
    out += p;
  }
  std::string clean;  // collapse repeated separators
  for (char c : out)
    if (!(c == '/' && !clean.empty() && clean.back() == '/')) clean += c;
  return clean;
}

/// f = fullfile(part1, ..., partN): parts joined by single '/' (empty parts skipped). A cell
/// array part gives a cell array (one result per element); any string part gives a string.
Outputs bi_fullfile(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 1);
  bool any_string = false;
  const Value* cellarg = nullptr;
  for (const Value& a : args) {
    if (a.is_cell()) {
      if (cellarg) throw_error("MATLAB:fullfile:CellInputs", "Only one input can be a cell array.");
      cellarg = &a;
    } else if (a.is_string()) {
      if (a.numel() != 1)
        throw_error("MATLAB:fullfile:InvalidInput", "String inputs must be scalars.");
      any_string = true;
    } else if (!a.is_text() && !(a.is_tensor() && a.is_empty())) {
      throw_error("MATLAB:fullfile:NotCharCell",
                  "All inputs must be strings, character vectors, or cell arrays of character "
                  "vectors.");
    }
  }
  auto join_with = [&](const std::string* cell_text) {
    std::vector<std::string> parts;
    for (const Value& a : args) {
      if (a.is_cell()) parts.push_back(*cell_text);
      else if (a.is_text()) parts.push_back(a.to_text());
    }
    return join_parts(parts);
  };
  if (cellarg) {
    CellArray out(cellarg->dims());
    for (int64_t i = 0; i < cellarg->numel(); ++i) {
      std::string t = text_arg(cellarg->cell()[i], "fullfile", 1);
      out.at(i) = char_row(join_with(&t));
    }
    return {Value(std::move(out))};
  }
  std::string s = join_with(nullptr);
  return {any_string ? Value::from_string(s) : Value::from_chars(s)};
}

std::string temp_folder() {
  std::error_code ec;
  std::string t = fs::temp_directory_path(ec).string();
  if (ec || t.empty()) t = "/tmp";
  if (t.back() != '/') t += '/';
  return t;
}

/// filesep: the platform's file separator, '/'.
Outputs bi_filesep(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  return {char_row("/")};
}

/// pathsep: the separator of search path entries, ':'.
Outputs bi_pathsep(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  return {char_row(":")};
}

/// tempdir: the system temporary folder with a trailing '/'.
Outputs bi_tempdir(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  return {char_row(temp_folder())};
}

/// tempname or tempname(folder): a unique name "tp<uuid with '_'>" in tempdir or folder.
/// Nothing is created.
Outputs bi_tempname(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  std::string dir = args.empty() ? temp_folder() : text_arg(args[0], "tempname", 1);
  static std::mt19937_64 gen{std::random_device{}()};
  char buf[64];
  uint64_t a = gen(), b = gen();
  std::snprintf(buf, sizeof buf, "tp%08x_%04x_%04x_%04x_%012llx",
                static_cast<unsigned>(a >> 32), static_cast<unsigned>((a >> 16) & 0xffff),
                static_cast<unsigned>(a & 0xffff), static_cast<unsigned>(b >> 48),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  bool str = !args.empty() && args[0].is_string();
  std::string s = join_parts({dir, buf});
  return {str ? Value::from_string(s) : char_row(s)};
}

// ---------------------------------------------------------------- dates

bool leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

const int kCumDays[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};

/// datenum of year y, month m (1..12), day d (any integer day offset).
double day_number(int64_t y, int64_t m, double d) {
  // Months past 12 carry into the year (MATLAB datenum(2000,13,1) = datenum(2001,1,1)); months
  // below 1 count as January (MATLAB's documented datenum rule).
  if (m < 1) m = 1;
  int64_t mm = m - 1;
  y += mm >= 0 ? mm / 12 : -((11 - mm) / 12);
  mm -= 12 * (mm >= 0 ? mm / 12 : -((11 - mm) / 12));
  auto cdiv = [](int64_t a, int64_t b) {  // ceil(a / b) for b > 0
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
  };
  double n = 365.0 * static_cast<double>(y) + static_cast<double>(cdiv(y, 4) - cdiv(y, 100) +
                                                                  cdiv(y, 400));
  n += kCumDays[mm] + d;
  if (mm > 1 && leap(y)) n += 1;
  return n;
}

/// datenum of a date vector [y mo d h mi s] (finite). Fractional years add that fraction of the
/// year's days, fractional months that fraction of the month's days (both on top of day d).
double vector_number(const double f[6]) {
  double yf = std::floor(f[0]), mf = std::floor(f[1]);
  int64_t y = static_cast<int64_t>(yf), m = static_cast<int64_t>(mf);
  double n = day_number(y, m, f[2]) + (f[3] * 3600 + f[4] * 60 + f[5]) / 86400.0;
  if (f[1] != mf) {
    int64_t mc = m < 1 ? 1 : m;
    n += (f[1] - mf) * (day_number(y, mc + 1, 1) - day_number(y, mc, 1));
  }
  if (f[0] != yf) n += (f[0] - yf) * (leap(y) ? 366 : 365);
  return n;
}

struct DateVec {
  int64_t y = 0, mo = 1, d = 1, h = 0, mi = 0;
  double s = 0;
};

DateVec to_datevec(double dn) {
  DateVec v;
  double day = std::floor(dn);
  double ms = std::round((dn - day) * 86400000.0);
  if (ms >= 86400000.0) {
    day += 1;
    ms -= 86400000.0;
  }
  int64_t y = static_cast<int64_t>(std::floor(day / 365.2425));
  while (day_number(y, 1, 1) > day) --y;
  while (day_number(y + 1, 1, 1) <= day) ++y;
  int64_t mo = 12;
  while (mo > 1 && day_number(y, mo, 1) > day) --mo;
  v.y = y;
  v.mo = mo;
  v.d = static_cast<int64_t>(day - day_number(y, mo, 1)) + 1;
  v.h = static_cast<int64_t>(ms / 3600000.0);
  ms -= static_cast<double>(v.h) * 3600000.0;
  v.mi = static_cast<int64_t>(ms / 60000.0);
  ms -= static_cast<double>(v.mi) * 60000.0;
  v.s = ms / 1000.0;
  return v;
}

DateVec local_now() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  localtime_r(&t, &tm);
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
            1000000;
  DateVec v;
  v.y = tm.tm_year + 1900;
  v.mo = tm.tm_mon + 1;
  v.d = tm.tm_mday;
  v.h = tm.tm_hour;
  v.mi = tm.tm_min;
  v.s = tm.tm_sec + static_cast<double>(us) / 1e6;
  return v;
}

double datevec_number(const DateVec& v) {
  return day_number(v.y, v.mo, static_cast<double>(v.d)) +
         (static_cast<double>(v.h) * 3600.0 + static_cast<double>(v.mi) * 60.0 + v.s) / 86400.0;
}

/// c = clock: [year month day hour minute seconds] of the local time (1x6 double).
Outputs bi_clock(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  DateVec v = local_now();
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, 6));
  double* p = t.mutable_data<double>();
  p[0] = static_cast<double>(v.y);
  p[1] = static_cast<double>(v.mo);
  p[2] = static_cast<double>(v.d);
  p[3] = static_cast<double>(v.h);
  p[4] = static_cast<double>(v.mi);
  p[5] = v.s;
  return {Value(std::move(t))};
}

/// t = now: the local date and time as a serial date number.
Outputs bi_now(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 1);
  return {Value(datevec_number(local_now()))};
}

/// Rows of a datevec-like matrix (N x 3 or N x 6) as serial date numbers.
std::vector<double> datevec_rows(const Tensor& t) {
  int64_t n = t.dims().rows(), c = t.dims().cols();
  std::vector<double> out;
  for (int64_t r = 0; r < n; ++r) {
    DateVec v;
    double f[6] = {0, 1, 1, 0, 0, 0};
    for (int64_t k = 0; k < c; ++k) f[k] = t.get_double(k * n + r);
    bool ok = std::abs(f[0]) <= 1e9 && std::abs(f[1]) <= 1e9;
    for (double x : f) ok = ok && std::isfinite(x);
    if (!ok) {
      out.push_back(std::nan(""));
      continue;
    }
    out.push_back(vector_number(f));
  }
  return out;
}

/// datenum(text [, format] [, pivot]) for a char row or matrix (one date per row), cellstr or
/// string array: a column of serial date numbers. Without a format, MATLAB's standard formats
/// are tried. Errors: MATLAB:datenum:ConvertDateString when a text matches no format.
Outputs datenum_text(Args args) {
  std::vector<std::string> texts;
  const Value& a = args[0];
  if (a.is_char()) {
    const Tensor& t = a.tensor();
    int64_t r = t.dims().rows(), c = t.numel() / std::max<int64_t>(r, 1);
    for (int64_t i = 0; i < r; ++i) {
      std::string row;
      for (int64_t j = 0; j < c; ++j) row += static_cast<char>(t.get_double(j * r + i));
      texts.push_back(row);
    }
  } else if (a.is_cell()) {
    for (int64_t i = 0; i < a.cell().numel(); ++i) texts.push_back(a.cell()[i].to_text("date"));
  } else {
    for (int64_t i = 0; i < a.numel(); ++i) texts.push_back(a.string_array()[i].value_or(""));
  }
  std::string fmt;
  int64_t this_year = local_now().y, pivot = this_year - 50;
  for (size_t k = 1; k < args.size(); ++k) {
    if (args[k].is_text()) fmt = args[k].to_text("format");
    else {
      // A year (NaN, Inf and 1e300 would be undefined to cast to int64).
      const double py = args[k].to_double("pivot year");
      if (!(std::fabs(py) < 1e9))
        throw_error("MATLAB:datenum:InvalidPivotYear",
                    "Pivot year must be a finite scalar.");  // unverified
      pivot = static_cast<int64_t>(py);
    }
  }
  Tensor o = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(texts.size()), 1));
  for (size_t i = 0; i < texts.size(); ++i) {
    double f[6];
    bool ok = fmt.empty() ? files_detail::parse_date_auto(texts[i], pivot, this_year, f)
                          : files_detail::parse_date_text(texts[i], fmt, pivot, this_year, f);
    if (!ok)
      throw_error("MATLAB:datenum:ConvertDateString",
                  "DATENUM failed. Failed to convert text '%s' to a date number.", texts[i].c_str());
    o.mutable_data<double>()[i] = vector_number(f);
  }
  return {Value(std::move(o))};
}

/// datenum(y, m, d[, h, mi, s]) or datenum(datevec): serial date numbers (arguments of equal
/// size or scalars; fractional years and months count that fraction of the year's or month's
/// days), or datenum(text [, format] [, pivot]) (see datenum_text).
Outputs bi_datenum(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 6);
  check_nargout(nargout, 1);
  if (args[0].is_char() || args[0].is_cell() || args[0].is_string()) {
    if (args.size() > 3) throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
    return datenum_text(args);
  }
  for (const Value& a : args)
    if (!a.is_tensor() || a.is_char())
      throw_error("matfuse:notAvailable", "datenum supports numeric date vectors only.");
  if (args.size() == 1) {
    Tensor t = args[0].tensor();
    if (t.dims().ndims() == 2 && (t.dims().cols() == 3 || t.dims().cols() == 6) &&
        t.dims().rows() >= 1) {
      std::vector<double> v = datevec_rows(t);
      Tensor o = Tensor::uninit(ClassId::Double, Dims(static_cast<int64_t>(v.size()), 1));
      std::copy(v.begin(), v.end(), o.mutable_data<double>());
      return {Value(std::move(o))};
    }
    return {Value(args[0].cls() == ClassId::Double ? args[0] : Value(t))};
  }
  Dims d(1, 1);
  for (const Value& a : args)
    if (a.numel() != 1) {
      if (d.numel() != 1 && a.dims() != d)
        throw_error("MATLAB:datenum:InputSizeMismatch", "Inputs must be the same size or scalars.");
      d = a.dims();
    }
  Tensor o = Tensor::uninit(ClassId::Double, d);
  for (int64_t i = 0; i < d.numel(); ++i) {
    double f[6] = {0, 1, 1, 0, 0, 0};
    for (size_t k = 0; k < args.size(); ++k) {
      Tensor t = args[k].tensor();
      f[k] = t.get_double(t.numel() == 1 ? 0 : i);
    }
    double r;
    if (!std::isfinite(f[0]) || !std::isfinite(f[1]) || std::abs(f[0]) > 1e9 ||
        std::abs(f[1]) > 1e9) {
      r = std::nan("");
    } else {
      r = vector_number(f);
    }
    o.mutable_data<double>()[i] = r;
  }
  return {Value(std::move(o))};
}

const char* kMonths[12] = {"January", "February", "March",     "April",   "May",      "June",
                           "July",    "August",   "September", "October", "November", "December"};
const char* kDays[7] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                        "Saturday"};

/// Formats one date number with MATLAB datestr tokens (QQ, yyyy/YYYY, yy/YY, mmmm mmm mm m dddd ddd dd d HH
/// MM SS FFF AM PM).
std::string format_date(double dn, const std::string& fmt) {
  if (!std::isfinite(dn) || std::abs(dn) > 1e9) return "NaN";
  DateVec v = to_datevec(dn);
  bool ampm = fmt.find("AM") != std::string::npos || fmt.find("PM") != std::string::npos;
  int64_t wd = static_cast<int64_t>(std::floor(dn)) - 2;
  wd = ((wd % 7) + 7) % 7;
  std::string out;
  char buf[32];
  auto starts = [&](size_t i, const char* tok) { return fmt.compare(i, std::strlen(tok), tok) == 0; };
  for (size_t i = 0; i < fmt.size();) {
    if (starts(i, "QQ")) {
      out += "Q" + std::to_string((v.mo - 1) / 3 + 1);
      i += 2;
    } else if (starts(i, "yyyy") || starts(i, "YYYY")) {
      std::snprintf(buf, sizeof buf, "%04lld", static_cast<long long>(v.y));
      out += buf;
      i += 4;
    } else if (starts(i, "yy") || starts(i, "YY")) {
      std::snprintf(buf, sizeof buf, "%02lld", static_cast<long long>(((v.y % 100) + 100) % 100));
      out += buf;
      i += 2;
    } else if (starts(i, "mmmm")) {
      out += kMonths[v.mo - 1];
      i += 4;
    } else if (starts(i, "mmm")) {
      out += std::string(kMonths[v.mo - 1], 3);
      i += 3;
    } else if (starts(i, "mm")) {
      std::snprintf(buf, sizeof buf, "%02lld", static_cast<long long>(v.mo));
      out += buf;
      i += 2;
    } else if (starts(i, "m")) {
      out += kMonths[v.mo - 1][0];
      i += 1;
    } else if (starts(i, "dddd")) {
      out += kDays[wd];
      i += 4;
    } else if (starts(i, "ddd")) {
      out += std::string(kDays[wd], 3);
      i += 3;
    } else if (starts(i, "dd")) {
      std::snprintf(buf, sizeof buf, "%02lld", static_cast<long long>(v.d));
      out += buf;
      i += 2;
    } else if (starts(i, "d")) {
      out += kDays[wd][0];
      i += 1;
    } else if (starts(i, "HH")) {
      int64_t h = v.h;
      if (ampm) h = h % 12 == 0 ? 12 : h % 12;
      std::snprintf(buf, sizeof buf, ampm ? "%2lld" : "%02lld", static_cast<long long>(h));
      out += buf;
      i += 2;
    } else if (starts(i, "MM")) {
      std::snprintf(buf, sizeof buf, "%02lld", static_cast<long long>(v.mi));
      out += buf;
      i += 2;
    } else if (starts(i, "SS")) {
      std::snprintf(buf, sizeof buf, "%02d", static_cast<int>(std::floor(v.s)));
      out += buf;
      i += 2;
    } else if (starts(i, "FFF")) {
      std::snprintf(buf, sizeof buf, "%03d",
                    static_cast<int>(std::round((v.s - std::floor(v.s)) * 1000)) % 1000);
      out += buf;
      i += 3;
    } else if (starts(i, "AM") || starts(i, "PM")) {
      out += v.h >= 12 ? "PM" : "AM";
      i += 2;
    } else {
      out += fmt[i++];
    }
  }
  return out;
}

/// Format text of a datestr numeric format code (the common ones).
std::string format_code(int code) {
  switch (code) {
    case 0: return "dd-mmm-yyyy HH:MM:SS";
    case 1: return "dd-mmm-yyyy";
    case 2: return "mm/dd/yy";
    case 3: return "mmm";
    case 4: return "m";
    case 5: return "mm";
    case 6: return "mm/dd";
    case 7: return "dd";
    case 8: return "ddd";
    case 9: return "d";
    case 10: return "yyyy";
    case 11: return "yy";
    case 12: return "mmmyy";
    case 13: return "HH:MM:SS";
    case 14: return "HH:MM:SS PM";
    case 15: return "HH:MM";
    case 16: return "HH:MM PM";
    case 17: return "QQ-YY";
    case 18: return "QQ";
    case 19: return "dd/mm";
    case 20: return "dd/mm/yy";
    case 21: return "mmm.dd,yyyy HH:MM:SS";
    case 22: return "mmm.dd,yyyy";
    case 23: return "mm/dd/yyyy";
    case 24: return "dd/mm/yyyy";
    case 25: return "yy/mm/dd";
    case 26: return "yyyy/mm/dd";
    case 27: return "QQ-YYYY";
    case 28: return "mmmyyyy";
    case 29: return "yyyy-mm-dd";
    case 30: return "yyyymmddTHHMMSS";
    case 31: return "yyyy-mm-dd HH:MM:SS";
    default:
      throw_error("MATLAB:datestr:DateNumber", "Unsupported date format number %d.", code);
  }
}

/// s = datestr(D) / datestr(D, fmt): char matrix, one row per date. D holds serial date
/// numbers or datevec rows (N x 3 or N x 6 with month values 1..12). Default format 0
/// ('dd-mmm-yyyy HH:MM:SS'), or 1 when every time is midnight. fmt is a format text or code.
Outputs bi_datestr(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  if (!args[0].is_tensor() || args[0].is_char())
    throw_error("matfuse:notAvailable", "datestr supports numeric dates only.");
  Tensor t = args[0].tensor();
  std::vector<double> nums;
  bool is_vec = t.dims().ndims() == 2 && (t.dims().cols() == 6 || t.dims().cols() == 3) &&
                t.dims().rows() >= 1;
  if (is_vec) {
    int64_t n = t.dims().rows();
    for (int64_t r = 0; r < n && is_vec; ++r) {
      double m = t.get_double(n + r), d = t.get_double(2 * n + r);
      is_vec = m >= 1 && m <= 12 && d >= 1 && d <= 31 && m == std::floor(m);
    }
  }
  if (is_vec) nums = datevec_rows(t);
  else
    for (int64_t i = 0; i < t.numel(); ++i) nums.push_back(t.get_double(i));
  std::string fmt;
  if (args.size() >= 2) {
    if (args[1].is_text()) fmt = args[1].to_text();
    else {
      // Codes 0..31; others (NaN, 1e12: undefined to cast to int) are unsupported numbers.
      const double c = args[1].to_double("format");
      if (!(c >= 0 && c <= 31) || c != std::floor(c))
        throw_error("MATLAB:datestr:DateNumber", "Unsupported date format number %g.", c);
      fmt = format_code(static_cast<int>(c));
    }
  } else {
    bool midnight = true;
    for (double d : nums) midnight = midnight && std::isfinite(d) && d == std::floor(d);
    fmt = format_code(midnight && !nums.empty() ? 1 : 0);
  }
  std::vector<std::string> rows;
  size_t width = 0;
  for (double d : nums) {
    rows.push_back(format_date(d, fmt));
    width = std::max(width, rows.back().size());
  }
  int64_t m = static_cast<int64_t>(rows.size()), n = static_cast<int64_t>(width);
  if (m == 1) return {char_row(rows[0])};
  Tensor o = Tensor::zeros(ClassId::Char, Dims(m, n));
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      const std::string& s = rows[static_cast<size_t>(r)];
      o.set_double(c * m + r, c < static_cast<int64_t>(s.size())
                                  ? static_cast<unsigned char>(s[static_cast<size_t>(c)])
                                  : ' ');
    }
  return {Value(std::move(o))};
}

}  // namespace

void register_files_sys(Registry& r) {
  r.add("isfile", bi_isfile);
  r.add("isfolder", bi_isfolder);
  r.add("delete", bi_delete);
  r.add("type", bi_type);
  r.add("mkdir", bi_mkdir);
  r.add("pwd", bi_pwd);
  r.add("fileparts", bi_fileparts);
  r.add("fullfile", bi_fullfile);
  r.add("tempdir", bi_tempdir);
  r.add("filesep", bi_filesep);
  r.add("pathsep", bi_pathsep);
  r.add("tempname", bi_tempname);
  r.add("clock", bi_clock);
  r.add("now", bi_now);
  r.add("datenum", bi_datenum);
  r.add("datestr", bi_datestr);
}

}  // namespace matfuse
