#include "runtime/dtype.h"

#include "runtime/error.h"

namespace matfuse {

namespace {
constexpr std::string_view kNames[kNumClassIds] = {"double", "single", "logical", "char",
                                                   "int8",   "uint8",  "int16",   "uint16",
                                                   "int32",  "uint32", "int64",   "uint64"};
constexpr int kSizes[kNumClassIds] = {8, 4, 1, 2, 1, 1, 2, 2, 4, 4, 8, 8};
}  // namespace

std::string_view class_name(ClassId c) { return kNames[static_cast<int>(c)]; }

std::optional<ClassId> class_from_name(std::string_view name) {
  for (int i = 0; i < kNumClassIds; ++i)
    if (kNames[i] == name) return static_cast<ClassId>(i);
  return std::nullopt;
}

int element_size(ClassId c) { return kSizes[static_cast<int>(c)]; }

double int_class_min(ClassId c) {
  return dispatch_class(c, [](auto t) -> double {
    using T = decltype(t);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return static_cast<double>(std::numeric_limits<T>::min());
    return 0.0;
  });
}

double int_class_max(ClassId c) {
  return dispatch_class(c, [](auto t) -> double {
    using T = decltype(t);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return static_cast<double>(std::numeric_limits<T>::max());
    return 0.0;
  });
}

ClassId class_of_binary(ClassId a, ClassId b) {
  bool ia = is_integer_class(a), ib = is_integer_class(b);
  if (ia && ib) {
    if (a != b)
      throw_error("MATLAB:mixedIntegerTypes",
                  "Integers can only be combined with integers of the same class, or scalar doubles.");
    return a;
  }
  if (ia) return a;
  if (ib) return b;
  if (a == ClassId::Single || b == ClassId::Single) return ClassId::Single;
  return ClassId::Double;
}

}  // namespace matfuse
