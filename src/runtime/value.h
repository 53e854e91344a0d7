// Value: any MATLAB value.
//
// Kinds
// - Scalar: a real double 1x1 held inline (no heap). This is the interpreter's fast path: scalar
//   loops run without allocation. Every other 1x1 real double produced through Value(Tensor) is
//   normalised to this kind, except a gpuArray-flagged one (Tensor::gpu_array) and a lazy one
//   (a pending graph value: a reduction's or product's 1x1 result stays where it is computed,
//   on the device, until a sink reads it), kept as Array.
// - Array: a Tensor (numeric, logical, char; real or complex; any dims).
// - Cell: CellArray, a Dims-shaped array of Values.
// - Struct: StructArray, a Dims-shaped array of records sharing an ordered field list.
// - String: StringArray, a Dims-shaped array of strings (MATLAB "string" class); missing entries
//   are std::nullopt (<missing>).
// - Function: a function handle (named or anonymous), see FunctionObject.
// - Object: a handle object implemented in C++ (containers.Map, ...), see Object.
// All kinds are cheap to copy (shared, copy-on-write payloads).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "runtime/dims.h"
#include "runtime/error.h"
#include "runtime/tensor.h"

namespace matfuse {

class Value;

/// Releases a cell's or struct's payload without recursion: payloads released while another is
/// being released are queued and freed by the outermost call, so destroying a cell or struct
/// nested millions deep needs constant stack (value.cc).
void release_payload(std::shared_ptr<void> payload) noexcept;

/// Array of Values with MATLAB dims. Copy-on-write.
class CellArray {
public:
  CellArray() : CellArray(Dims(0, 0)) {}
  explicit CellArray(const Dims& dims);  ///< filled with 0x0 double
  CellArray(const CellArray&) = default;
  CellArray(CellArray&&) noexcept = default;
  CellArray& operator=(const CellArray&) = default;
  CellArray& operator=(CellArray&&) noexcept = default;
  ~CellArray() { release_payload(std::move(elems_)); }
  const Dims& dims() const { return dims_; }
  int64_t numel() const { return dims_.numel(); }
  const Value& operator[](int64_t i) const;
  /// Mutable element access (clones shared payload first).
  Value& at(int64_t i);
  const std::vector<Value>& elems() const { return *elems_; }
  std::vector<Value>& mutable_elems();
  /// Same elements, new dims (numel must match).
  CellArray reshaped(const Dims& d) const;
  /// Resizes to dims keeping elements at the same linear index (new elements are []).
  /// Amortised O(1) per appended element (std::vector growth); used by indexed growth.
  void resize(const Dims& d);  // value.cc (Value is incomplete here)

private:
  Dims dims_;
  std::shared_ptr<std::vector<Value>> elems_;
};

/// Struct array: every element has the same ordered field names. Copy-on-write.
/// values layout: element-major, values[elem * nfields + field].
class StructArray {
public:
  StructArray() : StructArray(Dims(1, 1)) {}
  explicit StructArray(const Dims& dims);
  StructArray(const StructArray&) = default;
  StructArray(StructArray&&) noexcept = default;
  StructArray& operator=(const StructArray&) = default;
  StructArray& operator=(StructArray&&) noexcept = default;
  ~StructArray() { release_payload(std::move(data_)); }
  const Dims& dims() const { return dims_; }
  int64_t numel() const { return dims_.numel(); }
  const std::vector<std::string>& fields() const { return data_->fields; }
  /// Field index or -1.
  int field_index(std::string_view name) const;
  /// Adds a field (filled with [] in every element) if absent; returns its index.
  int add_field(std::string_view name);
  /// Removes a field; MF_ASSERT that it exists.
  void remove_field(std::string_view name);
  const Value& get(int64_t elem, int field) const;
  Value& at(int64_t elem, int field);  ///< mutable (clones shared payload first)
  /// Resizes to dims, keeping elements at the same linear index; new elements get [] fields.
  void resize(const Dims& d);
  StructArray reshaped(const Dims& d) const;
  void set_field_order(std::vector<std::string> order);  ///< permutation of fields()

private:
  struct Data {
    std::vector<std::string> fields;
    std::vector<Value> values;
  };
  Data& mutable_data();
  Dims dims_;
  std::shared_ptr<Data> data_;
};

/// String array ("string" class). Copy-on-write.
class StringArray {
public:
  StringArray() : StringArray(Dims(1, 1)) {}
  explicit StringArray(const Dims& dims);  ///< filled with ""
  static StringArray scalar(std::string s);
  const Dims& dims() const { return dims_; }
  int64_t numel() const { return dims_.numel(); }
  const std::optional<std::string>& operator[](int64_t i) const { return (*elems_)[i]; }
  std::optional<std::string>& at(int64_t i);
  const std::vector<std::optional<std::string>>& elems() const { return *elems_; }
  StringArray reshaped(const Dims& d) const;
  /// Resizes to dims keeping elements at the same linear index (new elements are
  /// <missing>). Amortised O(1) per appended element; used by indexed growth.
  void resize(const Dims& d) {
    if (elems_.use_count() > 1)
      elems_ = std::make_shared<std::vector<std::optional<std::string>>>(*elems_);
    elems_->resize(static_cast<size_t>(d.numel()), std::nullopt);
    dims_ = d;
    dims_.normalize();
  }

private:
  Dims dims_;
  std::shared_ptr<std::vector<std::optional<std::string>>> elems_;
};

/// A callable: named function handle or anonymous function. Implemented by the interpreter.
class FunctionObject {
public:
  virtual ~FunctionObject() = default;
  /// Text MATLAB displays: "@sin", "@(x)x.^2+a".
  virtual std::string display() const = 0;
  /// Function name for named handles; empty for anonymous functions.
  virtual std::string name() const = 0;
};

/// A handle object implemented in C++ (reference semantics).
class Object {
public:
  virtual ~Object() = default;
  virtual std::string class_name() const = 0;
  virtual Dims dims() const { return Dims::scalar(); }
  /// MATLAB isa(obj, name): the class itself or one of its superclasses.
  virtual bool isa(std::string_view name) const { return name == class_name(); }
  /// The name C++ methods are registered under (builtins/methods.h); class_name() unless a
  /// class shares its MATLAB class name with another kind (a sparse double is "sparse").
  virtual std::string dispatch_name() const { return class_name(); }
  /// The truth of the object in an if/while condition or && / ||: false when it has none
  /// (the condition then raises MATLAB's conversion error).
  virtual bool truth(bool& out) const {
    (void)out;
    return false;
  }
};

class Value {
public:
  enum class Kind : uint8_t { Scalar, Array, Cell, Struct, String, Function, Object };

  Value() : v_(Tensor()) {}                  ///< [] (0x0 double)
  Value(double d) : v_(d) {}                 // NOLINT: implicit from double is intended
  Value(Tensor t);                           // NOLINT: normalises 1x1 real double to Scalar
  Value(CellArray c) : v_(std::move(c)) {}   // NOLINT
  Value(StructArray s) : v_(std::move(s)) {} // NOLINT
  Value(StringArray s) : v_(std::move(s)) {} // NOLINT
  Value(std::shared_ptr<const FunctionObject> f) : v_(std::move(f)) {}  // NOLINT
  Value(std::shared_ptr<Object> o) : v_(std::move(o)) {}                // NOLINT

  /// char row from UTF-8 text ('abc').
  static Value from_chars(std::string_view utf8);
  /// 1x1 string ("abc").
  static Value from_string(std::string s);
  static Value logical(bool b);

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool is_scalar_double() const { return kind() == Kind::Scalar; }
  /// Numeric, logical or char (Scalar or Array kinds).
  bool is_tensor() const { return kind() <= Kind::Array; }
  bool is_cell() const { return kind() == Kind::Cell; }
  bool is_struct() const { return kind() == Kind::Struct; }
  bool is_string() const { return kind() == Kind::String; }
  bool is_function() const { return kind() == Kind::Function; }
  bool is_object() const { return kind() == Kind::Object; }
  bool is_char() const;
  bool is_logical() const;
  bool is_numeric() const;  ///< numeric class (not logical/char), MATLAB isnumeric
  /// A tensor flagged as a MATLAB gpuArray (Tensor::gpu_array; never true for Scalar kind,
  /// since Value(Tensor) keeps flagged 1x1 doubles as Array).
  bool is_gpu_array() const {
    const Tensor* t = std::get_if<Tensor>(&v_);
    return t && t->gpu_array();
  }

  double scalar() const { return std::get<double>(v_); }  ///< requires Kind::Scalar
  /// Makes this value the Scalar d; cheap when it already is a Scalar (interpreter hot path).
  void set_scalar(double d) {
    if (double* p = std::get_if<double>(&v_)) *p = d;
    else v_ = d;
  }
  /// The value as a Tensor (materialises Scalar). Throws MATLAB-style error for other kinds.
  Tensor tensor() const;
  /// The held Tensor of an Array-kind value without copying it (null for other kinds).
  const Tensor* array_tensor() const { return std::get_if<Tensor>(&v_); }
  const CellArray& cell() const { return std::get<CellArray>(v_); }
  CellArray& cell() { return std::get<CellArray>(v_); }
  const StructArray& struct_array() const { return std::get<StructArray>(v_); }
  StructArray& struct_array() { return std::get<StructArray>(v_); }
  const StringArray& string_array() const { return std::get<StringArray>(v_); }
  StringArray& string_array() { return std::get<StringArray>(v_); }
  const std::shared_ptr<const FunctionObject>& function() const {
    return std::get<std::shared_ptr<const FunctionObject>>(v_);
  }
  const std::shared_ptr<Object>& object() const { return std::get<std::shared_ptr<Object>>(v_); }

  /// MATLAB class name: "double", "int8", "logical", "char", "cell", "struct", "string",
  /// "function_handle", or the object's class.
  std::string class_name() const;
  /// ClassId for Scalar/Array kinds.
  ClassId cls() const;
  Dims dims() const;
  int64_t numel() const { return dims().numel(); }
  bool is_empty() const { return numel() == 0; }

  /// Convenience conversions used by builtins; each raises a MATLAB-style error naming `what`
  /// (e.g. the argument's role) when the value does not fit.
  /// Real numeric/logical/char scalar as double.
  double to_double(const char* what = "argument") const;
  /// Nonnegative integer-valued scalar (sizes, dims, counts).
  int64_t to_index(const char* what = "argument") const;
  /// Char row vector or scalar string as UTF-8.
  std::string to_text(const char* what = "argument") const;
  bool is_text() const;  ///< char row (or empty char) or 1x1 string
  /// Truth value of an if/while condition: all elements nonzero and not empty
  /// (MATLAB:nonLogicalConditional style errors for non-numeric kinds).
  bool truthy() const;

private:
  std::variant<double, Tensor, CellArray, StructArray, StringArray,
               std::shared_ptr<const FunctionObject>, std::shared_ptr<Object>>
      v_;
};

}  // namespace matfuse
