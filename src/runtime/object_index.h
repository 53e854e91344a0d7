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

/// The object of v as an IndexableObject, or null.
inline IndexableObject* as_indexable(const Value& v) {
  return v.is_object() ? dynamic_cast<IndexableObject*>(v.object().get()) : nullptr;
}

}  // namespace matfuse
