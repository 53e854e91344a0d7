// MATLAB's `missing` value: a 1x1 object of class "missing" that becomes the standard missing
// value of whatever it is assigned into or concatenated with (NaN for double and single,
// <missing> for string). Created by the builtin `missing`; converted by indexed assignment
// (indexing_assign.cc) and concatenation (concat.cc).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/object_index.h"

namespace matfuse {

class MissingObject final : public IndexableObject {
public:
  std::string class_name() const override { return "missing"; }
  /// m(1), m(1,1), m(:): the value itself.
  bool paren_read(std::span<const Value> idx, Value& out) const override {
    for (const Value& i : idx) {
      if (i.is_char() && i.to_text() == ":") continue;
      if (!(i.is_tensor() && i.numel() == 1 && i.tensor().get_double(0) == 1)) return false;
    }
    out = Value(std::make_shared<MissingObject>());
    return true;
  }
  bool paren_assign(std::span<const Value>, const Value&) override { return false; }
  bool get_property(std::string_view, Value&) const override { return false; }
  bool display_lines(std::vector<std::string>& lines) const override {
    lines = {"  missing", "", "    <missing>", ""};
    return true;
  }
};

inline Value make_missing() { return Value(std::make_shared<MissingObject>()); }
inline bool is_missing_value(const Value& v) {
  return v.is_object() && dynamic_cast<const MissingObject*>(v.object().get()) != nullptr;
}

}  // namespace matfuse
