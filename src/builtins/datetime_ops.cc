// Methods of datetime, duration and calendarDuration (Registry::add_method): arithmetic and
// relational operators, colon, and the array functions MATLAB defines for them (sort, min,
// max, diff, mean, sum, shape functions, char/string/cellstr, datenum/datestr, isequal, ...).
//
// Rules (MATLAB): datetime - datetime is a duration; datetime +/- duration, number (days) or
// calendarDuration is a datetime (calendar months clamp the day to the month's end); duration
// arithmetic treats numbers as days; durations scale by numbers and divide to numbers;
// calendarDuration arithmetic works per field. Comparisons convert text to datetime and
// numbers to durations (days); calendarDurations compare with == and ~= only. Elementwise
// operations use implicit expansion.
#include <algorithm>
#include <cmath>

#include "builtins/datetime.h"
#include "builtins/datetime_util.h"
#include "builtins/format.h"
#include "builtins/math_util.h"
#include "builtins/methods.h"
#include "builtins/operators.h"
#include "builtins/registry.h"
#include "builtins/text_util.h"

namespace matfuse {

using namespace datetime_detail;

namespace {

bool is_textish(const Value& v) { return v.is_text() || v.is_string() || v.is_cell() || v.is_char(); }

[[noreturn]] void op_undefined(const char* op, const Value& a, const Value& b) {
  throw_error("MATLAB:datetime:InvalidOperation",
              "%s is not defined between '%s' and '%s' arrays.", op, a.class_name().c_str(),
              b.class_name().c_str());
}

/// Element-wise combination with implicit expansion: fn(i, j) for the source indices of a and
/// b at each result element.
template <class Fn>
Dims each_pair(const Dims& da, const Dims& db, Fn fn) {
  const Dims d = broadcast_dims(da, db);
  const auto ma = mathutil::broadcast_map(da, d), mb = mathutil::broadcast_map(db, d);
  for (int64_t k = 0; k < d.numel(); ++k) fn(k, ma[k], mb[k]);
  return d;
}

/// Milliseconds of a duration operand; numbers count days.
std::vector<double> duration_ms(const Value& v, const char* op, const Value& other) {
  if (const DurationArray* d = as_duration(v)) return d->ms();
  if (v.is_numeric() || v.is_logical()) {
    std::vector<double> r = numbers(v, op);
    for (double& x : r) x *= kMsPerDay;
    return r;
  }
  op_undefined(op, v, other);
}

Value datetime_plus(const Value& dtv, const Value& other, double sign, const char* op) {
  const DatetimeArray& t = *as_datetime(dtv);
  const size_t n0 = static_cast<size_t>(dtv.numel());
  (void)n0;
  if (const CalendarDurationArray* c = as_caldur(other)) {
    std::vector<double> out;
    const Dims d = each_pair(dtv.dims(), other.dims(), [&](int64_t, int64_t i, int64_t j) {
      double l = t.local_ms(i);
      l = add_months_local(l, sign * c->months()[j]);
      l += sign * (c->days()[j] * kMsPerDay + c->ms()[j]);
      out.push_back(t.from_local(l));
    });
    return DatetimeArray::make(d, std::move(out), t.format(), t.time_zone());
  }
  const std::vector<double> ms = duration_ms(other, op, dtv);
  std::vector<double> out;
  const Dims d = each_pair(dtv.dims(), other.dims(), [&](int64_t, int64_t i, int64_t j) {
    out.push_back(t.ms()[i] + sign * ms[j]);
  });
  return DatetimeArray::make(d, std::move(out), t.format(), t.time_zone());
}

/// calendarDuration fields of an operand (durations give the time field, numbers days).
void cal_fields(const Value& v, std::vector<double>& mo, std::vector<double>& dd,
                std::vector<double>& t, const char* op, const Value& other) {
  if (const CalendarDurationArray* c = as_caldur(v)) {
    mo = c->months(), dd = c->days(), t = c->ms();
    return;
  }
  if (const DurationArray* d = as_duration(v)) {
    t = d->ms();
    mo.assign(t.size(), 0);
    dd.assign(t.size(), 0);
    return;
  }
  if (v.is_numeric() || v.is_logical()) {
    dd = numbers(v, op);
    mo.assign(dd.size(), 0);
    t.assign(dd.size(), 0);
    return;
  }
  op_undefined(op, v, other);
}

Value cal_combine(const Value& a, const Value& b, double sign, const char* op) {
  std::vector<double> m1, d1, t1, m2, d2, t2;
  cal_fields(a, m1, d1, t1, op, b);
  cal_fields(b, m2, d2, t2, op, a);
  std::vector<double> mo, dd, tt;
  const Dims d = each_pair(a.dims(), b.dims(), [&](int64_t, int64_t i, int64_t j) {
    mo.push_back(m1[i] + sign * m2[j]);
    dd.push_back(d1[i] + sign * d2[j]);
    tt.push_back(t1[i] + sign * t2[j]);
  });
  const CalendarDurationArray* f = as_caldur(a) ? as_caldur(a) : as_caldur(b);
  return CalendarDurationArray::make(d, std::move(mo), std::move(dd), std::move(tt), f->format());
}

Value duration_combine(const Value& a, const Value& b, const char* op,
                       double (*fn)(double, double)) {
  const std::vector<double> x = duration_ms(a, op, b), y = duration_ms(b, op, a);
  std::vector<double> out;
  const Dims d = each_pair(a.dims(), b.dims(),
                           [&](int64_t, int64_t i, int64_t j) { out.push_back(fn(x[i], y[j])); });
  const DurationArray* f = as_duration(a) ? as_duration(a) : as_duration(b);
  return DurationArray::make(d, std::move(out), f->format());
}

Outputs m_plus(CallContext&, Args args, int) {
  check_nargin(args, 2, 2);
  const Value &a = args[0], &b = args[1];
  if (as_datetime(a) && as_datetime(b))
    throw_error("MATLAB:datetime:DatetimeAdditionNotDefined",
                "Addition is not defined between datetime arrays.");
  if (as_datetime(a)) return {datetime_plus(a, b, 1, "Addition")};
  if (as_datetime(b)) return {datetime_plus(b, a, 1, "Addition")};
  if (as_caldur(a) || as_caldur(b)) return {cal_combine(a, b, 1, "Addition")};
  return {duration_combine(a, b, "Addition", [](double x, double y) { return x + y; })};
}

Outputs m_minus(CallContext&, Args args, int) {
  check_nargin(args, 2, 2);
  Value a = args[0], b = args[1];
  if (!as_datetime(a) && as_datetime(b) && is_textish(a)) a = as_datetime(b)->convert(a);
  const DatetimeArray* da = as_datetime(a);
  if (da && (as_datetime(b) || is_textish(b))) {
    b = da->convert(b);
    const DatetimeArray& db = *as_datetime(b);
    da->check_compatible(db);
    std::vector<double> out;
    const Dims d = each_pair(a.dims(), b.dims(), [&](int64_t, int64_t i, int64_t j) {
      out.push_back(da->ms()[i] - db.ms()[j]);
    });
    return {DurationArray::make(d, std::move(out))};
  }
  if (da) return {datetime_plus(a, b, -1, "Subtraction")};
  if (as_datetime(b)) op_undefined("Subtraction", a, b);
  if (as_caldur(a) || as_caldur(b)) return {cal_combine(a, b, -1, "Subtraction")};
  return {duration_combine(a, b, "Subtraction", [](double x, double y) { return x - y; })};
}

Outputs m_uminus(CallContext&, Args args, int) {
  const Value& a = args[0];
  if (const DurationArray* d = as_duration(a)) {
    std::vector<double> v = d->ms();
    for (double& x : v) x = -x;
    return {DurationArray::make(a.dims(), std::move(v), d->format())};
  }
  if (const CalendarDurationArray* c = as_caldur(a)) {
    std::vector<double> m = c->months(), dd = c->days(), t = c->ms();
    for (double& x : m) x = -x;
    for (double& x : dd) x = -x;
    for (double& x : t) x = -x;
    return {CalendarDurationArray::make(a.dims(), std::move(m), std::move(dd), std::move(t), c->format())};
  }
  throw_error("MATLAB:datetime:UnaryMinusNotDefined", "Unary minus is not defined for datetime arrays.");
}

Outputs m_uplus(CallContext&, Args args, int) { return {args[0]}; }

Outputs m_times(CallContext&, Args args, int) {
  check_nargin(args, 2, 2);
  const Value &a = args[0], &b = args[1];
  const bool da = as_duration(a) != nullptr, ca = as_caldur(a) != nullptr;
  const Value& obj = (da || ca) ? a : b;
  const Value& num = (da || ca) ? b : a;
  if (!(num.is_numeric() || num.is_logical())) op_undefined("Multiplication", a, b);
  const std::vector<double> k = numbers(num, "times");
  if (const DurationArray* d = as_duration(obj)) {
    std::vector<double> out;
    const Dims dd = each_pair(obj.dims(), num.dims(),
                              [&](int64_t, int64_t i, int64_t j) { out.push_back(d->ms()[i] * k[j]); });
    return {DurationArray::make(dd, std::move(out), d->format())};
  }
  if (const CalendarDurationArray* c = as_caldur(obj)) {
    for (double x : k)
      if (std::isfinite(x) && x != std::floor(x))
        throw_error("MATLAB:calendarDuration:NonIntegerMultiplier",
                    "Calendar durations can only be multiplied by integers.");
    std::vector<double> m, dd, t;
    const Dims d = each_pair(obj.dims(), num.dims(), [&](int64_t, int64_t i, int64_t j) {
      m.push_back(c->months()[i] * k[j]);
      dd.push_back(c->days()[i] * k[j]);
      t.push_back(c->ms()[i] * k[j]);
    });
    return {CalendarDurationArray::make(d, std::move(m), std::move(dd), std::move(t), c->format())};
  }
  op_undefined("Multiplication", a, b);
}

Outputs m_rdivide(CallContext&, Args args, int) {
  check_nargin(args, 2, 2);
  const Value &a = args[0], &b = args[1];
  const DurationArray* d = as_duration(a);
  if (d && as_duration(b)) {
    const DurationArray* e = as_duration(b);
    std::vector<double> out;
    const Dims dd = each_pair(a.dims(), b.dims(), [&](int64_t, int64_t i, int64_t j) {
      out.push_back(d->ms()[i] / e->ms()[j]);
    });
    return {Value(doubles_tensor(dd, out))};
  }
  if (d && (b.is_numeric() || b.is_logical())) {
    const std::vector<double> k = numbers(b, "rdivide");
    std::vector<double> out;
    const Dims dd = each_pair(a.dims(), b.dims(),
                              [&](int64_t, int64_t i, int64_t j) { out.push_back(d->ms()[i] / k[j]); });
    return {DurationArray::make(dd, std::move(out), d->format())};
  }
  op_undefined("Division", a, b);
}

Outputs m_mtimes(CallContext& ctx, Args args, int n) {
  check_nargin(args, 2, 2);
  if (args[0].numel() != 1 && args[1].numel() != 1)
    throw_error("MATLAB:datetime:MatrixMultiplicationNotDefined",
                "Matrix multiplication is not defined for '%s' arrays; use .* instead.",
                (as_element_array(args[0]) ? args[0] : args[1]).class_name().c_str());
  return m_times(ctx, args, n);
}

Outputs m_mrdivide(CallContext& ctx, Args args, int n) {
  check_nargin(args, 2, 2);
  if (args[1].numel() != 1)
    throw_error("MATLAB:datetime:MatrixDivisionNotDefined",
                "Matrix division is not defined for '%s' arrays; use ./ instead.",
                args[0].class_name().c_str());
  return m_rdivide(ctx, args, n);
}

/// The comparable numbers of both operands (ms); text becomes datetime, numbers durations.
void comparable(const Value& a, const Value& b, std::vector<double>& x, std::vector<double>& y,
                Value& va, Value& vb) {
  va = a, vb = b;
  const DatetimeArray* da = as_datetime(a);
  const DatetimeArray* db = as_datetime(b);
  if (da || db) {
    // Datetimes compare with datetimes and with text that represents dates.
    if ((!da && !is_textish(a)) || (!db && !is_textish(b)))
      throw_error("MATLAB:datetime:InvalidComparison",
                  "Comparison is not defined between '%s' and '%s' arrays.",
                  a.class_name().c_str(), b.class_name().c_str());
    if (!da) va = db->convert(a);
    if (!db) vb = da->convert(b);
    as_datetime(va)->check_compatible(*as_datetime(vb));
    x = as_datetime(va)->ms(), y = as_datetime(vb)->ms();
    return;
  }
  if ((as_duration(a) || a.is_numeric() || a.is_logical()) &&
      (as_duration(b) || b.is_numeric() || b.is_logical()) && !as_caldur(a) && !as_caldur(b)) {
    x = duration_ms(a, "Comparison", b), y = duration_ms(b, "Comparison", a);
    return;
  }
  throw_error("MATLAB:datetime:InvalidComparison",
              "Comparison is not defined between '%s' and '%s' arrays.", a.class_name().c_str(),
              b.class_name().c_str());
}

template <int Op>  // 0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge
Outputs m_compare(CallContext&, Args args, int) {
  check_nargin(args, 2, 2);
  const Value &a = args[0], &b = args[1];
  std::vector<bool> out;
  Dims d;
  if (as_caldur(a) || as_caldur(b)) {
    if (Op > 1)
      throw_error("MATLAB:calendarDuration:InvalidComparison",
                  "Calendar durations can be compared only with == and ~=: their lengths depend "
                  "on the date they are added to.");
    std::vector<double> m1, d1, t1, m2, d2, t2;
    cal_fields(a, m1, d1, t1, "Comparison", b);
    cal_fields(b, m2, d2, t2, "Comparison", a);
    d = each_pair(a.dims(), b.dims(), [&](int64_t, int64_t i, int64_t j) {
      const bool eq = m1[i] == m2[j] && d1[i] == d2[j] && t1[i] == t2[j];
      out.push_back(Op == 0 ? eq : !eq);
    });
  } else {
    std::vector<double> x, y;
    Value va, vb;
    comparable(a, b, x, y, va, vb);
    d = each_pair(va.dims(), vb.dims(), [&](int64_t, int64_t i, int64_t j) {
      const double p = x[i], q = y[j];
      bool r = false;
      switch (Op) {
        case 0: r = p == q; break;
        case 1: r = p != q; break;
        case 2: r = p < q; break;
        case 3: r = p <= q; break;
        case 4: r = p > q; break;
        default: r = p >= q;
      }
      out.push_back(r);
    });
  }
  Tensor t = Tensor::zeros(ClassId::Logical, d);
  for (size_t k = 0; k < out.size(); ++k) t.mutable_data<bool>()[k] = out[k];
  return {Value(std::move(t))};
}

/// a:b, a:step:b. datetime ranges step by days (numbers), durations or calendar durations;
/// duration ranges by durations or days.
Outputs m_colon(CallContext&, Args args, int) {
  check_nargin(args, 2, 3);
  const Value& a = args[0];
  const Value& b = args.back();
  Value step = args.size() == 3 ? args[1] : Value(1.0);
  const DatetimeArray* da = as_datetime(a);
  if (da && (step.is_numeric() || step.is_logical()) && step.numel() == 1) {
    // A numeric step of a datetime range counts calendar days (MATLAB: t1:t2 steps by
    // caldays(1), so days across a daylight-saving change are 23 or 25 hours long).
    const double k = step.to_double();
    if (k == std::floor(k)) step = CalendarDurationArray::make(Dims(1, 1), {0}, {k}, {0});
  }
  if (da) {
    const Value bb = da->convert(b);
    const DatetimeArray* db = as_datetime(bb);
    da->check_compatible(*db);
    if (a.numel() == 0 || bb.numel() == 0) return {DatetimeArray::make(Dims(1, 0), {}, da->format(), da->time_zone())};
    const double x = da->ms()[0], y = db->ms()[0];
    std::vector<double> out;
    if (const CalendarDurationArray* c = as_caldur(step)) {
      const double l0 = da->local_ms(0);
      const double mo = c->months()[0], dd = c->days()[0], tt = c->ms()[0];
      if (mo == 0 && dd == 0 && tt == 0)
        return {DatetimeArray::make(Dims(1, 0), {}, da->format(), da->time_zone())};
      const bool up = mo * 30 * kMsPerDay + dd * kMsPerDay + tt > 0;
      for (int64_t k = 0;; ++k) {
        const double l = add_months_local(l0, k * mo) + k * (dd * kMsPerDay + tt);
        const double u = da->from_local(l);
        if (!std::isfinite(u) || (up ? u > y : u < y) || k > 10000000) break;
        out.push_back(u);
      }
    } else {
      const std::vector<double> s = duration_ms(step, "colon", a);
      if (s.size() != 1)
        throw_error("MATLAB:colon:nonScalarInputs", "Colon operands must be scalars.");
      if (s[0] == 0 || !std::isfinite(s[0]) || !std::isfinite(x) || !std::isfinite(y))
        return {DatetimeArray::make(Dims(1, 0), {}, da->format(), da->time_zone())};
      const Tensor q = colon_op(Value(0.0), nullptr, Value(std::floor((y - x) / s[0] + 1e-10))).tensor();
      for (int64_t k = 0; k < q.numel(); ++k) out.push_back(x + q.get_double(k) * s[0]);
    }
    const int64_t n = static_cast<int64_t>(out.size());
    return {DatetimeArray::make(Dims(1, n), std::move(out), da->format(), da->time_zone())};
  }
  const std::vector<double> x = duration_ms(a, "colon", b), y = duration_ms(b, "colon", a),
                            s = duration_ms(step, "colon", a);
  if (x.size() != 1 || y.size() != 1 || s.size() != 1)
    throw_error("MATLAB:colon:nonScalarInputs", "Colon operands must be scalars.");
  std::vector<double> out;
  if (s[0] != 0 && std::isfinite(s[0]) && std::isfinite(x[0]) && std::isfinite(y[0])) {
    // The count goes through the numeric colon (its size limits and errors).
    const Tensor q = colon_op(Value(0.0), nullptr, Value(std::floor((y[0] - x[0]) / s[0] + 1e-10))).tensor();
    for (int64_t k = 0; k < q.numel(); ++k) out.push_back(x[0] + q.get_double(k) * s[0]);
  }
  // The display format of the first duration among start, step and stop.
  const DurationArray* f = as_duration(a) ? as_duration(a) : as_duration(step) ? as_duration(step) : as_duration(b);
  const int64_t n = static_cast<int64_t>(out.size());
  return {DurationArray::make(Dims(1, n), std::move(out), f->format())};
}

// ------------------------------------------------------------------------------ via numbers

/// The temporal array among args that decides the class of results.
const TemporalArray* proto_of(Args args) {
  for (const Value& v : args)
    if (auto* t = dynamic_cast<const TemporalArray*>(v.is_object() ? v.object().get() : nullptr))
      return t;
  return nullptr;
}

/// args with the data arguments (the first ndata ones, and any temporal argument) replaced by
/// double arrays of field k; other arguments (dims, options) pass unchanged.
std::vector<Value> field_args(const TemporalArray& proto, Args args, size_t ndata, int k) {
  std::vector<Value> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& v = args[i];
    const bool temporal = dynamic_cast<const TemporalArray*>(v.is_object() ? v.object().get() : nullptr) != nullptr;
    const bool placeholder = v.is_tensor() && v.is_empty() && i > 0;  // max(t, [], dim)
    if (!temporal && (i >= ndata || placeholder)) {
      out.push_back(v);
      continue;
    }
    Value c = v;
    if (!temporal || v.class_name() != proto.class_name()) c = proto.convert(v);
    const auto* t = dynamic_cast<const TemporalArray*>(c.object().get());
    proto.check_compatible(*t);
    out.push_back(Value(doubles_tensor(c.dims(), t->field(k))));
  }
  return out;
}

/// A temporal array like proto from double results of every field.
Value rewrap(const TemporalArray& proto, const std::vector<Value>& per_field) {
  std::vector<std::vector<double>> f;
  Dims d;
  for (const Value& v : per_field) {
    const Tensor t = v.tensor().to_class(ClassId::Double);
    d = t.dims();
    f.emplace_back(t.data<double>(), t.data<double>() + t.numel());
  }
  return Value(std::static_pointer_cast<Object>(proto.with_data(d, std::move(f))));
}

/// The function `Name` applied to the fields' numbers, the first output rewrapped in the
/// class of the temporal argument (shape and order functions, min/max, mean ...). ndata: how
/// many leading arguments are data. Orderable says whether calendarDuration is refused.
template <const char* Name, int NData, bool Orderable, bool Rewrap>
Outputs m_numeric(CallContext& ctx, Args args, int nargout) {
  const TemporalArray* proto = proto_of(args);
  const int nf = Orderable ? 1 : proto->nfields();
  if (Orderable && proto->nfields() > 1)
    throw_error("MATLAB:calendarDuration:NotOrderable",
                "%s is not defined for calendarDuration arrays: their lengths depend on the date "
                "they are added to.", Name);
  std::vector<Outputs> outs;
  for (int k = 0; k < nf; ++k) {
    std::vector<Value> fa = field_args(*proto, args, NData, k);
    outs.push_back(ctx.call_named(Name, fa, std::max(nargout, 1)));
  }
  Outputs r = outs[0];
  if (Rewrap) {
    std::vector<Value> firsts;
    for (const auto& o : outs) firsts.push_back(o.at(0));
    r[0] = rewrap(*proto, firsts);
  }
  return r;
}

// Function names for m_numeric (template arguments need linkage).
constexpr char kSort[] = "sort", kMin[] = "min", kMax[] = "max", kMean[] = "mean",
               kMedian[] = "median", kUnique[] = "unique", kCummin[] = "cummin",
               kCummax[] = "cummax", kReshape[] = "reshape", kRepmat[] = "repmat",
               kTranspose[] = "transpose", kCtranspose[] = "ctranspose", kPermute[] = "permute",
               kSqueeze[] = "squeeze", kFlip[] = "flip", kFliplr[] = "fliplr",
               kFlipud[] = "flipud", kCircshift[] = "circshift", kRot90[] = "rot90",
               kIssorted[] = "issorted", kIsmember[] = "ismember", kLinspace[] = "linspace",
               kSum[] = "sum", kCumsum[] = "cumsum", kAbs[] = "abs", kIsnan[] = "isnan",
               kIsinf[] = "isinf", kIsfinite[] = "isfinite", kSign[] = "sign";

/// diff(t[, n, dim]): differences as durations (datetime and duration inputs).
Outputs m_diff(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  const TemporalArray* proto = proto_of(args);
  if (proto->nfields() > 1)
    throw_error("MATLAB:calendarDuration:NotOrderable", "diff is not defined for calendarDuration arrays.");
  std::vector<Value> fa = field_args(*proto, args, 1, 0);
  const Tensor r = ctx.call_named("diff", fa, 1)[0].tensor();
  const auto* d = dynamic_cast<const DurationArray*>(proto);
  return {DurationArray::make(r.dims(), std::vector<double>(r.data<double>(), r.data<double>() + r.numel()),
                              d ? d->format() : "hh:mm:ss")};
}

/// isequal(a, b, ...): same class, size and values (NaT and NaN never equal).
Outputs m_isequal(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, SIZE_MAX);
  check_nargout(nargout, 1);
  for (size_t k = 1; k < args.size(); ++k) {
    const Value &a = args[0], &b = args[k];
    const auto* ta = dynamic_cast<const TemporalArray*>(a.is_object() ? a.object().get() : nullptr);
    const auto* tb = dynamic_cast<const TemporalArray*>(b.is_object() ? b.object().get() : nullptr);
    if (!ta || !tb || a.class_name() != b.class_name() || a.dims() != b.dims())
      return {Value::logical(false)};
    if (as_datetime(a) && as_datetime(a)->time_zone().empty() != as_datetime(b)->time_zone().empty())
      return {Value::logical(false)};
    for (int f = 0; f < ta->nfields(); ++f)
      if (ta->field(f) != tb->field(f)) return {Value::logical(false)};
    for (int f = 0; f < ta->nfields(); ++f)
      for (double x : ta->field(f))
        if (std::isnan(x)) return {Value::logical(false)};
  }
  return {Value::logical(true)};
}

/// The element texts (in fmt for datetime when given).
std::vector<std::string> texts_of(Args args, const char* fname) {
  const TemporalArray* t = proto_of(args);
  if (args.size() > 1) {
    const DatetimeArray* d = as_datetime(args[0]);
    if (!d)
      throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
    const std::string f = args[1].to_text();
    std::vector<std::string> out;
    for (int64_t i = 0; i < args[0].numel(); ++i) out.push_back(d->text(i, f));
    return out;
  }
  (void)fname;
  return t->element_texts();
}

/// char(t[, fmt]): a char matrix, one row per element (column-major), padded with blanks.
Outputs m_char(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  const auto texts = texts_of(args, "char");
  size_t w = 0;
  for (const auto& s : texts) w = std::max(w, s.size());
  const int64_t n = static_cast<int64_t>(texts.size());
  Tensor c = Tensor::zeros(ClassId::Char, Dims(n, n ? static_cast<int64_t>(w) : 0));
  for (int64_t r = 0; r < n; ++r)
    for (size_t k = 0; k < w; ++k)
      c.mutable_data<char16_t>()[static_cast<int64_t>(k) * n + r] =
          k < texts[r].size() ? static_cast<char16_t>(static_cast<unsigned char>(texts[r][k])) : u' ';
  return {Value(std::move(c))};
}

/// string(t[, fmt]): a string array of the same size (NaT is <missing>).
Outputs m_string(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  const auto texts = texts_of(args, "string");
  StringArray s(args[0].dims());
  const DatetimeArray* d = as_datetime(args[0]);
  for (size_t i = 0; i < texts.size(); ++i) {
    if (d && std::isnan(d->ms()[i])) s.at(static_cast<int64_t>(i)) = std::nullopt;
    else s.at(static_cast<int64_t>(i)) = texts[i];
  }
  return {Value(std::move(s))};
}

/// cellstr(t[, fmt]): a cell array of char rows of the same size.
Outputs m_cellstr(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  const auto texts = texts_of(args, "cellstr");
  CellArray c(args[0].dims());
  for (size_t i = 0; i < texts.size(); ++i) c.at(static_cast<int64_t>(i)) = char_row(texts[i]);
  return {Value(std::move(c))};
}

/// datenum(t): serial date numbers of datetimes (local clock time); of durations, days.
Outputs m_datenum(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  std::vector<double> v;
  if (const DatetimeArray* t = as_datetime(args[0])) {
    for (int64_t i = 0; i < args[0].numel(); ++i) v.push_back(t->local_ms(i) / kMsPerDay + kDatenumEpoch);
  } else if (const DurationArray* d = as_duration(args[0])) {
    for (double x : d->ms()) v.push_back(x / kMsPerDay);
  } else {
    throw_error("MATLAB:datenum:InvalidInput", "datenum is not defined for calendarDuration arrays.");
  }
  return {Value(doubles_tensor(args[0].dims(), v))};
}

/// datestr(t, ...): datestr of the serial date numbers.
Outputs m_datestr(CallContext& ctx, Args args, int nargout) {
  std::vector<Value> a(args.begin(), args.end());
  a[0] = m_datenum(ctx, args.subspan(0, 1), 1)[0];
  return ctx.call_named("datestr", a, nargout);
}

/// [Y,M,D,H,MN,S] = datevec(t) of datetimes or durations (rows of date vectors).
Outputs m_datevec(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 6);
  const int64_t n = args[0].numel();
  std::vector<std::vector<double>> cols(6, std::vector<double>(static_cast<size_t>(n)));
  const DatetimeArray* t = as_datetime(args[0]);
  const DurationArray* d = as_duration(args[0]);
  if (!t && !d) throw_error("MATLAB:datevec:InvalidInput", "datevec is not defined for calendarDuration arrays.");
  for (int64_t i = 0; i < n; ++i) {
    if (t) {
      const double l = t->local_ms(i);
      if (!std::isfinite(l)) {
        for (auto& c : cols) c[i] = NAN;
        continue;
      }
      const CivilTime c = ms_to_civil(l);
      const double v[6] = {static_cast<double>(c.year), static_cast<double>(c.month), static_cast<double>(c.day),
                           static_cast<double>(c.hour), static_cast<double>(c.minute), c.second};
      for (int k = 0; k < 6; ++k) cols[k][i] = v[k];
    } else {
      const double x = d->ms()[static_cast<size_t>(i)];
      const double a = std::abs(x), sg = x < 0 ? -1 : 1;
      const double h = std::floor(a / 3600000), mi = std::floor((a - h * 3600000) / 60000);
      const double v[6] = {0, 0, 0, sg * h, sg * mi, sg * (a - h * 3600000 - mi * 60000) / 1000};
      for (int k = 0; k < 6; ++k) cols[k][i] = v[k];
    }
  }
  if (nargout <= 1) {
    Tensor m = Tensor::uninit(ClassId::Double, Dims(n, 6));
    for (int k = 0; k < 6; ++k)
      for (int64_t i = 0; i < n; ++i) m.mutable_data<double>()[k * n + i] = cols[k][i];
    return {Value(std::move(m))};
  }
  Outputs out;
  for (int k = 0; k < nargout; ++k) out.push_back(Value(doubles_tensor(Dims(n, 1), cols[k])));
  return out;
}

}  // namespace

void register_datetime_ops(Registry& r) {
  const char* all[] = {"datetime", "duration", "calendarDuration"};
  for (const char* c : all) {
    add_class_method(c, "plus", m_plus);
    add_class_method(c, "minus", m_minus);
    add_class_method(c, "uminus", m_uminus);
    add_class_method(c, "uplus", m_uplus);
    add_class_method(c, "times", m_times);
    add_class_method(c, "mtimes", m_mtimes);
    add_class_method(c, "rdivide", m_rdivide);
    add_class_method(c, "mrdivide", m_mrdivide);
    add_class_method(c, "eq", m_compare<0>);
    add_class_method(c, "ne", m_compare<1>);
    add_class_method(c, "lt", m_compare<2>);
    add_class_method(c, "le", m_compare<3>);
    add_class_method(c, "gt", m_compare<4>);
    add_class_method(c, "ge", m_compare<5>);
    add_class_method(c, "colon", m_colon);
    add_class_method(c, "reshape", m_numeric<kReshape, 1, false, true>);
    add_class_method(c, "repmat", m_numeric<kRepmat, 1, false, true>);
    add_class_method(c, "transpose", m_numeric<kTranspose, 1, false, true>);
    add_class_method(c, "ctranspose", m_numeric<kCtranspose, 1, false, true>);
    add_class_method(c, "permute", m_numeric<kPermute, 1, false, true>);
    add_class_method(c, "squeeze", m_numeric<kSqueeze, 1, false, true>);
    add_class_method(c, "flip", m_numeric<kFlip, 1, false, true>);
    add_class_method(c, "fliplr", m_numeric<kFliplr, 1, false, true>);
    add_class_method(c, "flipud", m_numeric<kFlipud, 1, false, true>);
    add_class_method(c, "circshift", m_numeric<kCircshift, 1, false, true>);
    add_class_method(c, "rot90", m_numeric<kRot90, 1, false, true>);
    add_class_method(c, "isequal", m_isequal);
    add_class_method(c, "char", m_char);
    add_class_method(c, "string", m_string);
    add_class_method(c, "cellstr", m_cellstr);
  }
  for (const char* c : {"datetime", "duration"}) {
    add_class_method(c, "sort", m_numeric<kSort, 1, true, true>);
    add_class_method(c, "min", m_numeric<kMin, 2, true, true>);
    add_class_method(c, "max", m_numeric<kMax, 2, true, true>);
    add_class_method(c, "mean", m_numeric<kMean, 1, true, true>);
    add_class_method(c, "median", m_numeric<kMedian, 1, true, true>);
    add_class_method(c, "unique", m_numeric<kUnique, 1, true, true>);
    add_class_method(c, "cummin", m_numeric<kCummin, 1, true, true>);
    add_class_method(c, "cummax", m_numeric<kCummax, 1, true, true>);
    add_class_method(c, "issorted", m_numeric<kIssorted, 1, true, false>);
    add_class_method(c, "ismember", m_numeric<kIsmember, 2, true, false>);
    add_class_method(c, "linspace", m_numeric<kLinspace, 2, true, true>);
    add_class_method(c, "diff", m_diff);
    add_class_method(c, "datenum", m_datenum);
    add_class_method(c, "datestr", m_datestr);
    add_class_method(c, "datevec", m_datevec);
  }
  add_class_method("duration", "sum", m_numeric<kSum, 1, true, true>);
  add_class_method("duration", "cumsum", m_numeric<kCumsum, 1, true, true>);
  add_class_method("duration", "abs", m_numeric<kAbs, 1, true, true>);
  add_class_method("duration", "isnan", m_numeric<kIsnan, 1, true, false>);
  add_class_method("duration", "isinf", m_numeric<kIsinf, 1, true, false>);
  add_class_method("duration", "isfinite", m_numeric<kIsfinite, 1, true, false>);
  add_class_method("duration", "sign", m_numeric<kSign, 1, true, false>);
}

}  // namespace matfuse
