// ValueObject: an object implemented in C++ with value semantics that is an array in its own
// right (a table, and objects of the same kind: a datetime or duration array). Beyond
// IndexableObject's hooks it defines indexed assignment on a copy, brace indexing,
// concatenation and the row texts a table shows for it. The interpreter's indexing code
// (index_brace, assign_paren, assign_brace, delete_elements) and cat_dim ask objects of this
// type first.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "runtime/object_index.h"

namespace matfuse {

class ValueObject : public IndexableObject {
public:
  /// The handle form is not used by value objects.
  bool paren_assign(std::span<const Value>, const Value&) override { return false; }
  /// obj(idx...) = rhs; obj(idx...) = [] passes rhs = [] (0x0 double). self is the Value
  /// holding this object: a shared object is replaced in self by a modified copy.
  virtual bool paren_assign(std::span<const Value> idx, const Value& rhs, Value& self) = 0;
  /// obj{idx...}: the selected contents as a comma-separated list. False: not defined.
  virtual bool brace_read(std::span<const Value> idx, std::vector<Value>& out) const {
    (void)idx, (void)out;
    return false;
  }
  /// obj{idx...} = rhs (self as in paren_assign). False: not defined.
  virtual bool brace_assign(std::span<const Value> idx, const Value& rhs, Value& self) {
    (void)idx, (void)rhs, (void)self;
    return false;
  }
  /// cat(dim, parts...) where this is the first object among parts ([a; b], [a, b], vertcat,
  /// horzcat, cat). False: not defined.
  virtual bool concat(int dim, std::span<const Value> parts, Value& out) const {
    (void)dim, (void)parts, (void)out;
    return false;
  }
  /// One display text per row (first dimension), as a table shows the object in a variable
  /// (e.g. "28-Nov-2026 00:50:00" for a datetime column). False: the table shows its size and
  /// class.
  virtual bool row_texts(std::vector<std::string>& rows) const {
    (void)rows;
    return false;
  }
};

/// The object of v as a ValueObject, or null.
inline ValueObject* as_value_object(const Value& v) {
  return v.is_object() ? dynamic_cast<ValueObject*>(v.object().get()) : nullptr;
}

}  // namespace matfuse
