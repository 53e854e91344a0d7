// readtable and writetable for delimited text files (.csv, .txt, .dat).
//
// readtable parses the file with the shared importer (text_import.h: BOM, line ends, RFC 4180
// quoting, delimiter detection). The first nonempty line holds the variable names when every
// field of it is text and it is followed by data (or 'ReadVariableNames' says so); names are
// made valid identifiers (matlab.lang.makeValidName, then made unique with _1, _2 ...) unless
// 'VariableNamingRule' is 'preserve', the original headers then kept in VariableDescriptions
// with MATLAB's warning. A column whose nonempty fields are all numbers is a double variable
// (empty fields NaN); any other column is text: a cell array of character vectors (or a string
// array with 'TextType','string'), empty fields ''.
// writetable writes the variable names (a multi-column variable x as x_1, x_2, ...), then one
// line per row: numbers with the fewest digits that read back to the same double, logicals as
// 1/0, text quoted when it holds the delimiter, a quote or a line break (RFC 4180). The file is
// written atomically (runtime/atomic_file.h, through write_text_file).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "builtins/files_util.h"
#include "builtins/format.h"
#include "builtins/data_util.h"
#include "builtins/table.h"
#include "builtins/text_import.h"
#include "runtime/atomic_file.h"

namespace matfuse {

using namespace table_detail;

namespace {

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

void warn(CallContext& ctx, const char* id, const std::string& msg) {
  Value a[3] = {char_row(id), char_row("%s"), char_row(msg)};
  ctx.call_named("warning", Args(a, 3), 0);
}

/// T = readtable(filename, Name, Value). Options: 'Delimiter', 'ReadVariableNames',
/// 'ReadRowNames', 'NumHeaderLines', 'VariableNamingRule' ('modify' | 'preserve'),
/// 'TextType' ('char' | 'string'), 'FileType' ('text' | 'delimitedtext'). Errors:
/// MATLAB:textio:textio:FileNotFound, MATLAB:InputParser:UnmatchedParameter.
Outputs bi_readtable(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const std::string path = text_arg(args[0], "readtable", 1);
  if ((args.size() - 1) % 2 != 0)
    throw_error("MATLAB:InputParser:ParamMissingValue", "Name-value arguments must come in pairs.");
  std::string delim;
  int read_names = -1;
  bool row_names = false, preserve = false, strings = false;
  int64_t header_lines = 0;
  for (size_t i = 1; i + 1 < args.size(); i += 2) {
    const std::string k = data::lower(text_arg(args[i], "readtable", static_cast<int>(i) + 1));
    const Value& v = args[i + 1];
    if (k == "delimiter") delim = text_import::delimiter_arg(v, "readtable");
    else if (k == "readvariablenames") read_names = v.truthy() ? 1 : 0;
    else if (k == "readrownames") row_names = v.truthy();
    else if (k == "numheaderlines") header_lines = v.to_index("NumHeaderLines");
    else if (k == "variablenamingrule") preserve = data::lower(v.to_text()) == "preserve";
    else if (k == "texttype") strings = data::lower(v.to_text()) == "string";
    else if (k == "filetype") {
      const std::string t = data::lower(v.to_text());
      if (t != "text" && t != "delimitedtext")
        throw_error("matfuse:notAvailable", "readtable reads text files only ('FileType','%s').",
                    t.c_str());
    } else if (k == "emptylinerule" || k == "encoding" || k == "commentstyle" ||
               k == "treatasmissing" || k == "whitespace")
      continue;
    else
      throw_error("MATLAB:InputParser:UnmatchedParameter", "'%s' is not a recognized parameter.",
                  k.c_str());
  }
  const std::string text = text_import::read_file(path);
  if (delim.empty()) delim = text_import::detect_delimiter(text);
  std::vector<text_import::Record> all = text_import::parse_records(text, delim);
  std::vector<text_import::Record> recs;
  for (size_t i = static_cast<size_t>(header_lines); i < all.size(); ++i) {
    bool empty = true;
    for (const auto& f : all[i])
      if (f.quoted || f.text.find_first_not_of(" \t") != std::string::npos) empty = false;
    if (!empty) recs.push_back(std::move(all[i]));
  }
  size_t width = 0;
  for (const auto& r : recs) width = std::max(width, r.size());
  auto is_num = [](const text_import::Field& f, double* out) {
    if (f.quoted) return false;
    bool empty = false;
    auto d = text_import::parse_number(f.text, '.', 0, &empty);
    if (d && out) *out = *d;
    return d.has_value();
  };
  auto is_blank = [](const text_import::Field& f) {
    return !f.quoted && f.text.find_first_not_of(" \t") == std::string::npos;
  };
  bool header = false;
  if (read_names == 1) header = !recs.empty();
  else if (read_names == -1 && recs.size() > 1) {
    header = true;
    for (const auto& f : recs[0])
      if (is_num(f, nullptr)) header = false;
  }
  std::vector<std::string> raw_names(width);
  if (header)
    for (size_t c = 0; c < width; ++c)
      raw_names[c] = c < recs[0].size() ? trim(recs[0][c].text) : std::string();
  const size_t first = header ? 1 : 0;
  const int64_t n = static_cast<int64_t>(recs.size() - std::min(recs.size(), first));
  auto t = std::make_shared<TableObject>();
  t->rows = n;
  std::vector<std::string> names, originals;
  bool modified = false;
  for (size_t c = 0; c < width; ++c) {
    bool numeric = true, any = false;
    for (size_t r = first; r < recs.size(); ++r) {
      if (c >= recs[r].size() || is_blank(recs[r][c])) continue;
      any = true;
      if (!is_num(recs[r][c], nullptr)) numeric = false;
    }
    numeric = numeric && (any || !header || n == 0);
    Value col;
    if (numeric) {
      Tensor d = Tensor::uninit(ClassId::Double, Dims(n, 1));
      for (int64_t i = 0; i < n; ++i) {
        const size_t r = first + static_cast<size_t>(i);
        double x = std::nan("");
        if (c < recs[r].size()) is_num(recs[r][c], &x);
        d.set_double(i, x);
      }
      col = Value(std::move(d));
    } else if (strings) {
      StringArray s(Dims(n, 1));
      for (int64_t i = 0; i < n; ++i) {
        const size_t r = first + static_cast<size_t>(i);
        s.at(i) = c < recs[r].size() ? (recs[r][c].quoted ? recs[r][c].text : trim(recs[r][c].text))
                                     : std::string();
      }
      col = Value(std::move(s));
    } else {
      CellArray s(Dims(n, 1));
      for (int64_t i = 0; i < n; ++i) {
        const size_t r = first + static_cast<size_t>(i);
        s.at(i) = Value::from_chars(c < recs[r].size() ? (recs[r][c].quoted ? recs[r][c].text
                                                                             : trim(recs[r][c].text))
                                                        : std::string());
      }
      col = Value(std::move(s));
    }
    std::string name = header ? raw_names[c] : std::string();
    if (name.empty()) name = "Var" + std::to_string(c + 1);
    originals.push_back(name);
    if (!preserve && !valid_identifier(name)) {
      name = make_valid_name(name);
      modified = true;
    }
    // Unique names (matlab.lang.makeUniqueStrings): a repeated name gets _1, _2, ...
    std::string base = name;
    for (int k = 1; std::find(names.begin(), names.end(), name) != names.end(); ++k)
      name = base + "_" + std::to_string(k);
    names.push_back(name);
    t->names.push_back(name);
    t->vars.push_back(col);
  }
  if (modified) {
    t->var_descriptions = originals;
    for (size_t c = 0; c < names.size(); ++c)
      if (names[c] == originals[c]) t->var_descriptions[c].clear();
    warn(ctx, "MATLAB:table:ModifiedAndSavedVarnames",
         "Column headers from the file were modified to make them valid MATLAB identifiers "
         "before creating variable names for the table. The original column headers are saved "
         "in the VariableDescriptions property.\nSet 'VariableNamingRule' to 'preserve' to use "
         "the original column headers as table variable names.");
  }
  if (row_names && t->width() > 0) {
    Value rn = t->vars[0];
    std::vector<std::string> rns;
    for (int64_t i = 0; i < n; ++i) {
      if (rn.is_cell()) rns.push_back(rn.cell()[i].to_text());
      else if (rn.is_string()) rns.push_back(rn.string_array()[i].value_or(""));
      else {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", rn.tensor().get_double(i));
        rns.push_back(buf);
      }
    }
    if (header && !names.empty()) t->dim_names[0] = names[0];
    t->remove_var(0);
    t->set_row_names(std::move(rns));
  }
  return {table_value(t)};
}

using files_detail::number_text;

/// A field quoted by rule (0 none, 1 minimal, 2 all: writetable's QuoteStrings).
std::string quote(const std::string& s, const std::string& delim, int rule) {
  using files_detail::QuoteRule;
  return files_detail::quote_text(
      s, delim, rule == 2 ? QuoteRule::All : rule == 0 ? QuoteRule::None : QuoteRule::Minimal);
}

/// Field texts of row i of variable v (one per column).
std::vector<std::string> row_fields(const Value& v, int64_t i, int64_t h, const std::string& delim,
                                    int rule) {
  std::vector<std::string> out;
  const int64_t c = var_cols(v);
  if (v.is_cell()) {
    for (int64_t j = 0; j < c; ++j) {
      const Value& e = v.cell()[j * h + i];
      if (e.is_text()) out.push_back(quote(e.to_text(), delim, rule));
      else if (e.is_empty()) out.push_back("");
      else if ((e.is_tensor() || e.is_string()) && e.numel() == 1)
        out.push_back(e.is_string() ? quote(e.to_text(), delim, rule)
                                    : number_text(e.tensor().get_double(0)));
      else
        throw_error("MATLAB:table:write:UnsupportedCellType",
                    "Cell elements must be scalars or text to be written to a file.");
    }
    return out;
  }
  if (v.is_string()) {
    for (int64_t j = 0; j < c; ++j) {
      const auto& e = v.string_array()[j * h + i];
      out.push_back(e ? quote(*e, delim, rule) : std::string());
    }
    return out;
  }
  if (v.is_char()) {
    Value r = take_rows(v, {i});
    out.push_back(quote(r.is_empty() ? std::string() : r.to_text(), delim, rule));
    return out;
  }
  if (v.is_tensor()) {
    Tensor t = v.tensor();
    for (int64_t j = 0; j < c; ++j) {
      if (t.is_complex()) {
        auto z = t.get_complex(j * h + i);
        std::string im = number_text(z.imag());
        out.push_back(number_text(z.real()) + (im[0] == '-' ? "" : "+") + im + "i");
      } else {
        out.push_back(number_text(t.get_double(j * h + i)));
      }
    }
    return out;
  }
  throw_error("MATLAB:table:write:UnsupportedVarType",
              "Unable to write a table variable of class '%s' to a text file.",
              v.class_name().c_str());
}

/// writetable(T, filename, Name, Value). Options: 'Delimiter' (',' default), 'WriteVariableNames'
/// (true), 'WriteRowNames' (false), 'WriteMode' ('overwrite' | 'append'), 'QuoteStrings'
/// ('minimal' default, 'all', 'none'), 'FileType' ('text'). Errors:
/// MATLAB:table:write:FileOpenError, matfuse:notAvailable for spreadsheets.
Outputs bi_writetable(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 0);
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  const TableObject& t = table_arg(args[0], "writetable");
  if (args.size() < 2)
    throw_error("MATLAB:table:write:NoFileName", "Specify a file name to write the table to.");
  const std::string path = text_arg(args[1], "writetable", 2);
  std::string delim = ",";
  bool var_names = true, row_names = false, append = false;
  int rule = 1;
  if ((args.size() - 2) % 2 != 0)
    throw_error("MATLAB:InputParser:ParamMissingValue", "Name-value arguments must come in pairs.");
  const std::string ext = data::lower(path.size() > 4 ? path.substr(path.size() - 4) : path);
  if (ext == ".xls" || ext == "xlsx" || ext == "xlsm")
    throw_error("matfuse:notAvailable", "writetable writes text files only; spreadsheets are not supported.");
  for (size_t i = 2; i + 1 < args.size(); i += 2) {
    const std::string k = data::lower(text_arg(args[i], "writetable", static_cast<int>(i) + 1));
    const Value& v = args[i + 1];
    if (k == "delimiter") delim = text_import::delimiter_arg(v, "writetable");
    else if (k == "writevariablenames") var_names = v.truthy();
    else if (k == "writerownames") row_names = v.truthy();
    else if (k == "writemode") {
      const std::string m = data::lower(v.to_text());
      if (m != "overwrite" && m != "append")
        throw_error("MATLAB:table:write:InvalidWriteMode", "WriteMode must be 'overwrite' or 'append'.");
      append = m == "append";
    } else if (k == "quotestrings") {
      if (v.is_text()) {
        const std::string q = data::lower(v.to_text());
        rule = q == "all" ? 2 : q == "none" ? 0 : 1;
      } else {
        rule = v.truthy() ? 2 : 0;
      }
    } else if (k == "filetype") {
      const std::string f = data::lower(v.to_text());
      if (f != "text" && f != "delimitedtext")
        throw_error("matfuse:notAvailable", "writetable writes text files only ('FileType','%s').",
                    f.c_str());
    } else if (k == "encoding" || k == "datelocale")
      continue;
    else
      throw_error("MATLAB:InputParser:UnmatchedParameter", "'%s' is not a recognized parameter.",
                  k.c_str());
  }
  row_names = row_names && !t.row_names.empty();
  std::string out;
  auto line = [&](const std::vector<std::string>& f) {
    for (size_t i = 0; i < f.size(); ++i) {
      if (i) out += delim;
      out += f[i];
    }
    out += "\n";
  };
  if (var_names && !(append && !read_for_append(path, "MATLAB:table:write:FileOpenError").empty())) {
    std::vector<std::string> h;
    if (row_names) h.push_back(quote(t.dim_names[0], delim, rule == 2 ? 2 : 1));
    for (size_t k = 0; k < t.names.size(); ++k) {
      const int64_t c = var_cols(t.vars[k]);
      const bool one = c == 1 || t.vars[k].is_char();
      for (int64_t j = 0; j < (one ? 1 : c); ++j)
        h.push_back(quote(one ? t.names[k] : t.names[k] + "_" + std::to_string(j + 1), delim,
                          rule == 2 ? 2 : 1));
    }
    line(h);
  }
  // Object variables (datetime, duration, ...) are written as their display texts.
  std::vector<Value> vars = t.vars;
  for (Value& v : vars) {
    std::vector<std::string> texts;
    if (!v.is_object() || !object_texts(v, texts)) continue;
    StringArray s(Dims(t.rows, static_cast<int64_t>(texts.size()) / std::max<int64_t>(t.rows, 1)));
    for (size_t k = 0; k < texts.size(); ++k) s.at(static_cast<int64_t>(k)) = texts[k];
    v = Value(std::move(s));
  }
  for (int64_t i = 0; i < t.rows; ++i) {
    std::vector<std::string> f;
    if (row_names) f.push_back(quote(t.row_names[static_cast<size_t>(i)], delim, rule));
    for (const Value& v : vars) {
      std::vector<std::string> r = row_fields(v, i, t.rows, delim, rule);
      f.insert(f.end(), r.begin(), r.end());
    }
    line(f);
  }
  write_text_file(path, out, append, "writetable");
  return {};
}

}  // namespace

namespace table_detail {

void register_table_io(Registry& r) {
  r.add("readtable", bi_readtable);
  r.add("writetable", bi_writetable);
}

}  // namespace table_detail

}  // namespace matfuse
