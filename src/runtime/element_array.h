// ElementArrayObject: arrays of value classes implemented in C++ (datetime, duration,
// calendarDuration) that the interpreter subscripts, concatenates and displays like numeric
// arrays (see the class comment).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "runtime/object_index.h"

namespace matfuse {

/// An array of a value class implemented in C++ (datetime, duration, calendarDuration): a
/// Dims-shaped array with value semantics whose elements are subscripted as a numeric array's.
/// The interpreter subscripts a double array of element numbers (1..numel, shaped like the
/// object), so every subscript form, 'end', growth, deletion and their errors behave exactly as
/// for numbers, and the object gathers its elements by those numbers (gather). Concatenation
/// and display go through the hooks below.
class ElementArrayObject : public IndexableObject {
public:
  bool paren_read(std::span<const Value>, Value&) const override { return false; }
  bool paren_assign(std::span<const Value>, const Value&) override { return false; }
  /// A new array of this class shaped like pos (a double array): element k is element
  /// pos[k]-1 of this when pos[k] > 0, element -pos[k]-1 of src when pos[k] < 0 (src is of
  /// this class), and the class's fill value (NaT, 0) when pos[k] == 0 (growth).
  virtual Value gather(const Tensor& pos, const ElementArrayObject* src) const = 0;
  /// rhs as an array of this class for x(i) = rhs (datetime parses text, ...); throws a
  /// MATLAB-style error when rhs cannot be converted.
  virtual Value convert(const Value& rhs) const = 0;
  /// cat(dim, parts{:}) where this is the first part of this class; other parts are
  /// converted (convert) and empty double parts are skipped.
  virtual Value concat(int dim, std::span<const Value> parts) const = 0;
  /// The display text of every element, column-major (MATLAB's array display pads them to one
  /// width, each after three spaces).
  virtual std::vector<std::string> element_texts() const = 0;
  /// Whether the display right-aligns the texts (durations, like numbers) rather than
  /// left-aligning them (datetimes).
  virtual bool right_aligned() const { return false; }
};

/// The object of v as an ElementArrayObject, or null.
inline ElementArrayObject* as_element_array(const Value& v) {
  return v.is_object() ? dynamic_cast<ElementArrayObject*>(v.object().get()) : nullptr;
}

/// 1..numel as a double array of dims d: the element numbers an ElementArrayObject is
/// subscripted through.
inline Tensor element_numbers(const Dims& d) {
  Tensor t = Tensor::uninit(ClassId::Double, d);
  double* p = t.mutable_data<double>();
  for (int64_t i = 0; i < d.numel(); ++i) p[i] = static_cast<double>(i + 1);
  return t;
}

}  // namespace matfuse
