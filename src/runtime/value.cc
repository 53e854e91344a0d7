#include "runtime/value.h"

#include "runtime/array_size.h"

#include <algorithm>
#include <cmath>

namespace matfuse {

// ---------------------------------------------------------------- release_payload

namespace {
// The queue of the outermost release_payload on this thread (null when none runs). Trivially
// destructible thread-locals, so values destroyed at thread or program exit can use them.
thread_local std::vector<std::shared_ptr<void>>* t_release_queue = nullptr;
}  // namespace

void release_payload(std::shared_ptr<void> payload) noexcept {
  if (!payload) return;
  if (t_release_queue) {
    // Inside another release: queue it (moving a shared_ptr cannot throw; growth can, and then
    // this payload is released here, one level deeper, which is still correct).
    try {
      t_release_queue->push_back(std::move(payload));
    } catch (...) {
    }
    return;
  }
  std::vector<std::shared_ptr<void>> queue;
  t_release_queue = &queue;
  payload.reset();  // nested cells and structs of a last owner land in queue
  while (!queue.empty()) {
    std::shared_ptr<void> p = std::move(queue.back());
    queue.pop_back();
    p.reset();
  }
  t_release_queue = nullptr;
}

// ---------------------------------------------------------------- CellArray

namespace {
const Dims& checked_cell_dims(const Dims& dims) {
  check_array_size(dims, static_cast<double>(sizeof(Value)));
  return dims;
}
}  // namespace

CellArray::CellArray(const Dims& dims)
    : dims_(checked_cell_dims(dims)),
      elems_(std::make_shared<std::vector<Value>>(static_cast<size_t>(dims.numel()))) {
  dims_.normalize();
}

const Value& CellArray::operator[](int64_t i) const { return (*elems_)[static_cast<size_t>(i)]; }

std::vector<Value>& CellArray::mutable_elems() {
  if (elems_.use_count() > 1) elems_ = std::make_shared<std::vector<Value>>(*elems_);
  return *elems_;
}

Value& CellArray::at(int64_t i) { return mutable_elems()[static_cast<size_t>(i)]; }

void CellArray::resize(const Dims& d) {
  mutable_elems().resize(static_cast<size_t>(d.numel()));
  dims_ = d;
  dims_.normalize();
}

CellArray CellArray::reshaped(const Dims& d) const {
  MF_ASSERT(d.numel() == numel(), "cell reshape must keep numel");
  CellArray c = *this;
  c.dims_ = d;
  c.dims_.normalize();
  return c;
}

// ---------------------------------------------------------------- StructArray

StructArray::StructArray(const Dims& dims) : dims_(dims), data_(std::make_shared<Data>()) {
  dims_.normalize();
}

StructArray::Data& StructArray::mutable_data() {
  if (data_.use_count() > 1) data_ = std::make_shared<Data>(*data_);
  return *data_;
}

int StructArray::field_index(std::string_view name) const {
  const auto& f = data_->fields;
  for (size_t i = 0; i < f.size(); ++i)
    if (f[i] == name) return static_cast<int>(i);
  return -1;
}

int StructArray::add_field(std::string_view name) {
  int k = field_index(name);
  if (k >= 0) return k;
  Data& d = mutable_data();
  size_t nf = d.fields.size();
  int64_t n = numel();
  std::vector<Value> values(static_cast<size_t>(n) * (nf + 1));
  for (int64_t e = 0; e < n; ++e)
    for (size_t f = 0; f < nf; ++f) values[e * (nf + 1) + f] = std::move(d.values[e * nf + f]);
  d.values = std::move(values);
  d.fields.emplace_back(name);
  return static_cast<int>(nf);
}

void StructArray::remove_field(std::string_view name) {
  int k = field_index(name);
  MF_ASSERT(k >= 0, "remove_field of a missing field");
  Data& d = mutable_data();
  size_t nf = d.fields.size();
  int64_t n = numel();
  std::vector<Value> values;
  values.reserve(static_cast<size_t>(n) * (nf - 1));
  for (int64_t e = 0; e < n; ++e)
    for (size_t f = 0; f < nf; ++f)
      if (static_cast<int>(f) != k) values.push_back(std::move(d.values[e * nf + f]));
  d.values = std::move(values);
  d.fields.erase(d.fields.begin() + k);
}

const Value& StructArray::get(int64_t elem, int field) const {
  return data_->values[static_cast<size_t>(elem) * data_->fields.size() + field];
}

Value& StructArray::at(int64_t elem, int field) {
  Data& d = mutable_data();
  return d.values[static_cast<size_t>(elem) * d.fields.size() + field];
}

void StructArray::resize(const Dims& nd) {
  Data& d = mutable_data();
  d.values.resize(static_cast<size_t>(nd.numel()) * d.fields.size());
  dims_ = nd;
  dims_.normalize();
}

StructArray StructArray::reshaped(const Dims& d) const {
  MF_ASSERT(d.numel() == numel(), "struct reshape must keep numel");
  StructArray s = *this;
  s.dims_ = d;
  s.dims_.normalize();
  return s;
}

void StructArray::set_field_order(std::vector<std::string> order) {
  Data& d = mutable_data();
  MF_ASSERT(order.size() == d.fields.size(), "set_field_order needs a permutation");
  std::vector<int> from;
  for (const auto& name : order) {
    int k = field_index(name);
    MF_ASSERT(k >= 0, "set_field_order needs a permutation");
    from.push_back(k);
  }
  size_t nf = d.fields.size();
  std::vector<Value> values(d.values.size());
  for (int64_t e = 0; e < numel(); ++e)
    for (size_t f = 0; f < nf; ++f) values[e * nf + f] = std::move(d.values[e * nf + from[f]]);
  d.values = std::move(values);
  d.fields = std::move(order);
}

// ---------------------------------------------------------------- StringArray

StringArray::StringArray(const Dims& dims)
    : dims_(dims),
      elems_(std::make_shared<std::vector<std::optional<std::string>>>(
          static_cast<size_t>(dims.numel()), std::string())) {
  dims_.normalize();
}

StringArray StringArray::scalar(std::string s) {
  StringArray a(Dims::scalar());
  (*a.elems_)[0] = std::move(s);
  return a;
}

std::optional<std::string>& StringArray::at(int64_t i) {
  if (elems_.use_count() > 1)
    elems_ = std::make_shared<std::vector<std::optional<std::string>>>(*elems_);
  return (*elems_)[static_cast<size_t>(i)];
}

StringArray StringArray::reshaped(const Dims& d) const {
  MF_ASSERT(d.numel() == numel(), "string reshape must keep numel");
  StringArray s = *this;
  s.dims_ = d;
  s.dims_.normalize();
  return s;
}

// ---------------------------------------------------------------- Value

Value::Value(Tensor t) {
  if (t.cls() == ClassId::Double && !t.gpu_array() && !t.is_lazy() && !t.is_complex() &&
      t.is_scalar())
    v_ = t.get_double(0);
  else
    v_ = std::move(t);
}

Value Value::from_chars(std::string_view utf8) { return Value(Tensor::from_string(utf8)); }
Value Value::from_string(std::string s) { return Value(StringArray::scalar(std::move(s))); }
Value Value::logical(bool b) { return Value(Tensor::logical_scalar(b)); }

bool Value::is_char() const { return kind() == Kind::Array && std::get<Tensor>(v_).cls() == ClassId::Char; }
bool Value::is_logical() const {
  return kind() == Kind::Array && std::get<Tensor>(v_).cls() == ClassId::Logical;
}
bool Value::is_numeric() const {
  if (kind() == Kind::Scalar) return true;
  if (kind() != Kind::Array) return false;
  ClassId c = std::get<Tensor>(v_).cls();
  return c != ClassId::Char && c != ClassId::Logical;
}

Tensor Value::tensor() const {
  switch (kind()) {
    case Kind::Scalar: return Tensor::scalar(std::get<double>(v_));
    case Kind::Array: return std::get<Tensor>(v_);
    default:
      throw_error("MATLAB:invalidConversion", "Conversion to double from %s is not possible.",
                  class_name().c_str());
  }
}

std::string Value::class_name() const {
  switch (kind()) {
    case Kind::Scalar: return "double";
    case Kind::Array: return std::string(matfuse::class_name(std::get<Tensor>(v_).cls()));
    case Kind::Cell: return "cell";
    case Kind::Struct: return "struct";
    case Kind::String: return "string";
    case Kind::Function: return "function_handle";
    case Kind::Object: return object()->class_name();
  }
  return "double";
}

ClassId Value::cls() const {
  if (kind() == Kind::Scalar) return ClassId::Double;
  MF_ASSERT(kind() == Kind::Array, "cls() of a non-array value");
  return std::get<Tensor>(v_).cls();
}

Dims Value::dims() const {
  switch (kind()) {
    case Kind::Scalar: return Dims::scalar();
    case Kind::Array: return std::get<Tensor>(v_).dims();
    case Kind::Cell: return cell().dims();
    case Kind::Struct: return struct_array().dims();
    case Kind::String: return string_array().dims();
    case Kind::Function: return Dims::scalar();
    case Kind::Object: return object()->dims();
  }
  return Dims::scalar();
}

double Value::to_double(const char* what) const {
  if (kind() == Kind::Scalar) return std::get<double>(v_);
  if (kind() == Kind::Array) {
    const Tensor& t = std::get<Tensor>(v_);
    if (t.numel() == 1 && !t.is_complex()) return t.get_double(0);
    if (t.numel() == 1) return t.get_double(0);
  }
  throw_error("MATLAB:expectedScalar", "Expected %s to be a scalar.", what);
}

int64_t Value::to_index(const char* what) const {
  double d = to_double(what);
  // 2^63 and up (Inf included) are no int64: their conversion would be undefined.
  if (!(d >= 0) || d != std::floor(d) || d >= 9223372036854775808.0)
    throw_error("MATLAB:expectedNonnegativeInteger", "Expected %s to be a nonnegative integer.",
                what);
  return static_cast<int64_t>(d);
}

bool Value::is_text() const {
  if (kind() == Kind::String) return numel() == 1;
  if (!is_char()) return false;
  const Dims d = dims();
  return d.ndims() == 2 && (d.rows() == 1 || d.numel() == 0);
}

std::string Value::to_text(const char* what) const {
  if (kind() == Kind::String && numel() == 1) {
    const auto& s = string_array()[0];
    return s ? *s : std::string();
  }
  if (is_char() && is_text()) return std::get<Tensor>(v_).to_utf8();
  throw_error("MATLAB:invalidType", "Expected %s to be a character vector or string scalar.",
              what);
}

bool Value::truthy() const {
  switch (kind()) {
    case Kind::Scalar: {
      double d = std::get<double>(v_);
      if (std::isnan(d))
        throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
      return d != 0;
    }
    case Kind::Array: {
      const Tensor& t = std::get<Tensor>(v_);
      int64_t n = t.numel();
      if (n == 0) return false;
      for (int64_t i = 0; i < n; ++i) {
        std::complex<double> z = t.get_complex(i);
        if (std::isnan(z.real()) || std::isnan(z.imag()))
          throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
        if (z.real() == 0 && z.imag() == 0) return false;
      }
      return true;
    }
    case Kind::String:
      throw_error("MATLAB:nonLogicalConditional",
                  "Conversion to logical from string is not possible.");
    case Kind::Object:
      if (bool t; object()->truth(t)) return t;
      [[fallthrough]];
    default:
      throw_error("MATLAB:nonLogicalConditional", "Conversion to logical from %s is not possible.",
                  class_name().c_str());
  }
}

}  // namespace matfuse
