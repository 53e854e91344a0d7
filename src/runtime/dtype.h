// MATLAB classes of array elements and their static properties.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <optional>
#include <string_view>

namespace matfuse {

/// Element class of a numeric/char/logical array (MATLAB `class`). Order matters only for
/// iteration; combination rules live in class_of_binary().
enum class ClassId : uint8_t {
  Double,
  Single,
  Logical,
  Char,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
};

constexpr int kNumClassIds = 12;

/// MATLAB's name: "double", "single", "logical", "char", "int8", ... "uint64".
std::string_view class_name(ClassId c);
/// Inverse of class_name; nullopt for anything else (including "cell", "struct", ...).
std::optional<ClassId> class_from_name(std::string_view name);

/// Size in bytes of one (real) element.
int element_size(ClassId c);
inline bool is_integer_class(ClassId c) { return c >= ClassId::Int8; }
inline bool is_float_class(ClassId c) { return c == ClassId::Double || c == ClassId::Single; }
inline bool is_signed_integer(ClassId c) {
  return c == ClassId::Int8 || c == ClassId::Int16 || c == ClassId::Int32 || c == ClassId::Int64;
}
/// Range of an integer class as doubles (for saturation). Undefined for non-integer classes.
double int_class_min(ClassId c);
double int_class_max(ClassId c);

/// Result class of a binary arithmetic operation between classes a and b (MATLAB rules):
/// integer op integer requires the same class (else `MATLAB:mixedIntegerTypes` is raised);
/// integer op double/single/logical/char -> integer; single op (double|logical|char) -> single;
/// otherwise double.
ClassId class_of_binary(ClassId a, ClassId b);

/// Calls f with a value of the C++ element type of class c (double, float, bool for logical,
/// char16_t for char, int8_t ... uint64_t). Usage:
///   dispatch_class(c, [&](auto tag) { using T = decltype(tag); ... });
template <class F>
decltype(auto) dispatch_class(ClassId c, F&& f) {
  switch (c) {
    case ClassId::Double: return f(double{});
    case ClassId::Single: return f(float{});
    case ClassId::Logical: return f(bool{});
    case ClassId::Char: return f(char16_t{});
    case ClassId::Int8: return f(int8_t{});
    case ClassId::UInt8: return f(uint8_t{});
    case ClassId::Int16: return f(int16_t{});
    case ClassId::UInt16: return f(uint16_t{});
    case ClassId::Int32: return f(int32_t{});
    case ClassId::UInt32: return f(uint32_t{});
    case ClassId::Int64: return f(int64_t{});
    case ClassId::UInt64: return f(uint64_t{});
  }
  return f(double{});
}

template <class T> struct class_of_type;
template <> struct class_of_type<double> { static constexpr ClassId value = ClassId::Double; };
template <> struct class_of_type<float> { static constexpr ClassId value = ClassId::Single; };
template <> struct class_of_type<bool> { static constexpr ClassId value = ClassId::Logical; };
template <> struct class_of_type<char16_t> { static constexpr ClassId value = ClassId::Char; };
template <> struct class_of_type<int8_t> { static constexpr ClassId value = ClassId::Int8; };
template <> struct class_of_type<uint8_t> { static constexpr ClassId value = ClassId::UInt8; };
template <> struct class_of_type<int16_t> { static constexpr ClassId value = ClassId::Int16; };
template <> struct class_of_type<uint16_t> { static constexpr ClassId value = ClassId::UInt16; };
template <> struct class_of_type<int32_t> { static constexpr ClassId value = ClassId::Int32; };
template <> struct class_of_type<uint32_t> { static constexpr ClassId value = ClassId::UInt32; };
template <> struct class_of_type<int64_t> { static constexpr ClassId value = ClassId::Int64; };
template <> struct class_of_type<uint64_t> { static constexpr ClassId value = ClassId::UInt64; };

/// Converts a double to integer class T with MATLAB semantics: round half away from zero,
/// saturate at the class range, NaN -> 0.
template <class T>
T saturate_cast(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_same_v<T, char16_t>) {
    if (v != v) return 0;
    double r = std::round(v);
    return r <= 0 ? 0 : r >= 65535.0 ? 65535 : static_cast<char16_t>(r);
  } else {
    if (v != v) return 0;
    double r = std::round(v);  // half away from zero
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
    if (r <= lo) return std::numeric_limits<T>::min();
    if (r >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}

}  // namespace matfuse
