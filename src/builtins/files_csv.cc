// readmatrix / writematrix for delimited text files (.csv, .txt, .dat).
//
// readmatrix rules (MATLAB): the delimiter is detected per file (',' then tab then ';' then
// '|', else runs of blanks) unless 'Delimiter' is given; leading header lines whose fields are
// not all numeric are skipped unless 'NumHeaderLines' is given; empty lines are skipped; empty
// or non-numeric fields become NaN; short rows are padded with NaN to the widest row.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <fstream>
#include <optional>

#include "builtins/files_util.h"

#include "runtime/atomic_file.h"
#include "builtins/format.h"

namespace matfuse {

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

/// Delimiter names MATLAB accepts ('comma', 'tab', ...) or the characters themselves.
std::string delimiter_arg(const Value& v, std::string_view fname) {
  if (v.is_cell() && v.numel() >= 1) return delimiter_arg(v.cell()[0], fname);
  std::string d = text_arg(v, fname, 0);
  std::string l = lower(d);
  if (l == "comma") return ",";
  if (l == "space") return " ";
  if (l == "tab" || d == "\\t") return "\t";
  if (l == "semi") return ";";
  if (l == "bar") return "|";
  if (d.empty())
    throw_error("MATLAB:textio:io:InvalidDelimiter", "Delimiter must not be empty.");
  return d;
}

/// Splits a line at `delim` (" " means runs of blanks/tabs); quotes are stripped.
std::vector<std::string> split_fields(const std::string& line, const std::string& delim) {
  std::vector<std::string> out;
  if (delim == " ") {
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      if (i >= line.size()) break;
      size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
      out.push_back(line.substr(i, j - i));
      i = j;
    }
    return out;
  }
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '"') {
      quoted = !quoted;
      continue;
    }
    if (!quoted && line.compare(i, delim.size(), delim) == 0) {
      out.push_back(cur);
      cur.clear();
      i += delim.size() - 1;
      continue;
    }
    cur.push_back(c);
  }
  out.push_back(cur);
  return out;
}

/// The field as a number; nullopt for text that is not a number (empty gives NaN).
std::optional<double> field_number(const std::string& f) {
  std::string t = trim(f);
  if (t.empty()) return std::nan("");
  const char* s = t.c_str();
  char* end = nullptr;
  double d = std::strtod(s, &end);
  if (end == s || *end != '\0') return std::nullopt;
  return d;
}

[[noreturn]] void file_not_found(const std::string& path) {
  throw_error("MATLAB:textio:textio:FileNotFound",
              "Unable to find or open '%s'. Check the path and filename or file permissions.",
              path.c_str());
}

/// A = readmatrix(filename, 'Delimiter', d, 'NumHeaderLines', n, 'OutputType', cls):
/// double matrix (rows x widest row) of the file's numeric fields. Errors:
/// MATLAB:textio:textio:FileNotFound, MATLAB:InputParser:UnmatchedParameter.
Outputs bi_readmatrix(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 1);
  std::string path = text_arg(args[0], "readmatrix", 1);
  std::string delim;
  int64_t header = -1;
  std::string out_type = "double";
  if ((args.size() - 1) % 2 != 0)
    throw_error("MATLAB:InputParser:ParamMissingValue",
                "Name-value arguments must come in pairs.");
  for (size_t i = 1; i + 1 < args.size(); i += 2) {
    std::string key = lower(text_arg(args[i], "readmatrix", static_cast<int>(i) + 1));
    if (key == "delimiter") delim = delimiter_arg(args[i + 1], "readmatrix");
    else if (key == "numheaderlines") header = args[i + 1].to_index("NumHeaderLines");
    else if (key == "outputtype") out_type = text_arg(args[i + 1], "readmatrix", 0);
    else if (key == "filetype" || key == "range" || key == "emptylinerule") continue;
    else
      throw_error("MATLAB:InputParser:UnmatchedParameter",
                  "'%s' is not a recognized parameter.", key.c_str());
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) file_not_found(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) file_not_found(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  if (delim.empty()) {
    std::string text;
    for (size_t i = 0; i < lines.size() && i < 50; ++i) text += lines[i];
    for (const char* d : {",", "\t", ";", "|"})
      if (text.find(d) != std::string::npos) {
        delim = d;
        break;
      }
    if (delim.empty()) delim = " ";
  }
  std::vector<std::vector<double>> rows;
  size_t width = 0;
  bool in_header = header < 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (header >= 0 && static_cast<int64_t>(i) < header) continue;
    if (trim(lines[i]).empty()) continue;
    std::vector<std::string> fields = split_fields(lines[i], delim);
    std::vector<double> row;
    bool all_numeric = true;
    for (const auto& f : fields) {
      auto v = field_number(f);
      all_numeric = all_numeric && v.has_value();
      row.push_back(v ? *v : std::nan(""));
    }
    if (in_header && !all_numeric) continue;
    in_header = false;
    width = std::max(width, row.size());
    rows.push_back(std::move(row));
  }
  int64_t m = static_cast<int64_t>(rows.size()), n = static_cast<int64_t>(width);
  Tensor t = Tensor::uninit(ClassId::Double, Dims(m, n));
  double* p = t.mutable_data<double>();
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      const auto& row = rows[static_cast<size_t>(r)];
      p[c * m + r] = c < static_cast<int64_t>(row.size()) ? row[static_cast<size_t>(c)]
                                                          : std::nan("");
    }
  Value v(std::move(t));
  if (lower(out_type) != "double") {
    Value a[1] = {v};
    return ctx.call_named(lower(out_type), Args(a, 1), 1);
  }
  return {v};
}

std::string number_text(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Inf" : "-Inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  return buf;
}

/// Text of element i of a writable value (numeric, logical, char row, string, cell of those).
std::string element_text(const Value& v, int64_t i, const std::string& delim) {
  auto quote = [&](const std::string& s) {
    return s.find(delim) != std::string::npos ? "\"" + s + "\"" : s;
  };
  if (v.is_string()) {
    const auto& e = v.string_array()[i];
    return e ? quote(*e) : std::string();
  }
  if (v.is_cell()) {
    const Value& e = v.cell()[i];
    if (e.is_text()) return quote(e.to_text());
    if (e.is_tensor() && e.numel() == 1) return element_text(e, 0, delim);
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

/// writematrix(A[, filename], 'Delimiter', d, 'WriteMode', 'overwrite'|'append'): writes a
/// numeric, logical, string, char or cell matrix as delimited text (numbers with 15
/// significant digits; char arrays one row per line). Default file "matrix.txt", delimiter
/// ','. Errors: MATLAB:table:write:FileOpenError, matfuse:notAvailable for spreadsheets.
Outputs bi_writematrix(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 0);
  const Value& a = args[0];
  std::string path = "matrix.txt";
  size_t i = 1;
  if (args.size() % 2 == 0) path = text_arg(args[i++], "writematrix", 2);
  std::string delim = ",";
  bool append = false;
  for (; i + 1 < args.size(); i += 2) {
    std::string key = lower(text_arg(args[i], "writematrix", static_cast<int>(i) + 1));
    if (key == "delimiter") delim = delimiter_arg(args[i + 1], "writematrix");
    else if (key == "writemode") append = lower(text_arg(args[i + 1], "writematrix", 0)) == "append";
    else if (key == "filetype" || key == "quotestrings" || key == "encoding") continue;
    else
      throw_error("MATLAB:InputParser:UnmatchedParameter",
                  "'%s' is not a recognized parameter.", key.c_str());
  }
  if (i < args.size())
    throw_error("MATLAB:InputParser:ParamMissingValue",
                "Name-value arguments must come in pairs.");
  std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext == ".xls" || ext == ".xlsx" || ext == ".xlsm" || ext == ".ods")
    throw_error("matfuse:notAvailable", "writematrix cannot write spreadsheet files.");
  if (!(a.is_tensor() || a.is_string() || a.is_cell()))
    throw_error("MATLAB:writematrix:UnsupportedInput",
                "Input must be a numeric, logical, char, string or cell array.");
  Dims d = a.dims();
  if (d.ndims() > 2) d = Dims(d[0], a.numel() / std::max<int64_t>(d[0], 1));
  // The text first, then one atomic write (a full disk leaves the old file as it was).
  std::ostringstream out;
  int64_t rows = d.rows(), cols = d.cols();
  if (a.is_char()) {
    Tensor t = a.tensor();
    for (int64_t r = 0; r < rows; ++r) {
      Tensor row = Tensor::uninit(ClassId::Char, Dims(1, cols));
      for (int64_t c = 0; c < cols; ++c) row.set_double(c, t.get_double(c * rows + r));
      out << row.to_utf8() << "\n";
    }
  } else {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        if (c) out << delim;
        out << element_text(a, c * rows + r, delim);
      }
      out << "\n";
    }
  }
  const char* id = "MATLAB:table:write:FileOpenError";
  write_file_atomic(path, (append ? read_for_append(path, id) : std::string()) + out.str(), id);
  return {};
}

}  // namespace

void register_files_csv(Registry& r) {
  r.add("readmatrix", bi_readmatrix);
  r.add("writematrix", bi_writematrix);
}

}  // namespace matfuse
