// Graphics objects with MATLAB's handle object model.
//
// The object tree is MATLAB's: the root (groot, handle 0) holds figures; a figure holds axes,
// legends, colorbars and tiled layouts; an axes holds graphics primitives and charts (Line,
// Scatter, Bar, Histogram, Stair, Stem, ErrorBar, Area, Patch, Contour, Image, Surface, Quiver,
// Text) and its Title/XLabel/YLabel/ZLabel texts. Every object is a GNode: a type name (MATLAB's
// `Type` property: "figure", "axes", "line", ...), an ordered property list and its children.
//
// Properties are MATLAB values. Names match case-insensitively and by unambiguous prefix, as in
// MATLAB. Setting a property converts its value to the stored form (colours: 1x3 double in
// [0, 1] or the char row 'none'/'flat'/'interp'/'auto'; switches: 'on'/'off'; sizes and limits:
// double) and raises MATLAB's errors:
//   MATLAB:hg:InvalidProperty  Unrecognized property 'X' for class 'Line'.
//   MATLAB:hg:ColorSpec_None   Invalid color name or hexadecimal color code.
//   MATLAB:hg:set_chck:...     (a value of the wrong kind) "Value must be ..."
// Setting XLim/YLim/ZLim/CLim/XTick/... also sets its ...Mode to 'manual', as MATLAB does.
//
// A handle Value (Value::Kind::Object) is a GHandle: an array (usually 1x1) of GNode pointers
// with reference semantics; h.Prop, h.Prop = v, get/set and h(i) work on it.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/object_index.h"
#include "runtime/value.h"

namespace matfuse::gfx {

class GNode;
using GPtr = std::shared_ptr<GNode>;

/// RGB colour, components in [0, 1].
using Rgb = std::array<double, 3>;

struct Prop {
  std::string name;  ///< canonical (MATLAB) spelling
  Value value;
};

class GNode : public std::enable_shared_from_this<GNode> {
 public:
  explicit GNode(std::string type) : type_(std::move(type)) {}
  const std::string& type() const { return type_; }
  /// MATLAB's class name ("matlab.graphics.chart.primitive.Line", ...).
  std::string class_name() const;
  /// Short class name used in messages and display ("Line", "Axes", ...).
  std::string short_class() const;

  /// Property by exact canonical name (fast path for the renderer); MF_ASSERT it exists.
  const Value& prop(std::string_view name) const;
  /// Property index by MATLAB name matching (case-insensitive, unambiguous prefix); -1 if none.
  int find_prop(std::string_view name) const;
  const std::vector<Prop>& props() const { return props_; }
  /// Defines or replaces a property without conversion (object construction).
  void define(std::string name, Value v);
  /// Replaces the stored value of an existing property by canonical name, no conversion.
  void put(std::string_view name, Value v);

  // Typed readers of stored properties (renderer helpers).
  double num(std::string_view name) const;
  std::string text(std::string_view name) const;  ///< char row, or first line of a cellstr
  bool on(std::string_view name) const { return text(name) == "on"; }
  /// Colour property: false when 'none' (or another keyword, returned in kw when given).
  bool color(std::string_view name, Rgb& out, std::string* kw = nullptr) const;
  /// Numeric property, column-major; empty when the object has no such property.
  std::vector<double> vec(std::string_view name) const;

  GPtr parent() const { return parent_.lock(); }
  void set_parent(const GPtr& p) { parent_ = p; }
  std::vector<GPtr>& children() { return children_; }
  const std::vector<GPtr>& children() const { return children_; }
  bool deleted = false;

  /// Nearest ancestor (or self) of the given type; null when none.
  GPtr ancestor(std::string_view type);

 private:
  std::string type_;
  std::vector<Prop> props_;
  std::weak_ptr<GNode> parent_;
  std::vector<GPtr> children_;  ///< drawing order (oldest first)
};

/// A graphics handle value: an array of objects (usually 1x1).
class GHandle : public IndexableObject {
 public:
  GHandle(std::vector<GPtr> nodes, Dims dims) : nodes_(std::move(nodes)), dims_(dims) {}
  std::string class_name() const override;
  Dims dims() const override { return dims_; }
  const std::vector<GPtr>& nodes() const { return nodes_; }

  bool paren_read(std::span<const Value> idx, Value& out) const override;
  bool paren_assign(std::span<const Value> idx, const Value& rhs) override;
  bool get_property(std::string_view name, Value& out) const override;
  bool set_property(std::string_view name, const Value& rhs) override;
  bool display_lines(std::vector<std::string>& lines) const override;

 private:
  std::vector<GPtr> nodes_;
  Dims dims_;
};

/// 1x1 handle value of n.
Value handle_value(const GPtr& n);
/// Column handle array (MATLAB returns plot's lines as an N-by-1 array).
Value handle_column(const std::vector<GPtr>& ns);
/// The objects a value names: a handle array, a figure number (n or the root 0). Throws
/// MATLAB:hg:InvalidHandle "Invalid or deleted object." otherwise.
std::vector<GPtr> nodes_of(const Value& v);
/// True when v is a graphics handle value (or a figure number / 0) naming live objects.
bool is_handle_value(const Value& v);

/// Creates an object of `type` with its default properties (MATLAB's factory defaults, then
/// the Default<Type><Prop> values set on the root or on `parent`'s figure) under parent.
GPtr create(const std::string& type, const GPtr& parent);
/// get(h, name): the value, computing automatic values (XLim in 'auto' mode, ...).
Value get_prop(const GPtr& n, std::string_view name);
/// set(h, name, v) with MATLAB's name matching, conversions and errors.
void set_prop(const GPtr& n, std::string_view name, const Value& v);
/// Applies name-value pairs args[first], args[first+1], ... (name matching as set_prop).
void set_pairs(const GPtr& n, std::span<const Value> args, size_t first);
/// All properties as a struct (get(h)).
Value get_all(const GPtr& n);
/// Removes n from its parent (delete(h), close): marks it and its subtree deleted.
void destroy(const GPtr& n);

// Colour and line specification parsing (shared with the plot builtins).

/// Colour from a MATLAB colour value: 'r', 'red', '#FF8000', '#F80', [r g b] in [0, 1],
/// "red". Throws MATLAB:hg:ColorSpec_None for anything else.
Rgb parse_color(const Value& v);
/// Stored form of a colour property value: 1x3 double, or one of the allowed keywords.
Value color_value(const Value& v, std::initializer_list<const char*> keywords);
Value rgb_value(const Rgb& c);

/// A parsed line specification ('r--o'): empty fields were not given.
struct LineSpec {
  std::string line_style;  ///< "-", "--", ":", "-." or "none"
  std::string marker;      ///< "o", "+", "*", ".", "x", "s", "d", "^", "v", ">", "<", "p", "h"
  bool has_color = false;
  Rgb color{0, 0, 0};
};
/// Parses text as a line spec; false when it is not one (then it is e.g. a property name).
bool parse_linespec(std::string_view s, LineSpec& out);

/// Lower-case ASCII.
std::string lower_ascii(std::string_view s);

/// MATLAB's default axes ColorOrder (R2014b+), 7 colours.
const std::vector<Rgb>& default_color_order();

}  // namespace matfuse::gfx
