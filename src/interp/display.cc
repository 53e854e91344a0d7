// MATLAB display of values: `x = ...` for unsuppressed statements and disp().
//
// Layout follows the MATLAB R2023 command window in format loose (blank line after the name line
// and after the value); format compact drops every blank line. Names are followed by " =" for
// numeric, logical, char, cell and function handle values and by " = " (trailing space) for
// structs, strings and objects, as the command window prints them.
#include "interp/display.h"
#include "runtime/object_index.h"

#include <algorithm>
#include <cstring>

#include "builtins/table.h"
#include "interp/display_internal.h"
#include "interp/display_table.h"
#include "accel/capture/lazy.h"
#include "runtime/element_array.h"
#include "runtime/sparse.h"
#include "runtime/object_index.h"

namespace matfuse {

using namespace display_detail;

namespace {

struct Printer {
  std::string out;
  bool loose = true;
  void line(const std::string& s) { out += s; out += '\n'; }
  void blank() { if (loose) out += '\n'; }
};

/// Number of display columns of UTF-8 text (code points).
size_t text_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string pad_right(const std::string& s, size_t w) {
  size_t n = text_width(s);
  return n >= w ? s : s + std::string(w - n, ' ');
}

std::string pad_left(const std::string& s, size_t w) {
  size_t n = text_width(s);
  return n >= w ? s : std::string(w - n, ' ') + s;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// Rows of a 2-D char array (or one page at `offset` elements) as UTF-8 strings.
std::vector<std::string> char_rows(const Tensor& t, int64_t rows, int64_t cols,
                                   int64_t offset = 0) {
  std::vector<std::string> out(rows);
  const char16_t* d = t.data<char16_t>() + offset;
  for (int64_t r = 0; r < rows; ++r) {
    std::string& s = out[r];
    for (int64_t c = 0; c < cols; ++c) {
      uint32_t u = d[c * rows + r];
      if (u >= 0xD800 && u < 0xDC00 && c + 1 < cols) {
        uint32_t lo = d[(c + 1) * rows + r];
        if (lo >= 0xDC00 && lo < 0xE000) {
          u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
          ++c;
        }
      }
      append_utf8(s, u);
    }
  }
  return out;
}

std::string tensor_class(const Tensor& t) { return std::string(class_name(t.cls())); }

/// "0×3 empty double matrix", "1×0 empty char array", ...
std::string empty_text(const Value& v) {
  const Dims d = v.dims();
  std::string cls = v.class_name();
  std::string shape = "array";
  if (v.is_tensor() && v.is_numeric()) {
    if (d.ndims() > 2) shape = "array";
    else if (d.rows() == 1) shape = "row vector";
    else if (d.cols() == 1) shape = "column vector";
    else shape = "matrix";
  }
  return dims_text(d) + " empty " + cls + " " + shape;
}

/// Class line shown above non-double numeric, logical and char arrays; empty when none.
std::string class_header(const Tensor& t) {
  if (t.cls() == ClassId::Double) return "";
  const Dims& d = t.dims();
  const std::string cls = tensor_class(t);
  if (t.cls() == ClassId::Char) {
    if (d.is_row()) return "";
    return "  " + dims_text(d) + " char array";
  }
  if (d.is_scalar()) return "  " + cls;
  if (t.cls() == ClassId::Logical || d.ndims() > 2) return "  " + dims_text(d) + " " + cls + " array";
  if (d.rows() == 1) return "  " + dims_text(d) + " " + cls + " row vector";
  if (d.cols() == 1) return "  " + dims_text(d) + " " + cls + " column vector";
  return "  " + dims_text(d) + " " + cls + " matrix";
}

/// One rows x cols page of t starting at element offset `page * rows * cols`.
Tensor page_of(const Tensor& t, int64_t page) {
  const int64_t rows = t.dims().rows(), cols = t.dims().cols();
  Tensor p = Tensor::uninit(t.cls(), Dims(rows, cols), t.is_complex());
  const size_t bytes = static_cast<size_t>(rows * cols) * t.elem_bytes();
  if (bytes)
    std::memcpy(p.mutable_raw(), static_cast<const char*>(t.raw()) + page * bytes, bytes);
  return p;
}

/// "(:,:,2)", "(:,:,1,3)" for page index `page` of dims d.
std::string page_label(const Dims& d, int64_t page) {
  std::string s = "(:,:";
  for (int k = 2; k < d.ndims(); ++k) {
    s += "," + std::to_string(page % d[k] + 1);
    page /= d[k];
  }
  return s + ")";
}

/// Body of a non-empty 2-D numeric/logical matrix: optional scale line, then the rows.
void numeric_matrix_body(Printer& p, const Tensor& t, const Session& s) {
  FormattedNumeric f = format_numeric(t, s.format);
  if (!f.scale_line.empty()) {
    p.line(f.scale_line);
    p.blank();
  }
  std::vector<int> widths(t.dims().cols(), f.width);
  print_grid(p.out, f.texts, t.dims().rows(), t.dims().cols(), widths, "", p.loose);
}

/// Body of a 2-D char page: quoted rows (display) or raw rows (disp).
void char_matrix_body(Printer& p, const Tensor& t, int64_t offset, bool quoted) {
  for (auto& r : char_rows(t, t.dims().rows(), t.dims().cols(), offset))
    p.line(quoted ? "    '" + r + "'" : r);
}

// ----- inline texts used inside cell and struct displays ----------------------------------

bool small_row(const Dims& d) { return d.is_row() && d.cols() >= 1 && d.cols() <= 20; }

/// Value text after "field: " in a scalar struct display.
std::string field_text(const Value& v, const Session& s) {
  switch (v.kind()) {
    case Value::Kind::Scalar:
    case Value::Kind::Array: {
      Tensor t = v.tensor();
      const Dims& d = t.dims();
      if (t.cls() == ClassId::Char) {
        if (d.is_row() || (d.rows() == 0 && d.cols() == 0))
          return "'" + (t.is_empty() ? std::string() : char_rows(t, d.rows(), d.cols())[0]) + "'";
        return "[" + dims_text(d) + " char]";
      }
      if (t.is_empty()) {
        if (t.cls() == ClassId::Double && d.ndims() == 2 && d.rows() == 0 && d.cols() == 0)
          return "[]";
        return "[" + dims_text(d) + " " + tensor_class(t) + "]";
      }
      if (d.is_scalar()) return scalar_inline_text(t, 0, s.format);
      if (small_row(d)) {
        std::string r = row_inline_text(t, s.format);
        if (r.size() <= 60) return r;
      }
      return "[" + dims_text(d) + " " + tensor_class(t) + "]";
    }
    case Value::Kind::String: {
      const StringArray& sa = v.string_array();
      if (sa.numel() == 1) return sa[0] ? "\"" + *sa[0] + "\"" : "<missing>";
      return "[" + dims_text(sa.dims()) + " string]";
    }
    case Value::Kind::Cell:
      // MATLAB shows a 0x0 cell field as {} (other sizes as {MxN cell}).
      if (v.dims() == Dims(0, 0)) return "{}";
      return "{" + dims_text(v.dims()) + " cell}";
    case Value::Kind::Struct: return "[" + dims_text(v.dims()) + " struct]";
    case Value::Kind::Function: return v.function()->display();
    case Value::Kind::Object:
      if (ElementArrayObject* e = as_element_array(v); e && v.numel() == 1)
        return e->element_texts()[0];  // a scalar datetime field shows its value
      return "[" + dims_text(v.dims()) + " " + v.class_name() + "]";
  }
  return "";
}

/// Inner text of one cell element (between the braces) and whether it is a bracketed number
/// (padded inside the brackets, right-aligned) rather than left-aligned text.
std::pair<std::string, bool> cell_elem_text(const Value& v, const Session& s) {
  switch (v.kind()) {
    case Value::Kind::Scalar:
    case Value::Kind::Array: {
      Tensor t = v.tensor();
      const Dims& d = t.dims();
      if (t.cls() == ClassId::Char) {
        if (d.is_row() && d.cols() >= 1) return {"'" + char_rows(t, 1, d.cols())[0] + "'", false};
        return {dims_text(d) + " char", false};
      }
      if (t.is_empty()) return {dims_text(d) + " " + tensor_class(t), false};
      if (d.is_scalar()) return {"[" + scalar_inline_text(t, 0, s.format) + "]", true};
      if (small_row(d)) {
        std::string r = row_inline_text(t, s.format);
        if (r.size() <= 60) return {r, false};
      }
      return {dims_text(d) + " " + tensor_class(t), false};
    }
    case Value::Kind::String: {
      const StringArray& sa = v.string_array();
      if (sa.numel() == 1) return {sa[0] ? "[\"" + *sa[0] + "\"]" : "[<missing>]", false};
      return {dims_text(sa.dims()) + " string", false};
    }
    case Value::Kind::Cell: return {dims_text(v.dims()) + " cell", false};
    case Value::Kind::Struct: return {dims_text(v.dims()) + " struct", false};
    case Value::Kind::Function: return {v.function()->display(), false};
    case Value::Kind::Object:
      if (ElementArrayObject* e = as_element_array(v); e && v.numel() == 1)
        return {"[" + e->element_texts()[0] + "]", false};  // {[28-Jun-2014]}
      return {dims_text(v.dims()) + " " + v.class_name(), false};
  }
  return {"", false};
}

/// Grid of one 2-D page of a cell array: "    {[1]}    {'abc'}".
void cell_page_body(Printer& p, const CellArray& c, int64_t offset, int64_t rows, int64_t cols,
                    const Session& s) {
  std::vector<std::pair<std::string, bool>> inner(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) inner[i] = cell_elem_text(c[offset + i], s);
  std::vector<std::string> texts(rows * cols);
  std::vector<int> widths(cols);
  for (int64_t col = 0; col < cols; ++col) {
    size_t w = 0;
    for (int64_t r = 0; r < rows; ++r) w = std::max(w, text_width(inner[col * rows + r].first));
    for (int64_t r = 0; r < rows; ++r) {
      auto& [txt, numeric] = inner[col * rows + r];
      std::string body;
      if (numeric && w > text_width(txt))  // "[ 1]": pad the number inside its brackets
        body = "[" + pad_left(txt.substr(1, txt.size() - 2), w - 2) + "]";
      else
        body = pad_right(txt, w);
      texts[col * rows + r] = "    {" + body + "}";
    }
    widths[col] = static_cast<int>(w) + 6;
  }
  print_grid(p.out, texts, rows, cols, widths, "", p.loose);
}

/// Grid of a 2-D page of a string array: "    "a"    "bb"".
void string_page_body(Printer& p, const StringArray& sa, int64_t offset, int64_t rows,
                      int64_t cols) {
  std::vector<std::string> texts(rows * cols);
  std::vector<int> widths(cols);
  for (int64_t col = 0; col < cols; ++col) {
    size_t w = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const auto& e = sa[offset + col * rows + r];
      texts[col * rows + r] = e ? "\"" + *e + "\"" : "<missing>";
      w = std::max(w, text_width(texts[col * rows + r]));
    }
    for (int64_t r = 0; r < rows; ++r)
      texts[col * rows + r] = "    " + pad_right(texts[col * rows + r], w);
    widths[col] = static_cast<int>(w) + 4;
  }
  print_grid(p.out, texts, rows, cols, widths, "", p.loose);
}

/// "      a: 1" lines of a scalar struct, names right-aligned to the longest.
void struct_fields_body(Printer& p, const StructArray& sa, const Session& s) {
  size_t w = 0;
  for (auto& f : sa.fields()) w = std::max(w, f.size());
  for (size_t k = 0; k < sa.fields().size(); ++k)
    p.line("    " + pad_left(sa.fields()[k], w) + ": " +
           field_text(sa.get(0, static_cast<int>(k)), s));
}

void struct_array_header(Printer& p, const StructArray& sa) {
  const std::string dims = dims_text(sa.dims());
  const std::string lead = sa.numel() == 0 ? "  " + dims + " empty struct array" :
                                             "  " + dims + " struct array";
  if (sa.fields().empty()) {
    p.line(lead + " with no fields.");
    return;
  }
  p.line(lead + " with fields:");
  p.blank();
  for (auto& f : sa.fields()) p.line("    " + f);
}

/// Pages of an N-d value: calls body(page_index, offset) after "NAME(:,:,k) =" lines.
template <class Body>
void for_each_page(Printer& p, const Dims& d, const std::string& name, Body body) {
  const int64_t page_elems = d.rows() * d.cols();
  const int64_t pages = page_elems ? d.numel() / page_elems : 0;
  for (int64_t k = 0; k < pages; ++k) {
    if (k > 0) p.blank();  // MATLAB separates pages by two blank lines (format loose)
    p.line(name + page_label(d, k) + " =");
    p.blank();
    body(k, k * page_elems);
    p.blank();
  }
}

/// The body of a sparse matrix as MATLAB prints it: "All zero sparse: 2×3", or one line per
/// stored entry in column order, "   (2,1)       -1": the row number right-aligned and the column
/// number left-aligned at the widths of the largest subscripts, then the value as the same
/// values in a full column would print (one common scale factor line above when needed).
void sparse_body(Printer& p, const SparseMatrix& sm, const Session& s) {
  if (sm.nnz() == 0) {
    p.line("   All zero sparse: " + dims_text(sm.dims()));
    return;
  }
  Tensor vals = sm.vals();
  if (vals.cls() == ClassId::Logical) vals = vals.to_class(ClassId::Double);
  const FormattedNumeric f = format_numeric(vals, s.format);
  if (!f.scale_line.empty()) {
    p.line(f.scale_line);
    p.blank();
  }
  const size_t rw = std::to_string(sm.rows()).size(), cw = std::to_string(sm.cols()).size();
  for (int64_t c = 0; c < sm.cols(); ++c)
    for (int64_t k = sm.jc()[c]; k < sm.jc()[c + 1]; ++k)
      p.line(pad_left("(" + std::to_string(sm.ir()[k] + 1), rw + 4) + "," +
             pad_right(std::to_string(c + 1) + ")", cw + 1) + "   " + f.texts[k]);
}

void display_tensor(Printer& p, const Value& v, const std::string& name, const Session& s) {
  Tensor t = v.tensor();
  const Dims& d = t.dims();
  if (t.is_empty()) {
    p.line(name + " =");
    p.blank();
    if (t.cls() == ClassId::Double && d.ndims() == 2 && d.rows() == 0 && d.cols() == 0)
      p.line("     []");
    else
      p.line("  " + empty_text(v));
    p.blank();
    return;
  }
  const bool is_char = t.cls() == ClassId::Char;
  if (d.ndims() > 2) {
    std::string header = class_header(t);
    if (!header.empty()) {
      p.line(name + " =");
      p.blank();
      p.line(header);
      p.blank();
    }
    for_each_page(p, d, name, [&](int64_t k, int64_t off) {
      if (is_char) char_matrix_body(p, t, off, true);
      else numeric_matrix_body(p, page_of(t, k), s);
    });
    return;
  }
  p.line(name + " =");
  p.blank();
  std::string header = class_header(t);
  if (!header.empty()) {
    p.line(header);
    p.blank();
  }
  if (is_char) char_matrix_body(p, t, 0, true);
  else numeric_matrix_body(p, t, s);
  p.blank();
}

void disp_tensor(Printer& p, const Tensor& t, const Session& s) {
  if (t.is_empty()) return;
  const Dims& d = t.dims();
  const bool is_char = t.cls() == ClassId::Char;
  if (d.ndims() > 2) {
    for_each_page(p, d, "", [&](int64_t k, int64_t off) {
      if (is_char) char_matrix_body(p, t, off, false);
      else numeric_matrix_body(p, page_of(t, k), s);
    });
    return;
  }
  if (is_char) char_matrix_body(p, t, 0, false);
  else numeric_matrix_body(p, t, s);
}

void display_cell(Printer& p, const CellArray& c, const std::string& name, const Session& s) {
  const Dims& d = c.dims();
  p.line(name + " =");
  p.blank();
  if (c.numel() == 0) {
    p.line("  " + dims_text(d) + " empty cell array");
    p.blank();
    return;
  }
  p.line("  " + dims_text(d) + " cell array");
  p.blank();
  if (d.ndims() > 2) {
    for_each_page(p, d, name, [&](int64_t, int64_t off) {
      cell_page_body(p, c, off, d.rows(), d.cols(), s);
    });
    return;
  }
  cell_page_body(p, c, 0, d.rows(), d.cols(), s);
  p.blank();
}

void display_string(Printer& p, const StringArray& sa, const std::string& name) {
  const Dims& d = sa.dims();
  p.line(name + " = ");
  p.blank();
  if (sa.numel() == 0) {
    p.line("  " + dims_text(d) + " empty string array");
    p.blank();
    return;
  }
  if (sa.numel() > 1) {
    p.line("  " + dims_text(d) + " string array");
    p.blank();
  }
  if (d.ndims() > 2) {
    for_each_page(p, d, name, [&](int64_t, int64_t off) {
      string_page_body(p, sa, off, d.rows(), d.cols());
    });
    return;
  }
  string_page_body(p, sa, 0, d.rows(), d.cols());
  p.blank();
}

/// The elements of a datetime/duration/calendarDuration array (ElementArrayObject), each
/// after three spaces, padded to the widest, wrapped into column groups as numbers are;
/// N-D arrays page by page ("name(:,:,k) =" headers).
void element_array_body(Printer& p, const ElementArrayObject& e, const Dims& d,
                        const std::string& name, bool pages_named) {
  const std::vector<std::string> texts = e.element_texts();
  size_t w = 0;
  for (const auto& t : texts) w = std::max(w, text_width(t));
  auto page = [&](int64_t off) {
    const int64_t rows = d.rows(), cols = d.cols();
    std::vector<std::string> cells(static_cast<size_t>(rows * cols));
    for (int64_t i = 0; i < rows * cols; ++i) cells[i] = "   " + (e.right_aligned() ? pad_left(texts[off + i], w) : pad_right(texts[off + i], w));
    std::vector<int> widths(static_cast<size_t>(cols), static_cast<int>(w) + 3);
    print_grid(p.out, cells, rows, cols, widths, "", p.loose);
  };
  if (d.ndims() > 2) {
    for_each_page(p, d, pages_named ? name : std::string(), [&](int64_t, int64_t off) { page(off); });
    return;
  }
  page(0);
}

/// `name = ` display of an ElementArrayObject: "  datetime" (1x1), "  1×3 datetime array" or
/// "  0×0 empty datetime array", then the elements.
void display_element_array(Printer& p, const Value& v, const ElementArrayObject& e,
                           const std::string& name) {
  const Dims d = v.dims();
  p.line(name + " = ");
  p.blank();
  if (d.numel() == 0) {
    p.line("  " + dims_text(d) + " empty " + v.class_name() + " array");
    p.blank();
    return;
  }
  p.line(d.is_scalar() ? "  " + v.class_name() : "  " + dims_text(d) + " " + v.class_name() + " array");
  p.blank();
  element_array_body(p, e, d, name, true);
  if (d.ndims() <= 2) p.blank();
}

/// "  CLASS with properties:" and the property lines of an object that lists its properties
/// (IndexableObject::property_names), else "  CLASS object".
void object_body(Printer& p, const Value& v, const Session& s) {
  IndexableObject* o = as_indexable(v);
  std::vector<std::string> names;
  if (o) names = o->property_names();
  if (names.empty()) {
    p.line("  " + v.class_name() + " object");
    return;
  }
  p.line("  " + v.class_name() + " with properties:");
  p.blank();
  size_t w = 0;
  for (auto& n : names) w = std::max(w, n.size());
  for (auto& n : names) {
    Value pv;
    o->get_property(n, pv);
    p.line("    " + pad_left(n, w) + ": " + field_text(pv, s));
  }
}

void display_struct(Printer& p, const StructArray& sa, const std::string& name,
                    const Session& s) {
  p.line(name + " = ");
  p.blank();
  if (sa.dims().is_scalar()) {
    if (sa.fields().empty()) {
      p.line("  struct with no fields.");
    } else {
      p.line("  struct with fields:");
      p.blank();
      struct_fields_body(p, sa, s);
    }
  } else {
    struct_array_header(p, sa);
  }
  p.blank();
}

}  // namespace

namespace display_detail {
std::pair<std::string, bool> cell_element_text(const Value& v, const Session& s) {
  return cell_elem_text(v, s);
}
}  // namespace display_detail

namespace {
/// Table lines: blank entries print as blank lines in format loose only.
void table_lines(Printer& p, const std::vector<std::string>& lines) {
  for (const auto& l : lines) {
    if (l.empty()) p.blank();
    else p.line(l);
  }
}

/// The body of a table (header, rule and rows; header and rule only without rows) and the
/// blank line after it; nothing for a table without variables.
void table_block(Printer& p, const TableObject& t, const Session& s) {
  if (t.width() == 0) return;
  std::vector<std::string> body = table_body(t, s);
  if (t.rows == 0) body.resize(2);
  table_lines(p, body);
  p.blank();
}
}  // namespace

void display_value(std::ostream& os, const Value& v, std::string_view name_view,
                   const Session& s) {
  accel::SinkScope sink(accel::SinkReason::Display);
  Printer p;
  p.loose = !s.compact;
  const std::string name(name_view);
  switch (v.kind()) {
    case Value::Kind::Scalar:
    case Value::Kind::Array:
      display_tensor(p, v, name, s);
      break;
    case Value::Kind::Cell:
      display_cell(p, v.cell(), name, s);
      break;
    case Value::Kind::String:
      display_string(p, v.string_array(), name);
      break;
    case Value::Kind::Struct:
      display_struct(p, v.struct_array(), name, s);
      break;
    case Value::Kind::Function:
      p.line(name + " =");
      p.blank();
      p.line("  function_handle with value:");
      p.blank();
      p.line("    " + v.function()->display());
      p.blank();
      break;
    case Value::Kind::Object:
      if (const SparseMatrix* sm = as_sparse(v)) {
        p.line(name + " =");
        p.blank();
        sparse_body(p, *sm, s);
        p.blank();
        break;
      }
      if (ElementArrayObject* e = as_element_array(v)) {
        display_element_array(p, v, *e, name);
        break;
      }
      if (const TableObject* t = as_table(v)) {
        p.line(name + " =");
        p.blank();
        p.line(table_size_line(*t));
        p.blank();
        table_block(p, *t, s);
        break;
      }
      if (IndexableObject* o = as_indexable(v)) {
        std::vector<std::string> lines;
        if (o->display_lines(lines)) {
          p.line(name + " = ");
          p.blank();
          for (const auto& l : lines) {
            if (l.empty()) p.blank();
            else p.line(l);
          }
          break;
        }
      }
      p.line(name + " = ");
      p.blank();
      object_body(p, v, s);
      p.blank();
      break;
  }
  os << p.out;
}

void disp_value(std::ostream& os, const Value& v, const Session& s) {
  accel::SinkScope sink(accel::SinkReason::Display);
  Printer p;
  p.loose = !s.compact;
  switch (v.kind()) {
    case Value::Kind::Scalar:
    case Value::Kind::Array:
      disp_tensor(p, v.tensor(), s);
      break;
    case Value::Kind::Cell: {
      const CellArray& c = v.cell();
      const Dims& d = c.dims();
      if (c.numel() == 0) break;
      if (d.ndims() > 2) {
        for_each_page(p, d, "", [&](int64_t, int64_t off) {
          cell_page_body(p, c, off, d.rows(), d.cols(), s);
        });
      } else {
        cell_page_body(p, c, 0, d.rows(), d.cols(), s);
      }
      break;
    }
    case Value::Kind::String: {
      const StringArray& sa = v.string_array();
      if (sa.numel() == 1) {
        p.line(sa[0] ? *sa[0] : "<missing>");
      } else if (sa.numel() > 0 && sa.dims().ndims() == 2) {
        string_page_body(p, sa, 0, sa.dims().rows(), sa.dims().cols());
      } else if (sa.numel() > 0) {
        const Dims& d = sa.dims();
        for_each_page(p, d, "", [&](int64_t, int64_t off) {
          string_page_body(p, sa, off, d.rows(), d.cols());
        });
      }
      break;
    }
    case Value::Kind::Struct: {
      const StructArray& sa = v.struct_array();
      if (sa.dims().is_scalar()) struct_fields_body(p, sa, s);
      else struct_array_header(p, sa);
      break;
    }
    case Value::Kind::Function:
      p.line("    " + v.function()->display());
      break;
    case Value::Kind::Object:
      if (const SparseMatrix* sm = as_sparse(v)) {
        sparse_body(p, *sm, s);
        break;
      }
      if (ElementArrayObject* e = as_element_array(v)) {
        if (v.numel() > 0) element_array_body(p, *e, v.dims(), "", false);
        break;
      }
      if (const TableObject* t = as_table(v)) {
        table_block(p, *t, s);
        break;
      }
      object_body(p, v, s);
      break;
  }
  os << p.out;
}

}  // namespace matfuse
