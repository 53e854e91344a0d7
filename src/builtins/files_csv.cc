// readmatrix, readcell, writematrix, writecell for delimited text files (.csv, .txt, .dat).
//
// Import follows text_import.h (BOM, CRLF, RFC 4180 quoting, delimiter detection); readmatrix
// detects header lines by column type (MATLAB's detectImportOptions rule), so a text column
// never hides the rows: its fields are NaN. Export writes the shortest round-trip digits and
// quotes text as RFC 4180 says, through write_text_file (one function for every text writer).
#include <cctype>
#include <charconv>
#include <complex>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "builtins/files_util.h"

#include "runtime/atomic_file.h"
#include "builtins/format.h"
#include "builtins/text_import.h"

namespace matfuse {

namespace files_detail {

/// The shortest decimal text that reads back as the same double (std::to_chars), with
/// MATLAB's spellings of the special values.
std::string number_text(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Inf" : "-Inf";
  if (d == 0) return "0";  // also -0
  char buf[40];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, r.ptr);
}

/// A text field as written: quoted (with embedded quotes doubled, RFC 4180) when the rule says
/// so or, under 'minimal', when it holds the delimiter, a quote or a line break.
std::string quote_text(const std::string& s, const std::string& delim, QuoteRule q) {
  bool need = q == QuoteRule::All;
  if (q == QuoteRule::Minimal)
    need = s.find(delim) != std::string::npos || s.find_first_of("\"\n\r") != std::string::npos;
  if (!need) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace files_detail

using files_detail::QuoteRule;
using files_detail::number_text;
using files_detail::quote_text;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

using text_import::Field;
using text_import::Record;

/// The options readmatrix, readcell, csvread and dlmread share.
struct ImportOptions {
  std::string delim;        ///< "" = detect
  int64_t header = -1;      ///< NumHeaderLines; -1 = detect
  bool have_range = false;
  text_import::Range range;
  char decimal = '.', thousands = 0;
  std::string out_type = "double";
};

/// Reads name-value pairs args[first...] of readmatrix/readcell into o.
void import_options(Args args, size_t first, const char* fname, ImportOptions& o) {
  if ((args.size() - first) % 2 != 0)
    throw_error("MATLAB:InputParser:ParamMissingValue",
                "Name-value arguments must come in pairs.");
  for (size_t i = first; i + 1 < args.size(); i += 2) {
    std::string key = lower(text_arg(args[i], fname, static_cast<int>(i) + 1));
    const Value& v = args[i + 1];
    auto one_char = [&](const char* what) {
      std::string t = text_arg(v, fname, static_cast<int>(i) + 2);
      if (t.size() != 1)
        throw_error("MATLAB:textio:io:InvalidSeparator", "%s must be a single character.", what);
      return t[0];
    };
    if (key == "delimiter") o.delim = text_import::delimiter_arg(v, fname);
    else if (key == "numheaderlines") o.header = v.to_index("NumHeaderLines");
    else if (key == "outputtype") o.out_type = lower(text_arg(v, fname, 0));
    else if (key == "range") {
      o.range = text_import::parse_range(v);
      o.have_range = true;
    } else if (key == "decimalseparator") o.decimal = one_char("DecimalSeparator");
    else if (key == "thousandsseparator") o.thousands = one_char("ThousandsSeparator");
    else if (key == "filetype") {
      std::string t = lower(text_arg(v, fname, 0));
      if (t != "text" && t != "delimitedtext")
        throw_error("matfuse:notAvailable", "%s reads text files only ('FileType','%s').", fname,
                    t.c_str());
    } else if (key == "emptylinerule" || key == "treatasmissing" || key == "whitespace" ||
               key == "expectednumvariables" || key == "encoding" ||
               key == "consecutivedelimitersrule" || key == "leadingdelimitersrule" ||
               key == "texttype" || key == "datetimetype" || key == "commentstyle")
      continue;
    else
      throw_error("MATLAB:InputParser:UnmatchedParameter",
                  "'%s' is not a recognized parameter.", key.c_str());
  }
  if (o.decimal == ',' && o.delim.empty()) o.delim = ";";
}

/// The records of a file after NumHeaderLines / Range, empty lines dropped (none with Range).
std::vector<Record> import_records(const std::string& path, const ImportOptions& o) {
  const std::string text = text_import::read_file(path);
  const std::string delim = o.delim.empty() ? text_import::detect_delimiter(text) : o.delim;
  std::vector<Record> recs = text_import::parse_records(text, delim);
  std::vector<Record> out;
  if (o.have_range) {
    const auto& r = o.range;
    for (int64_t i = r.r0; i < static_cast<int64_t>(recs.size()) && (r.r1 < 0 || i <= r.r1);
         ++i) {
      Record row;
      const Record& src = recs[static_cast<size_t>(i)];
      for (int64_t c = r.c0; c < static_cast<int64_t>(src.size()) && (r.c1 < 0 || c <= r.c1); ++c)
        row.push_back(src[static_cast<size_t>(c)]);
      if (r.c1 >= 0) row.resize(static_cast<size_t>(r.c1 - r.c0 + 1));
      out.push_back(std::move(row));
    }
    return out;
  }
  for (size_t i = o.header > 0 ? static_cast<size_t>(o.header) : 0; i < recs.size(); ++i) {
    bool empty = true;
    for (const Field& f : recs[i])
      if (f.text.find_first_not_of(" \t") != std::string::npos || f.quoted) empty = false;
    if (!empty) out.push_back(std::move(recs[i]));
  }
  return out;
}

enum class Cell : uint8_t { Number, Empty, Text };

/// Number of leading header rows by column type (MATLAB's detection): a column is numeric when
/// at least as many of its non-empty fields below the first row are numbers as text; leading
/// rows with text in a numeric column are header lines.
size_t detect_header_rows(const std::vector<std::vector<Cell>>& kinds, size_t width) {
  if (kinds.empty()) return 0;
  std::vector<int64_t> num(width, 0), txt(width, 0);
  const size_t from = kinds.size() > 1 ? 1 : 0;
  for (size_t r = from; r < kinds.size(); ++r)
    for (size_t c = 0; c < kinds[r].size(); ++c) {
      if (kinds[r][c] == Cell::Number) ++num[c];
      if (kinds[r][c] == Cell::Text) ++txt[c];
    }
  std::vector<bool> numeric(width);
  bool any = false;
  for (size_t c = 0; c < width; ++c) {
    numeric[c] = num[c] > 0 && num[c] >= txt[c];
    any = any || numeric[c];
  }
  if (!any) return 0;
  size_t h = 0;
  for (; h < kinds.size(); ++h) {
    bool text_in_numeric = false;
    for (size_t c = 0; c < kinds[h].size(); ++c)
      if (numeric[c] && kinds[h][c] == Cell::Text) text_in_numeric = true;
    if (!text_in_numeric) break;
  }
  return h == kinds.size() ? 0 : h;
}

/// A = readmatrix(filename, Name, Value, ...): the numeric data of a delimited text file as a
/// double matrix (rows x widest row). Header lines are detected by column type unless
/// 'NumHeaderLines' or 'Range' is given; text and empty fields are NaN; short rows are padded
/// with NaN. Options: 'Delimiter', 'NumHeaderLines', 'Range', 'DecimalSeparator',
/// 'ThousandsSeparator', 'OutputType', 'FileType' ('text'). Errors:
/// MATLAB:textio:textio:FileNotFound, MATLAB:InputParser:UnmatchedParameter.
Outputs bi_readmatrix(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 1);
  std::string path = text_arg(args[0], "readmatrix", 1);
  ImportOptions o;
  import_options(args, 1, "readmatrix", o);
  std::vector<Record> recs = import_records(path, o);
  size_t width = 0;
  std::vector<std::vector<Cell>> kinds(recs.size());
  std::vector<std::vector<double>> vals(recs.size());
  for (size_t r = 0; r < recs.size(); ++r) {
    width = std::max(width, recs[r].size());
    for (const Field& f : recs[r]) {
      bool empty = false;
      auto v = text_import::parse_number(f.text, o.decimal, o.thousands, &empty);
      kinds[r].push_back(v ? Cell::Number : empty ? Cell::Empty : Cell::Text);
      vals[r].push_back(v ? *v : std::nan(""));
    }
  }
  const size_t skip = o.header < 0 && !o.have_range ? detect_header_rows(kinds, width) : 0;
  const int64_t m = static_cast<int64_t>(recs.size() - skip), n = static_cast<int64_t>(width);
  Tensor t = Tensor::uninit(ClassId::Double, Dims(m, n));
  double* p = t.mutable_data<double>();
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      const auto& row = vals[static_cast<size_t>(r) + skip];
      p[c * m + r] = c < static_cast<int64_t>(row.size()) ? row[static_cast<size_t>(c)]
                                                          : std::nan("");
    }
  Value v(std::move(t));
  if (o.out_type != "double") {
    Value a[1] = {v};
    return ctx.call_named(o.out_type, Args(a, 1), 1);
  }
  return {v};
}

/// Text of element i of a writable value (numeric, logical, char row, string, cell of those).
std::string element_text(const Value& v, int64_t i, const std::string& delim, QuoteRule q) {
  if (v.is_string()) {
    const auto& e = v.string_array()[i];
    return e ? quote_text(*e, delim, q) : std::string();
  }
  if (v.is_cell()) {
    const Value& e = v.cell()[i];
    if (e.is_text()) return quote_text(e.to_text(), delim, q);
    if ((e.is_tensor() || e.is_string()) && e.numel() == 1) return element_text(e, 0, delim, q);
    if (e.is_empty()) return "";
    throw_error("MATLAB:table:write:UnsupportedCellType",
                "Cell elements must be scalars or text to be written to a file.");
  }
  Tensor t = v.tensor();
  if (t.is_complex()) {
    std::complex<double> z = t.get_complex(i);
    std::string im = number_text(z.imag());
    return number_text(z.real()) + (im[0] == '-' ? "" : "+") + im + "i";
  }
  return number_text(t.get_double(i));
}

}  // namespace

void write_text_file(const std::string& path, const std::string& text, bool append,
                     const char* fname) {
  // One atomic write (a temporary file renamed over the target): a full disk or an I/O error
  // raises the error and leaves the old file as it was.
  const char* id = "MATLAB:table:write:FileOpenError";
  write_file_atomic(path, (append ? read_for_append(path, id) : std::string()) + text, id);
  (void)fname;
}

namespace {

/// writematrix(A[, filename], Name, Value) and writecell(C[, filename], Name, Value): a
/// numeric, logical, string, char or cell matrix as delimited text. Numbers are written with
/// the fewest digits that read back to the same double; text fields are quoted when they hold
/// the delimiter, a quote or a line break ('QuoteStrings' 'minimal', default; 'all' / true:
/// always; 'none' / false: never), with embedded quotes doubled (RFC 4180); char arrays one row
/// per line. N-D arrays are written as their 2-D reshape. Options 'Delimiter' (default ','),
/// 'WriteMode' ('overwrite' or 'append'), 'QuoteStrings', 'FileType' ('text'). Default file
/// "matrix.txt" / "cell.txt". Errors: MATLAB:table:write:FileOpenError, matfuse:notAvailable
/// for spreadsheets.
Outputs write_delimited(Args args, int nargout, const char* fname, bool cell_input) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 0);
  const Value& a = args[0];
  std::string path = cell_input ? "cell.txt" : "matrix.txt";
  size_t i = 1;
  if (args.size() % 2 == 0) path = text_arg(args[i++], fname, 2);
  std::string delim = ",";
  bool append = false;
  QuoteRule q = QuoteRule::Minimal;
  for (; i + 1 < args.size(); i += 2) {
    std::string key = lower(text_arg(args[i], fname, static_cast<int>(i) + 1));
    const Value& v = args[i + 1];
    if (key == "delimiter") {
      delim = text_import::delimiter_arg(v, fname);
    } else if (key == "writemode") {
      std::string m = lower(text_arg(v, fname, 0));
      if (m != "overwrite" && m != "append" && m != "overwritesheet" && m != "inplace")
        throw_error("MATLAB:table:write:InvalidWriteMode",
                    "'WriteMode' must be 'overwrite' or 'append'.");
      append = m == "append";
    } else if (key == "quotestrings") {
      if (v.is_text()) {
        std::string m = lower(v.to_text());
        q = m == "all" ? QuoteRule::All : m == "none" ? QuoteRule::None : QuoteRule::Minimal;
      } else {
        q = v.to_double("QuoteStrings") != 0 ? QuoteRule::All : QuoteRule::None;
      }
    } else if (key == "filetype" || key == "encoding" || key == "linebreak") {
      continue;
    } else {
      throw_error("MATLAB:InputParser:UnmatchedParameter",
                  "'%s' is not a recognized parameter.", key.c_str());
    }
  }
  if (i < args.size())
    throw_error("MATLAB:InputParser:ParamMissingValue",
                "Name-value arguments must come in pairs.");
  std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext == ".xls" || ext == ".xlsx" || ext == ".xlsm" || ext == ".ods")
    throw_error("matfuse:notAvailable", "%s cannot write spreadsheet files.", fname);
  if (cell_input && !a.is_cell())
    throw_error("MATLAB:writecell:FirstInputMustBeCell", "First input must be a cell array.");
  if (!(a.is_tensor() || a.is_string() || a.is_cell()))
    throw_error("MATLAB:writematrix:UnsupportedInput",
                "Input must be a numeric, logical, char, string or cell array.");
  if (delim == " ") delim = " ";
  Dims d = a.dims();
  if (d.ndims() > 2) d = Dims(d[0], a.numel() / std::max<int64_t>(d[0], 1));
  int64_t rows = d.rows(), cols = d.cols();
  std::string text;
  if (a.is_char()) {
    Tensor t = a.tensor();
    for (int64_t r = 0; r < rows; ++r) {
      Tensor row = Tensor::uninit(ClassId::Char, Dims(1, cols));
      for (int64_t c = 0; c < cols; ++c) row.set_double(c, t.get_double(c * rows + r));
      text += quote_text(row.to_utf8(), delim, q) + "\n";
    }
  } else {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        if (c) text += delim;
        text += element_text(a, c * rows + r, delim, q);
      }
      text += "\n";
    }
  }
  write_text_file(path, text, append, fname);
  return {};
}

/// C = readcell(filename, Name, Value, ...): every field of a delimited text file as a cell
/// array (rows x widest row): numbers as double scalars, text as char rows (blanks around an
/// unquoted field trimmed), empty fields and the padding of short rows as [] (MATLAB: missing).
/// Header lines are kept unless 'NumHeaderLines' says otherwise. Options as readmatrix.
Outputs bi_readcell(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 1);
  std::string path = text_arg(args[0], "readcell", 1);
  ImportOptions o;
  import_options(args, 1, "readcell", o);
  std::vector<Record> recs = import_records(path, o);
  size_t width = 0;
  for (const Record& r : recs) width = std::max(width, r.size());
  const int64_t m = static_cast<int64_t>(recs.size()), n = static_cast<int64_t>(width);
  CellArray c(Dims(m, n));
  for (int64_t r = 0; r < m; ++r)
    for (int64_t k = 0; k < n; ++k) {
      const Record& rec = recs[static_cast<size_t>(r)];
      Value v = Value(Tensor::zeros(ClassId::Double, Dims(0, 0)));
      if (k < static_cast<int64_t>(rec.size())) {
        const Field& f = rec[static_cast<size_t>(k)];
        bool empty = false;
        auto num = f.quoted ? std::nullopt
                            : text_import::parse_number(f.text, o.decimal, o.thousands, &empty);
        if (num) v = Value(*num);
        else if (f.quoted) v = char_row(f.text);
        else if (!empty) v = char_row(trim(f.text));
      }
      c.at(k * m + r) = std::move(v);
    }
  return {Value(std::move(c))};
}

Outputs bi_writematrix(CallContext&, Args args, int nargout) {
  return write_delimited(args, nargout, "writematrix", false);
}

Outputs bi_writecell(CallContext&, Args args, int nargout) {
  return write_delimited(args, nargout, "writecell", true);
}

}  // namespace

void register_files_csv(Registry& r) {
  r.add("readmatrix", bi_readmatrix);
  r.add("readcell", bi_readcell);
  r.add("writematrix", bi_writematrix);
  r.add("writecell", bi_writecell);
}

}  // namespace matfuse
