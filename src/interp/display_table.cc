// Display of tables as the MATLAB command window prints them:
//
//   T =
//
//     3×2 table
//
//       Name      Age
//     ________    ___
//
//     {'Ann' }    38
//     ...
//
// Layout (checked against the outputs in MathWorks' table, array2table and table2array
// documentation): every line starts with 4 blanks; row names (when present) come first,
// left-aligned and padded to the longest; variables are separated by 4 blanks. A variable's
// column is as wide as the wider of its name and its data text; the name is centred (extra
// blank on the right), the underline fills the column, and the data block is centred the same
// way. Data text per variable kind:
// - double/single: each column formatted on its own like `format short g` (`%.5g`; integers
//   whole; `long g`: 15 digits), right-aligned; columns of a multi-column variable separated
//   by 4 blanks;
// - integer classes: whole numbers, right-aligned; logical: true/false, left-aligned;
// - cell: each cell as a cell array shows it ({'text'}, {[5]}, {2×2 double}) padded inside
//   the braces; string: "text" left-aligned (<missing>); char: each row as text;
// - other values: their size and class ("1×1 struct"); objects may supply row texts
//   (ValueObject::row_texts).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "builtins/table.h"
#include "interp/display_internal.h"
#include "interp/display_table.h"
#include "runtime/element_array.h"

namespace matfuse::display_detail {

namespace {

size_t width_of(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string pad_r(const std::string& s, size_t w) {
  const size_t n = width_of(s);
  return n >= w ? s : s + std::string(w - n, ' ');
}

std::string pad_l(const std::string& s, size_t w) {
  const size_t n = width_of(s);
  return n >= w ? s : std::string(w - n, ' ') + s;
}

/// Text of one double for a table column under `format short g` / `long g`.
std::string g_text(double v, bool integers, int prec) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
  char buf[64];
  if (integers) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.*g", prec, v);
  return buf;
}

/// Column texts (one per row) of column j of a float tensor with h rows.
std::vector<std::string> float_column(const Tensor& t, int64_t h, int64_t j, int prec) {
  bool integers = true;
  for (int64_t i = 0; i < h; ++i) {
    if (t.is_complex()) {
      auto z = t.get_complex(j * h + i);
      if (std::isfinite(z.real()) && (z.real() != std::floor(z.real()) || std::fabs(z.real()) >= 1e9)) integers = false;
      if (std::isfinite(z.imag()) && (z.imag() != std::floor(z.imag()) || std::fabs(z.imag()) >= 1e9)) integers = false;
      continue;
    }
    const double v = t.get_double(j * h + i);
    if (std::isfinite(v) && (v != std::floor(v) || std::fabs(v) >= 1e9)) integers = false;
  }
  std::vector<std::string> out;
  for (int64_t i = 0; i < h; ++i) {
    if (t.is_complex()) {
      auto z = t.get_complex(j * h + i);
      std::string im = g_text(std::fabs(z.imag()), integers, prec);
      out.push_back(g_text(z.real(), integers, prec) + (std::signbit(z.imag()) ? " - " : " + ") +
                    im + "i");
    } else {
      out.push_back(g_text(t.get_double(j * h + i), integers, prec));
    }
  }
  return out;
}

/// Joins per-column texts (cols[j][i]) of h rows: each column padded to its width
/// (right-aligned when `right`), columns separated by 4 blanks.
std::vector<std::string> join_columns(const std::vector<std::vector<std::string>>& cols,
                                      int64_t h, bool right) {
  std::vector<std::string> rows(static_cast<size_t>(h));
  for (size_t j = 0; j < cols.size(); ++j) {
    size_t w = 0;
    for (const auto& s : cols[j]) w = std::max(w, width_of(s));
    for (int64_t i = 0; i < h; ++i) {
      const std::string& s = cols[j][static_cast<size_t>(i)];
      if (j) rows[static_cast<size_t>(i)] += "    ";
      rows[static_cast<size_t>(i)] += right ? pad_l(s, w) : pad_r(s, w);
    }
  }
  return rows;
}

/// The data text of variable v (h rows), every row padded to one width.
std::vector<std::string> var_texts(const Value& v, int64_t h, const Session& s) {
  const int64_t c = table_detail::var_cols(v);
  std::vector<std::vector<std::string>> cols(static_cast<size_t>(std::max<int64_t>(c, 0)));
  const bool long_fmt = s.format == NumericFormat::Long || s.format == NumericFormat::LongG ||
                        s.format == NumericFormat::LongE;
  bool right = true;
  if (v.is_object()) {
    std::vector<std::string> texts;
    if (table_detail::object_texts(v, texts)) {
      const auto* e = as_element_array(v);
      std::vector<std::vector<std::string>> tcols(static_cast<size_t>(std::max<int64_t>(c, 1)));
      for (size_t j = 0; j < tcols.size(); ++j)
        tcols[j].assign(texts.begin() + static_cast<int64_t>(j) * h,
                        texts.begin() + static_cast<int64_t>(j + 1) * h);
      return join_columns(tcols, h, e && e->right_aligned());
    }
    const std::string txt = dims_text(Dims(1, c)) + " " + v.class_name();
    return std::vector<std::string>(static_cast<size_t>(h), txt);
  }
  if (v.is_tensor()) {
    Tensor t = v.tensor();
    if (t.cls() == ClassId::Char) {
      std::vector<std::string> rows;
      for (int64_t i = 0; i < h; ++i) {
        std::string r;
        for (int64_t j = 0; j < c; ++j) {
          const unsigned cp = static_cast<unsigned>(t.get_double(j * h + i));
          if (cp < 0x80) r += static_cast<char>(cp);
          else if (cp < 0x800) {
            r += static_cast<char>(0xC0 | (cp >> 6));
            r += static_cast<char>(0x80 | (cp & 0x3F));
          } else {
            r += static_cast<char>(0xE0 | (cp >> 12));
            r += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            r += static_cast<char>(0x80 | (cp & 0x3F));
          }
        }
        rows.push_back(r);
      }
      return join_columns({rows}, h, false);
    }
    for (int64_t j = 0; j < c; ++j) {
      auto& col = cols[static_cast<size_t>(j)];
      if (t.cls() == ClassId::Logical) {
        right = false;
        for (int64_t i = 0; i < h; ++i) col.push_back(t.get_double(j * h + i) != 0 ? "true" : "false");
      } else if (is_float_class(t.cls())) {
        col = float_column(t, h, j, long_fmt ? (t.cls() == ClassId::Single ? 8 : 15) : 5);
      } else {
        for (int64_t i = 0; i < h; ++i) col.push_back(scalar_inline_text(t, j * h + i, s.format));
      }
    }
    return join_columns(cols, h, right);
  }
  if (v.is_cell()) {
    const CellArray& cell = v.cell();
    for (int64_t j = 0; j < c; ++j) {
      std::vector<std::pair<std::string, bool>> inner;
      size_t w = 0;
      for (int64_t i = 0; i < h; ++i) {
        inner.push_back(cell_element_text(cell[j * h + i], s));
        w = std::max(w, width_of(inner.back().first));
      }
      auto& col = cols[static_cast<size_t>(j)];
      for (auto& [txt, numeric] : inner) {
        std::string body;
        if (numeric && w > width_of(txt))
          body = "[" + pad_l(txt.substr(1, txt.size() - 2), w - 2) + "]";
        else
          body = pad_r(txt, w);
        col.push_back("{" + body + "}");
      }
    }
    return join_columns(cols, h, false);
  }
  if (v.is_string()) {
    const StringArray& sa = v.string_array();
    for (int64_t j = 0; j < c; ++j)
      for (int64_t i = 0; i < h; ++i) {
        const auto& e = sa[j * h + i];
        cols[static_cast<size_t>(j)].push_back(e ? "\"" + *e + "\"" : "<missing>");
      }
    return join_columns(cols, h, false);
  }
  if (const TableObject* nt = as_table(v)) {
    std::vector<std::string> rows(static_cast<size_t>(h), dims_text(Dims(1, nt->width())) + " table");
    return rows;
  }
  const std::string txt = dims_text(Dims(1, c)) + " " + v.class_name();
  return std::vector<std::string>(static_cast<size_t>(h), txt);
}

}  // namespace

std::vector<std::string> table_body(const TableObject& t, const Session& s) {
  const std::string indent = "    ", sep = "    ";
  std::vector<std::string> header, under, data(static_cast<size_t>(t.rows));
  std::string h = indent, u = indent;
  std::vector<std::string> rows(static_cast<size_t>(t.rows), indent);
  if (!t.row_names.empty()) {
    size_t w = 0;
    for (const auto& r : t.row_names) w = std::max(w, width_of(r));
    h += std::string(w, ' ') + sep;
    u += std::string(w, ' ') + sep;
    for (int64_t i = 0; i < t.rows; ++i)
      rows[static_cast<size_t>(i)] += pad_r(t.row_names[static_cast<size_t>(i)], w) + sep;
  }
  for (size_t k = 0; k < t.vars.size(); ++k) {
    std::vector<std::string> d = var_texts(t.vars[k], t.rows, s);
    size_t dw = 0;
    for (const auto& x : d) dw = std::max(dw, width_of(x));
    const std::string& name = t.names[k];
    const size_t nw = width_of(name);
    const size_t cw = std::max(dw, nw);
    if (k) {
      h += sep;
      u += sep;
      for (auto& r : rows) r += sep;
    }
    const size_t nl = (cw - nw) / 2;
    h += std::string(nl, ' ') + name + std::string(cw - nw - nl, ' ');
    u += std::string(cw, '_');
    const size_t dl = (cw - dw) / 2;
    for (int64_t i = 0; i < t.rows; ++i)
      rows[static_cast<size_t>(i)] += std::string(dl, ' ') + pad_r(d[static_cast<size_t>(i)], cw - dl);
  }
  std::vector<std::string> out{h, u, ""};
  out.insert(out.end(), rows.begin(), rows.end());
  return out;
}

std::string table_size_line(const TableObject& t) {
  const bool empty = t.rows == 0 || t.width() == 0;
  return "  " + dims_text(t.dims()) + (empty ? " empty table" : " table");
}

}  // namespace matfuse::display_detail
