// IndexableObject: a handle object (Value::Kind::Object) that defines its own '()' indexing,
// indexed assignment and properties (containers.Map, ...). The interpreter's indexing code
// (index_paren, assign_paren, delete_elements, get_field) asks objects of this type first and
// falls back to the default 1x1-handle rules when a hook returns false.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/value.h"

namespace matfuse {

class IndexableObject : public Object {
public:
  /// obj(idx...) read (MATLAB subsref with '()'). False when not defined for these arguments.
  virtual bool paren_read(std::span<const Value> idx, Value& out) const = 0;
  /// obj(idx...) = rhs on the handle itself (reference semantics); obj(idx...) = [] passes
  /// rhs = [] (0x0 double). False when not defined.
  virtual bool paren_assign(std::span<const Value> idx, const Value& rhs) = 0;
  /// obj.name property read. False when the object has no such property.
  virtual bool get_property(std::string_view name, Value& out) const = 0;
  /// Names of the public properties, in display order ("CLASS with properties:"); empty for
  /// objects that display as "CLASS object".
  virtual std::vector<std::string> property_names() const { return {}; }
  /// obj.name = rhs on a handle object itself (reference semantics). False when the object has
  /// no settable property of that name (the interpreter then raises its dot-assignment error).
  virtual bool set_property(std::string_view name, const Value& rhs) {
    (void)name, (void)rhs;
    return false;
  }
  /// obj.name = rhs. self is the Value holding this object: a value object that is shared
  /// replaces self with a modified copy. The default is the handle form above.
  virtual bool set_property(std::string_view name, const Value& rhs, Value& self) {
    (void)self;
    return set_property(name, rhs);
  }
  /// The lines `x = obj` displays after "x = " and a blank line (MATLAB's object display,
  /// e.g. "  Line with properties:" and the property list); blank lines as empty strings.
  /// False: the generic display.
  virtual bool display_lines(std::vector<std::string>& lines) const {
    (void)lines;
    return false;
  }
};

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

/// The object of v as an IndexableObject, or null.
inline IndexableObject* as_indexable(const Value& v) {
  return v.is_object() ? dynamic_cast<IndexableObject*>(v.object().get()) : nullptr;
}

}  // namespace matfuse
