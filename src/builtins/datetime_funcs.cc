// datetime, duration and calendarDuration functions: constructors (datetime, NaT, duration,
// hours ... years, calendarDuration, calyears ... caldays), component functions (year ...
// second, weekday, ymd, hms, timeofday), between, dateshift, conversions (datenum, datestr,
// posixtime, juliandate, exceltime, yyyymmdd, convertTo, char, string, cellstr) and the type
// tests. Operators and array methods are in datetime_ops.cc.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "builtins/datetime.h"
#include "builtins/datetime_util.h"
#include "builtins/format.h"
#include "builtins/math_util.h"
#include "builtins/registry.h"
#include "builtins/text_util.h"

namespace matfuse {

using namespace datetime_detail;

namespace datetime_detail {

std::vector<double> numbers(const Value& v, const char* fname) {
  if (!(v.is_numeric() || v.is_logical()))
    throw_error("MATLAB:datetime:InvalidNumericData", "Input data to %s must be numeric.", fname);
  const Tensor t = v.tensor();
  if (t.is_complex())
    throw_error("MATLAB:datetime:InvalidNumericData", "Input data to %s must be real.", fname);
  std::vector<double> r(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) r[i] = t.get_double(i);
  return r;
}

Dims common_dims(Args args, const char* fname) {
  Dims d(1, 1);
  bool set = false;
  for (const Value& a : args) {
    if (a.numel() == 1) continue;
    if (set && a.dims() != d)
      throw_error("MATLAB:datetime:InputSizeMismatch",
                  "Numeric input data to %s must all be the same size, or any of them can be "
                  "scalar.", fname);
    d = a.dims();
    set = true;
  }
  return d;
}

std::string option_name(const Value& v) {
  return v.is_text() ? text_detail::lower(v.to_text()) : std::string();
}

Tensor doubles_tensor(const Dims& d, const std::vector<double>& v) {
  Tensor t = Tensor::uninit(ClassId::Double, d);
  std::copy(v.begin(), v.end(), t.mutable_data<double>());
  return t;
}

const DatetimeArray& datetime_arg(const Value& v, const char* fname) {
  const DatetimeArray* d = as_datetime(v);
  if (!d)
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function '%s' for input arguments of type '%s'.", fname,
                v.class_name().c_str());
  return *d;
}

double add_months_local(double local, double months) {
  if (!std::isfinite(local) || !std::isfinite(months)) return std::isnan(months) ? NAN : local + months * NAN;
  const CivilTime c = ms_to_civil(local);
  const double tod = local - std::floor(local / kMsPerDay) * kMsPerDay;
  const double m0 = static_cast<double>(c.year) * 12 + (c.month - 1) + months;
  const double y = std::floor(m0 / 12);
  // Years past +-30000 are NaT, as civil_to_ms makes them (calmonths(1e300) was undefined to
  // convert to int).
  if (!(std::fabs(y) <= 30000)) return NAN;
  const int mo = static_cast<int>(m0 - y * 12) + 1;
  const unsigned last = static_cast<unsigned>(
      (std::chrono::year(static_cast<int>(y)) / std::chrono::month(static_cast<unsigned>(mo)) /
       std::chrono::last)
          .day());
  const double day = std::min<double>(c.day, last);  // Jan 31 + 1 month is Feb 28 (or 29)
  return civil_to_ms(y, mo, day, 0, 0, 0) + tod;
}

}  // namespace datetime_detail

namespace {

/// Name-value options of datetime, NaT and duration.
struct TimeOptions {
  std::string format, input_format, time_zone, convert_from;
  bool format_set = false, tz_set = false;
  double epoch_ms = 0;
  double ticks = 1;
};

/// Splits args at the first name-value option name; fills opts.
size_t parse_options(Args args, size_t first, TimeOptions& o, const char* fname) {
  static const char* names[] = {"format", "inputformat", "timezone", "convertfrom", "locale",
                                "pivotyear", "epoch", "ticksperSecond"};
  size_t k = first;
  for (; k < args.size(); ++k) {
    const std::string n = option_name(args[k]);
    bool is_name = false;
    for (const char* x : names)
      if (n == text_detail::lower(x)) is_name = true;
    if (is_name) break;
  }
  const size_t end = k;
  for (; k < args.size(); k += 2) {
    const std::string n = option_name(args[k]);
    if (k + 1 >= args.size())
      throw_error("MATLAB:datetime:InvalidNameValue", "Name-value arguments must come in pairs.");
    const Value& v = args[k + 1];
    if (n == "format") {
      if (!v.is_text())
        throw_error("MATLAB:datetime:InvalidFormat",
                    "Format must be a character vector or string scalar.");
      o.format = v.to_text();
      o.format_set = true;
    } else if (n == "inputformat") {
      o.input_format = v.to_text();
    } else if (n == "timezone") {
      if (!v.is_text())
        throw_error("MATLAB:datetime:InvalidTimeZone",
                    "TimeZone must be a character vector or string scalar.");
      o.time_zone = canonical_time_zone(v.to_text());
      o.tz_set = true;
    } else if (n == "convertfrom") {
      o.convert_from = text_detail::lower(v.to_text());
    } else if (n == "locale" || n == "pivotyear") {
      // Text is read in the en_US locale; a pivot year other than the default is not kept.
    } else if (n == "epoch") {
      if (const DatetimeArray* e = as_datetime(v)) o.epoch_ms = e->local_ms(0);
      else if (v.is_text()) o.epoch_ms = as_datetime(datetime_from_text(v, "", "", ""))->ms()[0];
      else o.epoch_ms = (v.to_double() - kDatenumEpoch) * kMsPerDay;
    } else if (n == "tickspersecond") {
      o.ticks = v.to_double();
    } else {
      throw_error("MATLAB:datetime:InvalidNameValue", "Invalid parameter name '%s' for %s.",
                  args[k].is_text() ? args[k].to_text().c_str() : "?", fname);
    }
  }
  return end;
}

/// The Format of a new datetime: the 'Format' option, else the default ('dd-MMM-uuuu' for
/// datetimes made from dates alone: MATLAB's default date format).
std::string dt_format(const TimeOptions& o, bool date_only = false) {
  if (!o.format_set) return date_only ? kDefaultDateFormat : "";
  const std::string l = text_detail::lower(o.format);
  if (l == "default") return "";
  if (l == "defaultdate") return kDefaultDateFormat;
  return o.format;
}

Value from_convert(const Value& x, const TimeOptions& o) {
  const std::vector<double> v = numbers(x, "datetime");
  std::vector<double> ms(v.size());
  const std::string& t = o.convert_from;
  bool utc = false;  // the numbers count UTC instants (posixtime, Julian dates, epoch time)
  for (size_t i = 0; i < v.size(); ++i) {
    const double a = v[i];
    if (t == "datenum") ms[i] = (a - kDatenumEpoch) * kMsPerDay;
    else if (t == "excel") ms[i] = (a + 693960 - kDatenumEpoch) * kMsPerDay;
    else if (t == "excel1904") ms[i] = (a + 695422 - kDatenumEpoch) * kMsPerDay;
    else if (t == "posixtime") ms[i] = a * 1000, utc = true;
    else if (t == "juliandate") ms[i] = (a - 2440587.5) * kMsPerDay, utc = true;
    else if (t == "modifiedjuliandate") ms[i] = (a - 40587) * kMsPerDay, utc = true;
    else if (t == "epochtime") ms[i] = o.epoch_ms + a / o.ticks * 1000;
    else if (t == "yyyymmdd") {
      const double y = std::floor(a / 10000), mo = std::floor((a - y * 10000) / 100);
      ms[i] = civil_to_ms(y, mo, a - y * 10000 - mo * 100, 0, 0, 0);
    } else {
      throw_error("MATLAB:datetime:UnknownConvertFrom",
                  "'%s' is not a recognized 'ConvertFrom' value.", t.c_str());
    }
  }
  DatetimeArray tmp(x.dims(), {}, "", o.time_zone);
  if (!utc)
    for (double& m : ms) m = tmp.from_local(m);
  return DatetimeArray::make(x.dims(), std::move(ms), dt_format(o, t == "yyyymmdd"), o.time_zone);
}

double relative_day(const std::string& w, const std::string& tz) {
  const double now = now_ms(tz);
  if (w == "now") return now;
  // today/tomorrow/yesterday: midnight of the local day.
  DatetimeArray tmp(Dims(1, 1), {now}, "", tz);
  double local = tmp.local_ms(0);
  local = std::floor(local / kMsPerDay) * kMsPerDay;
  if (w == "tomorrow") local += kMsPerDay;
  if (w == "yesterday") local -= kMsPerDay;
  return tmp.from_local(local);
}

/// t = datetime, datetime(relativeDay), datetime(text[, 'InputFormat', f]),
/// datetime(DateVectors), datetime(Y,M,D[,H,MI,S[,MS]]), datetime(X,'ConvertFrom',type), with
/// 'Format', 'TimeZone', 'InputFormat', 'ConvertFrom', 'Epoch', 'TicksPerSecond', 'Locale',
/// 'PivotYear'. Numeric inputs must be the same size or scalars
/// (MATLAB:datetime:InputSizeMismatch); unparsable text raises MATLAB:datetime:ParseErr (with
/// an InputFormat) or MATLAB:datetime:UnrecognizedDateStringSuggestLocale.
Outputs bi_datetime(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  TimeOptions o;
  // A text first argument is data, not an option name ('now', dates).
  const size_t first = (!args.empty() && (args[0].is_text() || args[0].is_string() ||
                                          args[0].is_cell() || args[0].is_char()))
                           ? 1 : 0;
  const size_t n = parse_options(args, first, o, "datetime");
  const std::string fmt = dt_format(o);
  if (n == 0) return {DatetimeArray::make(Dims(1, 1), {now_ms(o.time_zone)}, fmt, o.time_zone)};
  if (const DatetimeArray* d = as_datetime(args[0]); d && n == 1) {
    Value r = args[0];
    Value self = r;
    if (o.format_set) const_cast<DatetimeArray*>(d)->set_property("Format", char_row(o.format), self);
    if (o.tz_set)
      as_element_array(self)->set_property("TimeZone", char_row(o.time_zone), self);
    return {self};
  }
  if (n == 1 && !o.convert_from.empty()) return {from_convert(args[0], o)};
  if (n == 1 && (args[0].is_text() || args[0].is_string() || args[0].is_cell() || args[0].is_char())) {
    if (args[0].is_text()) {
      const std::string w = text_detail::lower(args[0].to_text());
      if (w == "now" || w == "today" || w == "tomorrow" || w == "yesterday")
        return {DatetimeArray::make(Dims(1, 1), {relative_day(w, o.time_zone)},
                                    dt_format(o, w != "now"), o.time_zone)};
    }
    return {datetime_from_text(args[0], o.input_format, fmt, o.time_zone, !o.format_set)};
  }
  DatetimeArray proto(Dims(1, 1), {}, fmt, o.time_zone);
  if (n == 1) {
    // Date vectors: rows of [Y M D] or [Y M D H MI S].
    const std::vector<double> v = numbers(args[0], "datetime");
    const Dims d = args[0].dims();
    if (d.ndims() != 2 || (d.cols() != 3 && d.cols() != 6))
      throw_error("MATLAB:datetime:InvalidNumericData",
                  "Numeric input data must be a matrix with three or six columns, or else "
                  "three, six, or seven separate numeric arrays. You can also create datetimes "
                  "from a single numeric array using the 'ConvertFrom' parameter.");
    const int64_t rows = d.rows();
    std::vector<double> ms(static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r) {
      double f[6] = {0, 1, 1, 0, 0, 0};
      for (int64_t c = 0; c < d.cols(); ++c) f[c] = v[c * rows + r];
      ms[r] = proto.from_local(civil_to_ms(f[0], f[1], f[2], f[3], f[4], f[5]));
    }
    return {DatetimeArray::make(Dims(rows, 1), std::move(ms), dt_format(o, d.cols() == 3),
                                o.time_zone)};
  }
  if (n != 3 && n != 6 && n != 7)
    throw_error("MATLAB:datetime:InvalidNumericData",
                "Numeric input data must be a matrix with three or six columns, or else three, "
                "six, or seven separate numeric arrays. You can also create datetimes from a "
                "single numeric array using the 'ConvertFrom' parameter.");
  std::vector<std::vector<double>> cols;
  for (size_t k = 0; k < n; ++k) cols.push_back(numbers(args[k], "datetime"));
  const Dims d = common_dims(args.subspan(0, n), "datetime");
  std::vector<double> ms(static_cast<size_t>(d.numel()));
  for (int64_t i = 0; i < d.numel(); ++i) {
    double f[7] = {0, 1, 1, 0, 0, 0, 0};
    for (size_t k = 0; k < n; ++k) f[k] = cols[k][cols[k].size() == 1 ? 0 : i];
    ms[i] = proto.from_local(civil_to_ms(f[0], f[1], f[2], f[3], f[4], f[5] + f[6] / 1000));
  }
  return {DatetimeArray::make(d, std::move(ms), dt_format(o, n == 3), o.time_zone)};
}

/// NaT, NaT(n), NaT(sz1,...,szN), NaT(sz), with 'Format' and 'TimeZone': arrays of
/// not-a-time (dims as zeros() reads them).
Outputs bi_NaT(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  TimeOptions o;
  const size_t n = parse_options(args, 0, o, "NaT");
  Dims d(1, 1);
  if (n > 0) d = ctx.call_named("zeros", args.subspan(0, n), 1)[0].dims();
  return {DatetimeArray::make(d, std::vector<double>(static_cast<size_t>(d.numel()), NAN),
                              dt_format(o), o.time_zone)};
}

/// Parses duration text 'hh:mm:ss[.S]', 'dd:hh:mm:ss[.S]' or 'mm:ss' (InputFormat) into ms.
double parse_duration_text(const std::string& s0, const std::string& infmt) {
  std::string s = s0;
  bool neg = false;
  if (!s.empty() && s[0] == '-') {
    neg = true;
    s = s.substr(1);
  }
  std::vector<double> parts;
  size_t p = 0;
  while (p <= s.size()) {
    size_t q = s.find(':', p);
    std::string piece = s.substr(p, q == std::string::npos ? std::string::npos : q - p);
    char* end = nullptr;
    const double v = std::strtod(piece.c_str(), &end);
    if (piece.empty() || *end != '\0')
      throw_error("MATLAB:duration:ParseErr",
                  "Unable to convert '%s' to duration%s.", s0.c_str(),
                  infmt.empty() ? "" : (" using the format '" + infmt + "'").c_str());
    parts.push_back(v);
    if (q == std::string::npos) break;
    p = q + 1;
  }
  const std::string base = infmt.substr(0, infmt.find('.'));
  double ms = 0;
  if ((base.empty() && parts.size() == 4) || base == "dd:hh:mm:ss") {
    if (parts.size() != 4) throw_error("MATLAB:duration:ParseErr", "Unable to convert '%s' to duration.", s0.c_str());
    ms = ((parts[0] * 24 + parts[1]) * 60 + parts[2]) * 60000 + parts[3] * 1000;
  } else if ((base.empty() && parts.size() == 3) || base == "hh:mm:ss") {
    if (parts.size() != 3) throw_error("MATLAB:duration:ParseErr", "Unable to convert '%s' to duration.", s0.c_str());
    ms = (parts[0] * 60 + parts[1]) * 60000 + parts[2] * 1000;
  } else if (base == "mm:ss" && parts.size() == 2) {
    ms = parts[0] * 60000 + parts[1] * 1000;
  } else if (base == "hh:mm" && parts.size() == 2) {
    ms = parts[0] * 3600000 + parts[1] * 60000;
  } else {
    throw_error("MATLAB:duration:ParseErr", "Unable to convert '%s' to duration.", s0.c_str());
  }
  return neg ? -ms : ms;
}

/// D = duration(H,MI,S[,MS]), duration(X) (rows [H MI S]), duration(text[, 'InputFormat', f]),
/// with 'Format'. Numeric inputs the same size or scalars.
Outputs bi_duration(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  std::string fmt = "hh:mm:ss", infmt;
  size_t n = args.size();
  for (size_t k = args.empty() ? 0 : 1; k < args.size(); ++k) {
    const std::string nm = option_name(args[k]);
    if (nm != "format" && nm != "inputformat") continue;
    n = std::min(n, k);
    if (k + 1 >= args.size())
      throw_error("MATLAB:duration:InvalidNameValue", "Name-value arguments must come in pairs.");
    if (nm == "format") fmt = args[k + 1].to_text();
    else infmt = args[k + 1].to_text();
    ++k;
  }
  Value proto = DurationArray::make(Dims(1, 1), {0});
  Value fmt_check = proto;
  as_element_array(proto)->set_property("Format", char_row(fmt), fmt_check);  // validates fmt
  if (n == 0) return {DurationArray::make(Dims(1, 1), {0}, fmt)};
  if (n == 1 && (args[0].is_text() || args[0].is_string() || args[0].is_cell())) {
    Value cs = ctx.call_named("cellstr", args.subspan(0, 1), 1)[0];
    const CellArray& c = cs.cell();
    std::vector<double> ms;
    for (const Value& e : c.elems()) ms.push_back(parse_duration_text(e.to_text(), infmt));
    Dims d = args[0].is_text() ? Dims(1, 1) : c.dims();
    return {DurationArray::make(d, std::move(ms), fmt)};
  }
  if (n == 1) {
    const std::vector<double> v = numbers(args[0], "duration");
    const Dims d = args[0].dims();
    if (d.ndims() != 2 || d.cols() != 3)
      throw_error("MATLAB:duration:InvalidNumericData",
                  "Numeric input data must be a matrix with three columns, or else three or "
                  "four separate numeric arrays.");
    std::vector<double> ms(static_cast<size_t>(d.rows()));
    for (int64_t r = 0; r < d.rows(); ++r)
      ms[r] = v[r] * 3600000 + v[d.rows() + r] * 60000 + v[2 * d.rows() + r] * 1000;
    return {DurationArray::make(Dims(d.rows(), 1), std::move(ms), fmt)};
  }
  if (n != 3 && n != 4)
    throw_error("MATLAB:duration:InvalidNumericData",
                "Numeric input data must be a matrix with three columns, or else three or four "
                "separate numeric arrays.");
  std::vector<std::vector<double>> cols;
  for (size_t k = 0; k < n; ++k) cols.push_back(numbers(args[k], "duration"));
  const Dims d = common_dims(args.subspan(0, n), "duration");
  std::vector<double> ms(static_cast<size_t>(d.numel()));
  const double scale[4] = {3600000, 60000, 1000, 1};
  for (int64_t i = 0; i < d.numel(); ++i) {
    double s = 0;
    for (size_t k = 0; k < n; ++k) s += cols[k][cols[k].size() == 1 ? 0 : i] * scale[k];
    ms[i] = s;
  }
  return {DurationArray::make(d, std::move(ms), fmt)};
}

/// hours(X) etc.: numbers to durations in that unit (the array displays in that unit), or a
/// duration's length as numbers in that unit.
template <int Unit>
Outputs bi_unit(CallContext&, Args args, int nargout) {
  static const char* names[] = {"years", "days", "hours", "minutes", "seconds", "milliseconds"};
  static const double scale[] = {365.2425 * kMsPerDay, kMsPerDay, 3600000, 60000, 1000, 1};
  static const char* fmts[] = {"y", "d", "h", "m", "s", "s"};
  check_nargout(nargout, 1);
  check_nargin(args, 0, 1);
  if (args.empty()) return {DurationArray::make(Dims(1, 1), {scale[Unit]}, fmts[Unit])};
  if (const DurationArray* d = as_duration(args[0])) {
    std::vector<double> v = d->ms();
    for (double& x : v) x /= scale[Unit];
    return {Value(doubles_tensor(args[0].dims(), v))};
  }
  std::vector<double> v = numbers(args[0], names[Unit]);
  for (double& x : v) x *= scale[Unit];
  return {DurationArray::make(args[0].dims(), std::move(v), fmts[Unit])};
}

/// calyears(X), calquarters, calmonths, calweeks, caldays: calendar durations of whole units
/// (non-integer X raises MATLAB:calendarDuration:NonIntegerInput).
template <int Unit>
Outputs bi_calunit(CallContext&, Args args, int nargout) {
  static const char* names[] = {"calyears", "calquarters", "calmonths", "calweeks", "caldays"};
  static const char* fmts[] = {"ymdt", "yqmdt", "ymdt", "ymwdt", "ymdt"};
  check_nargout(nargout, 1);
  check_nargin(args, 0, 1);
  const Value x = args.empty() ? Value(1.0) : args[0];
  std::vector<double> v = numbers(x, names[Unit]);
  const size_t n = v.size();
  std::vector<double> mo(n, 0), dd(n, 0), t(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (std::isfinite(v[i]) && v[i] != std::floor(v[i]))
      throw_error("MATLAB:calendarDuration:NonIntegerInput",
                  "Input data must be integer values.");
    switch (Unit) {
      case 0: mo[i] = 12 * v[i]; break;
      case 1: mo[i] = 3 * v[i]; break;
      case 2: mo[i] = v[i]; break;
      case 3: dd[i] = 7 * v[i]; break;
      default: dd[i] = v[i];
    }
  }
  return {CalendarDurationArray::make(x.dims(), std::move(mo), std::move(dd), std::move(t), fmts[Unit])};
}

/// L = calendarDuration(Y,M,D[,H,MI,S]), calendarDuration(Y,M,D,T) with T a duration, or
/// calendarDuration(X) with rows [Y M D] or [Y M D H MI S]; 'Format' option.
Outputs bi_calendarDuration(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  std::string fmt = "ymdt";
  size_t n = args.size();
  if (n >= 2 && option_name(args[n - 2]) == "format") {
    fmt = args[n - 1].to_text();
    n -= 2;
  }
  std::vector<std::vector<double>> cols;
  Dims d(1, 1);
  if (n == 1) {
    const std::vector<double> v = numbers(args[0], "calendarDuration");
    const Dims a = args[0].dims();
    if (a.ndims() != 2 || (a.cols() != 3 && a.cols() != 6))
      throw_error("MATLAB:calendarDuration:InvalidNumericData",
                  "Numeric input data must be a matrix with three or six columns, or else three, "
                  "four, or six separate numeric arrays.");
    d = Dims(a.rows(), 1);
    for (int64_t c = 0; c < a.cols(); ++c)
      cols.emplace_back(v.begin() + c * a.rows(), v.begin() + (c + 1) * a.rows());
  } else if (n == 3 || n == 4 || n == 6) {
    d = common_dims(args.subspan(0, n), "calendarDuration");
    for (size_t k = 0; k < n; ++k) {
      if (n == 4 && k == 3) {
        const DurationArray* t = as_duration(args[3]);
        if (!t)
          throw_error("MATLAB:calendarDuration:InvalidTime",
                      "The fourth input must be a duration array.");
        cols.push_back(t->ms());
      } else {
        cols.push_back(numbers(args[k], "calendarDuration"));
      }
    }
  } else {
    throw_error("MATLAB:calendarDuration:InvalidNumericData",
                "Numeric input data must be a matrix with three or six columns, or else three, "
                "four, or six separate numeric arrays.");
  }
  const size_t ne = static_cast<size_t>(d.numel());
  std::vector<double> mo(ne), dd(ne), t(ne, 0);
  auto at = [&](size_t k, size_t i) { return cols[k][cols[k].size() == 1 ? 0 : i]; };
  for (size_t i = 0; i < ne; ++i) {
    for (size_t k = 0; k < std::min<size_t>(3, cols.size()); ++k)
      if (std::isfinite(at(k, i)) && at(k, i) != std::floor(at(k, i)))
        throw_error("MATLAB:calendarDuration:NonIntegerInput",
                    "Year, month, and day values must be integers.");
    mo[i] = at(0, i) * 12 + at(1, i);
    dd[i] = at(2, i);
    if (cols.size() == 4) t[i] = at(3, i);
    else if (cols.size() == 6) t[i] = at(3, i) * 3600000 + at(4, i) * 60000 + at(5, i) * 1000;
  }
  Value r = CalendarDurationArray::make(d, std::move(mo), std::move(dd), std::move(t));
  if (fmt != "ymdt") as_element_array(r)->set_property("Format", char_row(fmt), r);
  return {r};
}

// ------------------------------------------------------------------------------ components

/// year(t), quarter, month, day, hour, minute, second: the component as doubles (NaN for NaT).
/// month(t,'name'|'shortname') and day(t,'name'|'shortname'|'dayofweek'|'dayofyear') give
/// names or other day numbers.
template <int Comp>
Outputs bi_component(CallContext& ctx, Args args, int nargout) {
  static const char* names[] = {"year", "quarter", "month", "day", "hour", "minute", "second"};
  check_nargout(nargout, 1);
  check_nargin(args, 1, 2);
  (void)ctx;
  const DatetimeArray& t = datetime_arg(args[0], names[Comp]);
  const Dims d = args[0].dims();
  std::string kind = args.size() > 1 ? option_name(args[1]) : std::string();
  if (kind == "name" || kind == "shortname" || kind == "longname") {
    if (Comp != 2 && Comp != 3)
      throw_error("MATLAB:datetime:InvalidComponentType", "Invalid %s type.", names[Comp]);
    const std::string f = (Comp == 2 ? (kind == "shortname" ? "MMM" : "MMMM")
                                     : (kind == "shortname" ? "eee" : "eeee"));
    CellArray c(d);
    for (int64_t i = 0; i < d.numel(); ++i) {
      const std::string s = t.text(i, f);
      c.at(i) = char_row(s == "NaT" ? std::string() : s);
    }
    return {Value(std::move(c))};
  }
  Tensor r = Tensor::uninit(ClassId::Double, d);
  double* p = r.mutable_data<double>();
  for (int64_t i = 0; i < d.numel(); ++i) {
    const double l = t.local_ms(i);
    if (!std::isfinite(l)) {
      p[i] = NAN;
      continue;
    }
    const CivilTime c = ms_to_civil(l);
    switch (Comp) {
      case 0: p[i] = static_cast<double>(c.year); break;
      case 1: p[i] = (c.month - 1) / 3 + 1; break;
      case 2: p[i] = c.month; break;
      case 3:
        p[i] = kind == "dayofweek" ? c.weekday : kind == "dayofyear" ? c.day_of_year : c.day;
        break;
      case 4: p[i] = c.hour; break;
      case 5: p[i] = c.minute; break;
      default: p[i] = c.second;
    }
  }
  return {Value(std::move(r))};
}

/// [N, S] = weekday(D): day of week 1 (Sunday) .. 7 of datetimes, serial date numbers or date
/// text (read by datenum), and the 3-letter names as a char matrix; weekday(D, 'long') gives
/// full names.
Outputs bi_weekday(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 2);
  const bool longnames = args.size() > 1 && option_name(args[1]) == "long";
  const DatetimeArray* t = as_datetime(args[0]);
  if (!t && (args[0].is_char() || args[0].is_cell() || args[0].is_string())) {
    const Value dn = ctx.call_named("datenum", args.subspan(0, 1), 1)[0];
    const Value rest[2] = {dn, args.size() > 1 ? args[1] : Value::from_chars("short")};
    return bi_weekday(ctx, std::span<const Value>(rest, 2), nargout);
  }
  const Dims d = args[0].dims();
  std::vector<double> n(static_cast<size_t>(d.numel()));
  if (t) {
    for (int64_t i = 0; i < d.numel(); ++i) {
      const double l = t->local_ms(i);
      n[i] = std::isfinite(l) ? ms_to_civil(l).weekday : NAN;
    }
  } else {
    const std::vector<double> v = numbers(args[0], "weekday");
    for (size_t i = 0; i < v.size(); ++i) {
      const double f = std::floor(v[i]) - 2;
      n[i] = std::isfinite(f) ? f - 7 * std::floor(f / 7) + 1 : NAN;
    }
  }
  Outputs out{Value(doubles_tensor(d, n))};
  if (nargout > 1) {
    static const char* full[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    std::vector<std::string> rows;
    size_t w = 0;
    for (double x : n) {
      std::string s = std::isnan(x) ? "NaN" : full[static_cast<int>(x) - 1];
      if (!longnames && s != "NaN") s = s.substr(0, 3);
      w = std::max(w, s.size());
      rows.push_back(s);
    }
    Tensor c = Tensor::zeros(ClassId::Char, Dims(static_cast<int64_t>(rows.size()), static_cast<int64_t>(w)));
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t k = 0; k < w; ++k)
        c.mutable_data<char16_t>()[k * rows.size() + r] = k < rows[r].size() ? rows[r][k] : u' ';
    out.push_back(Value(std::move(c)));
  }
  return out;
}

/// [y, m, d] = ymd(t) and [h, m, s] = hms(t) (hms also of durations).
Outputs bi_ymd(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 3);
  return {bi_component<0>(ctx, args, 1)[0], bi_component<2>(ctx, args, 1)[0],
          bi_component<3>(ctx, args, 1)[0]};
}

Outputs bi_hms(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 3);
  if (const DurationArray* d = as_duration(args[0])) {
    const Dims dd = args[0].dims();
    std::vector<double> h, m, s;
    for (double x : d->ms()) {
      const double a = std::abs(x), sg = x < 0 ? -1 : 1;
      const double hh = std::floor(a / 3600000), mm = std::floor((a - hh * 3600000) / 60000);
      h.push_back(sg * hh);
      m.push_back(sg * mm);
      s.push_back(sg * (a - hh * 3600000 - mm * 60000) / 1000);
    }
    return {Value(doubles_tensor(dd, h)), Value(doubles_tensor(dd, m)), Value(doubles_tensor(dd, s))};
  }
  return {bi_component<4>(ctx, args, 1)[0], bi_component<5>(ctx, args, 1)[0],
          bi_component<6>(ctx, args, 1)[0]};
}

/// timeofday(t): the time since midnight of each datetime as a duration.
Outputs bi_timeofday(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const DatetimeArray& t = datetime_arg(args[0], "timeofday");
  std::vector<double> v;
  for (int64_t i = 0; i < args[0].numel(); ++i) {
    const double l = t.local_ms(i);
    v.push_back(std::isfinite(l) ? l - std::floor(l / kMsPerDay) * kMsPerDay : NAN);
  }
  return {DurationArray::make(args[0].dims(), std::move(v))};
}

// ------------------------------------------------------------------------------ between, dateshift

/// dt = between(t1, t2[, components]): calendar differences t2 - t1 in 'years', 'quarters',
/// 'months', 'weeks', 'days', 'time' (default {'years','months','days','time'}); components
/// may also be a cell array or string array of those names. Remainders smaller than the
/// smallest component are dropped.
Outputs bi_between(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  Value a = args[0], b = args[1];
  if (!as_datetime(a) && as_datetime(b)) a = as_datetime(b)->convert(a);
  if (!as_datetime(b) && as_datetime(a)) b = as_datetime(a)->convert(b);
  const DatetimeArray& t1 = datetime_arg(a, "between");
  const DatetimeArray& t2 = datetime_arg(b, "between");
  t1.check_compatible(t2);
  bool use[6] = {true, false, true, false, true, true};  // y q m w d t
  if (args.size() > 2) {
    std::fill(use, use + 6, false);
    std::vector<std::string> names;
    if (args[2].is_cell())
      for (const Value& e : args[2].cell().elems()) names.push_back(text_detail::lower(e.to_text()));
    else if (args[2].is_string())
      for (const auto& e : args[2].string_array().elems()) names.push_back(text_detail::lower(e.value_or("")));
    else names.push_back(option_name(args[2]));
    static const char* known[] = {"years", "quarters", "months", "weeks", "days", "time"};
    for (const auto& nm : names) {
      bool ok = false;
      for (int k = 0; k < 6; ++k)
        if (nm == known[k] || nm + "s" == known[k]) use[k] = ok = true;
      if (!ok)
        throw_error("MATLAB:datetime:InvalidComponents",
                    "Components must be 'years', 'quarters', 'months', 'weeks', 'days', or "
                    "'time'.");
    }
  }
  const Dims d = broadcast_dims(a.dims(), b.dims());
  const auto ma = mathutil::broadcast_map(a.dims(), d), mb = mathutil::broadcast_map(b.dims(), d);
  const size_t n = static_cast<size_t>(d.numel());
  std::vector<double> mo(n), dd(n), tt(n);
  for (size_t i = 0; i < n; ++i) {
    double l1 = t1.local_ms(ma[i]);
    double l2 = t2.local_ms(mb[i]);
    if (!std::isfinite(l1) || !std::isfinite(l2)) {
      mo[i] = dd[i] = tt[i] = NAN;
      continue;
    }
    const double sign = l2 < l1 ? -1 : 1;
    if (sign < 0) std::swap(l1, l2);
    double months = 0;
    const double steps[3] = {12, 3, 1};
    const CivilTime c1 = ms_to_civil(l1), c2 = ms_to_civil(l2);
    const double span = static_cast<double>(c2.year - c1.year) * 12 + (c2.month - c1.month);
    for (int k = 0; k < 3; ++k) {
      if (!use[k]) continue;
      double q = std::floor((span - months) / steps[k]) + 1;
      while (q > 0 && add_months_local(l1, months + q * steps[k]) > l2) --q;
      if (q < 0) q = 0;
      months += q * steps[k];
    }
    const double base = add_months_local(l1, months);
    double days = 0;
    if (use[3] || use[4]) {
      days = std::floor((l2 - base) / kMsPerDay);
      if (!use[4]) days = std::floor(days / 7) * 7;
    }
    const double time = use[5] ? l2 - base - days * kMsPerDay : 0;
    mo[i] = sign * months;
    dd[i] = sign * days;
    tt[i] = sign * time;
  }
  std::string fmt = "ymdt";
  if (use[1]) fmt = "yqmdt";
  if (use[3]) fmt = use[1] ? "yqmwdt" : "ymwdt";
  return {CalendarDurationArray::make(d, std::move(mo), std::move(dd), std::move(tt), fmt)};
}

/// dt = caldiff(t[, components[, dim]]): calendar differences between successive datetimes
/// along dim (default the first dimension that is not 1), as between() gives them. 2-D arrays.
Outputs bi_caldiff(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  const DatetimeArray& t = datetime_arg(args[0], "caldiff");
  const Dims d = args[0].dims();
  if (d.ndims() > 2)
    throw_error("matfuse:notAvailable", "caldiff supports vectors and matrices only.");
  int dim = d.rows() != 1 ? 1 : 2;
  if (args.size() > 2) {
    const double dd = args[2].to_double();  // compared as a double: NaN is no dimension
    dim = dd == 1 ? 1 : dd == 2 ? 2 : 0;
  }
  if (dim != 1 && dim != 2)
    throw_error("MATLAB:getdimarg:invalidDim", "Dimension argument must be 1 or 2.");
  const int64_t rows = d.rows(), cols = d.cols();
  const Dims out = dim == 1 ? Dims(std::max<int64_t>(rows - 1, 0), cols)
                            : Dims(rows, std::max<int64_t>(cols - 1, 0));
  Tensor lo = Tensor::uninit(ClassId::Double, out), hi = Tensor::uninit(ClassId::Double, out);
  for (int64_t c = 0; c < out.cols(); ++c)
    for (int64_t r = 0; r < out.rows(); ++r) {
      const int64_t k = c * out.rows() + r, a = c * rows + r;
      lo.mutable_data<double>()[k] = static_cast<double>(a + 1);
      hi.mutable_data<double>()[k] = static_cast<double>(a + 1 + (dim == 1 ? 1 : rows));
    }
  std::vector<Value> bargs{t.gather(lo, nullptr), t.gather(hi, nullptr)};
  if (args.size() > 1) bargs.push_back(args[1]);
  return bi_between(ctx, bargs, 1);
}

/// t2 = dateshift(t, 'start'|'end', unit[, rule]): the start or the end (for 'year', 'quarter',
/// 'month' and 'week' the start of the last day, else the start of the next unit) of the unit
/// containing each datetime; units 'year',
/// 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'; rule 'current' (default),
/// 'next', 'previous' or an integer number of units to move.
Outputs bi_dateshift(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 4);
  check_nargout(nargout, 1);
  const DatetimeArray& t = datetime_arg(args[0], "dateshift");
  const std::string where = option_name(args[1]), unit = option_name(args[2]);
  if (where != "start" && where != "end")
    throw_error("MATLAB:datetime:dateshift:InvalidWhere",
                "The second input must be 'start' or 'end'.");
  static const char* units[] = {"year", "quarter", "month", "week", "day", "hour", "minute", "second"};
  int u = -1;
  for (int k = 0; k < 8; ++k)
    if (unit == units[k] || unit == std::string(units[k]) + "s") u = k;
  if (u < 0)
    throw_error("MATLAB:datetime:dateshift:InvalidUnit",
                "The unit must be 'year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', "
                "or 'second'.");
  double shift = 0;
  if (args.size() > 3) {
    const std::string r = option_name(args[3]);
    if (r == "next") shift = 1;
    else if (r == "previous") shift = -1;
    else if (r == "current" || r.empty() == false) shift = 0;
    if (r.empty()) shift = args[3].to_double();
    else if (r != "next" && r != "previous" && r != "current")
      throw_error("MATLAB:datetime:dateshift:InvalidRule",
                  "The rule must be 'next', 'previous', 'current' or an integer.");
  }
  std::vector<double> out;
  for (int64_t i = 0; i < args[0].numel(); ++i) {
    const double l = t.local_ms(i);
    if (!std::isfinite(l)) {
      out.push_back(l);
      continue;
    }
    const CivilTime c = ms_to_civil(l);
    const double day0 = std::floor(l / kMsPerDay) * kMsPerDay;
    double r;
    switch (u) {
      case 0: r = add_months_local(civil_to_ms(static_cast<double>(c.year), 1, 1, 0, 0, 0), 12 * shift); break;
      case 1: r = add_months_local(civil_to_ms(static_cast<double>(c.year), (c.month - 1) / 3 * 3 + 1, 1, 0, 0, 0), 3 * shift); break;
      case 2: r = add_months_local(civil_to_ms(static_cast<double>(c.year), c.month, 1, 0, 0, 0), shift); break;
      case 3: r = day0 - (c.weekday - 1) * kMsPerDay + 7 * shift * kMsPerDay; break;
      case 4: r = day0 + shift * kMsPerDay; break;
      case 5: r = day0 + (c.hour + shift) * 3600000; break;
      case 6: r = day0 + c.hour * 3600000.0 + (c.minute + shift) * 60000; break;
      default: r = std::floor(l / 1000) * 1000 + shift * 1000;
    }
    if (where == "end") {
      // The end of a year, quarter, month or week is the start of its last day; the end of a
      // day, hour, minute or second is the start of the next one.
      static const double unit_ms[] = {kMsPerDay, 3600000.0, 60000.0, 1000.0};
      const double months = u == 0 ? 12 : u == 1 ? 3 : 1;
      r = u > 3   ? r + unit_ms[u - 4]
          : u == 3 ? r + 6 * kMsPerDay
                   : add_months_local(r, months) - kMsPerDay;
    }
    out.push_back(t.from_local(r));
  }
  return {DatetimeArray::make(args[0].dims(), std::move(out), t.format(), t.time_zone())};
}

// ------------------------------------------------------------------------------ conversions

enum class Conv { Datenum, Posix, Julian, ModJulian, Excel, Excel1904, Yyyymmdd, Epoch };

Value convert_to(const DatetimeArray& t, const Dims& d, Conv c, double epoch_ms, double ticks) {
  std::vector<double> v(static_cast<size_t>(d.numel()));
  for (int64_t i = 0; i < d.numel(); ++i) {
    const double l = t.local_ms(i), u = t.ms()[static_cast<size_t>(i)];  // u: UTC when zoned
    switch (c) {
      case Conv::Datenum: v[i] = l / kMsPerDay + kDatenumEpoch; break;
      case Conv::Posix: v[i] = u / 1000; break;
      case Conv::Julian: v[i] = u / kMsPerDay + 2440587.5; break;
      case Conv::ModJulian: v[i] = u / kMsPerDay + 40587; break;
      case Conv::Excel: v[i] = l / kMsPerDay + kDatenumEpoch - 693960; break;
      case Conv::Excel1904: v[i] = l / kMsPerDay + kDatenumEpoch - 695422; break;
      case Conv::Epoch: v[i] = (u - epoch_ms) / 1000 * ticks; break;
      case Conv::Yyyymmdd: {
        if (!std::isfinite(l)) {
          v[i] = NAN;
          break;
        }
        const CivilTime ct = ms_to_civil(l);
        v[i] = static_cast<double>(ct.year) * 10000 + ct.month * 100 + ct.day;
        break;
      }
    }
  }
  return Value(doubles_tensor(d, v));
}

/// posixtime(t): seconds since 1970-01-01 00:00:00 UTC (unzoned datetimes are read as UTC).
Outputs bi_posixtime(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {convert_to(datetime_arg(args[0], "posixtime"), args[0].dims(), Conv::Posix, 0, 1)};
}

/// juliandate(t): Julian dates (days since noon UTC, 1 January 4713 BCE, Julian calendar).
Outputs bi_juliandate(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {convert_to(datetime_arg(args[0], "juliandate"), args[0].dims(), Conv::Julian, 0, 1)};
}

/// exceltime(t[, '1900'|'1904']): Excel serial day numbers.
Outputs bi_exceltime(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  const bool y1904 = args.size() > 1 && (args[1].is_text() ? args[1].to_text() == "1904" : args[1].to_double() == 1904);
  return {convert_to(datetime_arg(args[0], "exceltime"), args[0].dims(),
                     y1904 ? Conv::Excel1904 : Conv::Excel, 0, 1)};
}

/// yyyymmdd(t): year*10000 + month*100 + day.
Outputs bi_yyyymmdd(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {convert_to(datetime_arg(args[0], "yyyymmdd"), args[0].dims(), Conv::Yyyymmdd, 0, 1)};
}

/// X = convertTo(t, dateType[, 'Epoch', e, 'TicksPerSecond', n]): dateType 'datenum',
/// 'posixtime', 'juliandate', 'modifiedjuliandate', 'excel', 'excel1904', 'yyyymmdd',
/// 'epochtime' (default epoch 1970-01-01, 1 tick per second).
Outputs bi_convertTo(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 6);
  check_nargout(nargout, 1);
  const DatetimeArray& t = datetime_arg(args[0], "convertTo");
  TimeOptions o;
  parse_options(args, 2, o, "convertTo");
  const std::string type = option_name(args[1]);
  Conv c;
  if (type == "datenum") c = Conv::Datenum;
  else if (type == "posixtime") c = Conv::Posix;
  else if (type == "juliandate") c = Conv::Julian;
  else if (type == "modifiedjuliandate") c = Conv::ModJulian;
  else if (type == "excel") c = Conv::Excel;
  else if (type == "excel1904") c = Conv::Excel1904;
  else if (type == "yyyymmdd") c = Conv::Yyyymmdd;
  else if (type == "epochtime") c = Conv::Epoch;
  else
    throw_error("MATLAB:datetime:convertTo:InvalidType", "'%s' is not a recognized date type.",
                type.c_str());
  return {convert_to(t, args[0].dims(), c, o.epoch_ms, o.ticks)};
}

// ------------------------------------------------------------------------------ type tests

template <int Kind>
Outputs bi_istype(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  bool r = Kind == 0 ? as_datetime(args[0]) != nullptr
           : Kind == 1 ? as_duration(args[0]) != nullptr
                       : as_caldur(args[0]) != nullptr;
  return {Value::logical(r)};
}

/// isnat(t): true for NaT elements (datetime input only).
Outputs bi_isnat(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  const DatetimeArray* t = as_datetime(args[0]);
  if (!t)
    throw_error("MATLAB:isnat:InvalidInput", "Input must be a datetime array.");
  Tensor r = Tensor::zeros(ClassId::Logical, args[0].dims());
  for (int64_t i = 0; i < args[0].numel(); ++i) r.mutable_data<bool>()[i] = std::isnan(t->ms()[static_cast<size_t>(i)]);
  return {Value(std::move(r))};
}

}  // namespace

void register_datetime_ops(Registry& r);  // datetime_ops.cc

void register_datetime(Registry& r) {
  r.add("datetime", bi_datetime);
  r.add("NaT", bi_NaT);
  r.add("duration", bi_duration);
  r.add("years", bi_unit<0>);
  r.add("days", bi_unit<1>);
  r.add("hours", bi_unit<2>);
  r.add("minutes", bi_unit<3>);
  r.add("seconds", bi_unit<4>);
  r.add("milliseconds", bi_unit<5>);
  r.add("calyears", bi_calunit<0>);
  r.add("calquarters", bi_calunit<1>);
  r.add("calmonths", bi_calunit<2>);
  r.add("calweeks", bi_calunit<3>);
  r.add("caldays", bi_calunit<4>);
  r.add("calendarDuration", bi_calendarDuration);
  r.add("year", bi_component<0>);
  r.add("quarter", bi_component<1>);
  r.add("month", bi_component<2>);
  r.add("day", bi_component<3>);
  r.add("hour", bi_component<4>);
  r.add("minute", bi_component<5>);
  r.add("second", bi_component<6>);
  r.add("weekday", bi_weekday);
  r.add("ymd", bi_ymd);
  r.add("hms", bi_hms);
  r.add("timeofday", bi_timeofday);
  r.add("between", bi_between);
  r.add("caldiff", bi_caldiff);
  r.add("dateshift", bi_dateshift);
  r.add("posixtime", bi_posixtime);
  r.add("juliandate", bi_juliandate);
  r.add("exceltime", bi_exceltime);
  r.add("yyyymmdd", bi_yyyymmdd);
  r.add("convertTo", bi_convertTo);
  r.add("isdatetime", bi_istype<0>);
  r.add("isduration", bi_istype<1>);
  r.add("iscalendarduration", bi_istype<2>);
  r.add("isnat", bi_isnat);
  register_datetime_ops(r);
}

}  // namespace matfuse
