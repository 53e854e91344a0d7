// datetime, duration and calendarDuration: MATLAB's date and time value classes.
//
// Each is a Dims-shaped array with value semantics (runtime/element_array.h ElementArrayObject:
// subscripting, growth, deletion and concatenation as for numbers). Values are doubles:
// - DatetimeArray: milliseconds since 1970-01-01 00:00:00. For an unzoned array (TimeZone '')
//   they count the local clock time (the wall time as written); for a zoned array they count
//   UTC (the instant), and the clock time is found through the time-zone database. NaN is NaT,
//   +-Inf the infinite datetimes. Calendar fields come from std::chrono's civil calendar
//   (proleptic Gregorian, ISO years, as MATLAB's).
// - DurationArray: milliseconds of elapsed time (fixed-length units: a day is 24 hours, a year
//   365.2425 days).
// - CalendarDurationArray: whole months, whole days and milliseconds of time, kept apart
//   (calendar arithmetic: a month's length depends on the date it is added to).
// Formats follow MATLAB: datetime uses Unicode LDML letters ('dd-MMM-uuuu HH:mm:ss'), duration
// 'hh:mm:ss' style or one unit ('y','d','h','m','s'), calendarDuration 'ymdt' style.
// Time zones other than '' and 'UTC' need Howard Hinnant's date/tz library (Debian:
// libhowardhinnant-date-dev, built with the system tzdata, MATFUSE_HAVE_DATE_TZ); without it
// they raise matfuse:notAvailable.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/element_array.h"

namespace matfuse {

inline constexpr double kMsPerDay = 86400000.0;
/// datenum of 1970-01-01 (MATLAB's serial day numbers count from 0-Jan-0000).
inline constexpr double kDatenumEpoch = 719529.0;
/// Largest |milliseconds since 1970| a datetime holds: 30,000 years of 365.2425 days. Past it
/// the civil calendar (std::chrono, years -32767..32767) has no date, so a finite value beyond
/// it (datetime(2020,1,1) + days(1e300), datetime(1e20, 'ConvertFrom', 'posixtime')) is NaT, as
/// datetime(1e5, 1, 1) is; +-Inf stay the infinite datetimes.
inline constexpr double kDatetimeMaxAbsMs = 30000.0 * 365.2425 * kMsPerDay;

/// Local calendar fields of one datetime.
struct CivilTime {
  int64_t year = 0;
  int month = 1, day = 1, hour = 0, minute = 0;
  double second = 0;  ///< with its fraction
  int weekday = 1;    ///< 1 Sunday .. 7 Saturday (MATLAB's weekday numbering)
  int day_of_year = 1;
};

/// Milliseconds since 1970-01-01 of the clock time y-mo-d h:mi:s; months and days outside
/// their ranges carry into the next field (MATLAB: datetime(2014,13,1) is 01-Jan-2015).
double civil_to_ms(double y, double mo, double d, double h, double mi, double s);
/// Calendar fields of a clock-time millisecond count (finite).
CivilTime ms_to_civil(double ms);

/// Shared storage of the three classes: dims and per-element fields (one vector per field,
/// column-major). Gathering, concatenation and shape functions work field by field.
class TemporalArray : public ElementArrayObject {
public:
  Dims dims() const override { return dims_; }
  int nfields() const { return static_cast<int>(f_.size()); }
  const std::vector<double>& field(int k) const { return f_[static_cast<size_t>(k)]; }
  /// A copy with the same class and metadata (Format, TimeZone) and new data.
  virtual std::shared_ptr<TemporalArray> with_data(Dims d,
                                                   std::vector<std::vector<double>> f) const = 0;
  /// Value of new elements created by growth (NaT for datetime, 0 otherwise).
  virtual double fill_value() const { return 0; }
  /// Throws when other cannot be combined with this (datetime: time zones must agree).
  virtual void check_compatible(const TemporalArray& other) const { (void)other; }

  Value gather(const Tensor& pos, const ElementArrayObject* src) const override;
  Value concat(int dim, std::span<const Value> parts) const override;

protected:
  TemporalArray(Dims d, std::vector<std::vector<double>> f) : dims_(d), f_(std::move(f)) {
    dims_.normalize();
  }
  Dims dims_;
  std::vector<std::vector<double>> f_;
};

class DatetimeArray final : public TemporalArray {
public:
  /// ms: see the file comment; fmt "" is the default format; tz "" unzoned.
  /// Finite values beyond kDatetimeMaxAbsMs become NaT.
  DatetimeArray(Dims d, std::vector<double> ms, std::string fmt = "", std::string tz = "")
      : TemporalArray(d, {in_range(std::move(ms))}), fmt_(std::move(fmt)), tz_(std::move(tz)) {}
  static Value make(Dims d, std::vector<double> ms, std::string fmt = "", std::string tz = "");

  std::string class_name() const override { return "datetime"; }
  const std::vector<double>& ms() const { return f_[0]; }
  /// The Format as set ("" when the default 'dd-MMM-uuuu HH:mm:ss' applies). As in MATLAB,
  /// the format is fixed when the array is created (datetime(Y,M,D), 'today' and text without
  /// time get the default date format 'dd-MMM-uuuu') and kept by arithmetic.
  const std::string& format() const { return fmt_; }
  /// The format used for display.
  std::string display_format() const;
  const std::string& time_zone() const { return tz_; }
  /// Local clock milliseconds of element i (NaN/Inf pass through).
  double local_ms(int64_t i) const;
  /// Stored value (UTC for zoned arrays) of local clock milliseconds in this array's zone.
  double from_local(double local) const;
  /// The text of one element in format fmt.
  std::string text(int64_t i, const std::string& fmt) const;

  std::shared_ptr<TemporalArray> with_data(Dims d, std::vector<std::vector<double>> f) const override;
  double fill_value() const override;
  void check_compatible(const TemporalArray& other) const override;
  Value convert(const Value& rhs) const override;
  std::vector<std::string> element_texts() const override;
  bool get_property(std::string_view name, Value& out) const override;
  std::vector<std::string> property_names() const override;
  bool set_property(std::string_view name, const Value& rhs, Value& self) override;

private:
  static std::vector<double> in_range(std::vector<double> ms) {
    for (double& v : ms)
      if (std::abs(v) > kDatetimeMaxAbsMs && std::isfinite(v)) v = NAN;
    return ms;
  }
  std::string fmt_, tz_;
};

class DurationArray final : public TemporalArray {
public:
  DurationArray(Dims d, std::vector<double> ms, std::string fmt = "hh:mm:ss")
      : TemporalArray(d, {std::move(ms)}), fmt_(std::move(fmt)) {}
  static Value make(Dims d, std::vector<double> ms, std::string fmt = "hh:mm:ss");

  std::string class_name() const override { return "duration"; }
  const std::vector<double>& ms() const { return f_[0]; }
  const std::string& format() const { return fmt_; }
  std::string text(int64_t i) const;

  std::shared_ptr<TemporalArray> with_data(Dims d, std::vector<std::vector<double>> f) const override;
  Value convert(const Value& rhs) const override;
  std::vector<std::string> element_texts() const override;
  bool right_aligned() const override { return true; }
  bool get_property(std::string_view name, Value& out) const override;
  std::vector<std::string> property_names() const override { return {"Format"}; }
  bool set_property(std::string_view name, const Value& rhs, Value& self) override;

private:
  std::string fmt_;
};

class CalendarDurationArray final : public TemporalArray {
public:
  /// Fields: months, days, milliseconds of time.
  CalendarDurationArray(Dims d, std::vector<double> months, std::vector<double> days,
                        std::vector<double> ms, std::string fmt = "ymdt")
      : TemporalArray(d, {std::move(months), std::move(days), std::move(ms)}),
        fmt_(std::move(fmt)) {}
  static Value make(Dims d, std::vector<double> months, std::vector<double> days,
                    std::vector<double> ms, std::string fmt = "ymdt");

  std::string class_name() const override { return "calendarDuration"; }
  const std::vector<double>& months() const { return f_[0]; }
  const std::vector<double>& days() const { return f_[1]; }
  const std::vector<double>& ms() const { return f_[2]; }
  const std::string& format() const { return fmt_; }
  std::string text(int64_t i) const;

  std::shared_ptr<TemporalArray> with_data(Dims d, std::vector<std::vector<double>> f) const override;
  Value convert(const Value& rhs) const override;
  std::vector<std::string> element_texts() const override;
  bool get_property(std::string_view name, Value& out) const override;
  std::vector<std::string> property_names() const override { return {"Format"}; }
  bool set_property(std::string_view name, const Value& rhs, Value& self) override;

private:
  std::string fmt_;
};

inline const DatetimeArray* as_datetime(const Value& v) {
  return v.is_object() ? dynamic_cast<const DatetimeArray*>(v.object().get()) : nullptr;
}
inline const DurationArray* as_duration(const Value& v) {
  return v.is_object() ? dynamic_cast<const DurationArray*>(v.object().get()) : nullptr;
}
inline const CalendarDurationArray* as_caldur(const Value& v) {
  return v.is_object() ? dynamic_cast<const CalendarDurationArray*>(v.object().get()) : nullptr;
}

/// Parses text elements (char row, char matrix rows, cellstr, string array) into a datetime
/// array with LDML input format infmt ("" tries MATLAB's common formats). tz: the array's
/// TimeZone. date_only_default: with fmt "", text read by a format without time fields gets
/// the default date format 'dd-MMM-uuuu' (MATLAB: datetime('2014-05-26') shows no time).
/// Errors MATLAB:datetime:ParseErr / UnrecognizedDateStringSuggestLocale.
Value datetime_from_text(const Value& text, const std::string& infmt, const std::string& fmt,
                         const std::string& tz, bool date_only_default = false);
/// MATLAB's default date format, used by datetimes created from dates alone.
inline constexpr const char* kDefaultDateFormat = "dd-MMM-uuuu";
/// The current time as a datetime in zone tz ('' gives the local clock time, unzoned).
double now_ms(const std::string& tz);
/// Checks a TimeZone name ('', 'UTC', 'local', IANA names, '+HH:MM' offsets) and returns its
/// canonical name ('local' becomes the system zone). matfuse:notAvailable without the library.
std::string canonical_time_zone(const std::string& tz);
/// Offset of zone tz from UTC (ms) at the UTC instant utc_ms; at local time when is_local.
double zone_offset_ms(const std::string& tz, double t_ms, bool is_local);
/// The zone abbreviation (EST, CEST, UTC) at a UTC instant.
std::string zone_abbrev(const std::string& tz, double utc_ms);

}  // namespace matfuse
