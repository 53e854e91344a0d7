// csvread, dlmread, csvwrite, dlmwrite (MATLAB's older numeric text functions) and fileread.
//
// - M = csvread(filename[, R1, C1[, [R1 C1 R2 C2]]]) and M = dlmread(filename[, delimiter[,
//   R1, C1]][, range]): the numeric fields from the zero-based row R1 and column C1 on (range
//   as [R1 C1 R2 C2] or spreadsheet text 'A1..C3' / 'A1:C3'); empty fields and short rows are
//   0 ('EmptyValue' changes that for dlmread). The delimiter is detected unless given (csvread:
//   ','). A text field in the range is an error, as in MATLAB. Files are read as text_import.h
//   says (BOM, CRLF, RFC 4180 quotes).
// - csvwrite(filename, M[, R, C]) and dlmwrite(filename, M[, delimiter[, R, C]][, '-append'],
//   Name, Value): numeric or char data with five significant digits ('precision' gives the
//   digits or a printf format), R empty lines and C empty fields before the data ('roffset',
//   'coffset'), 'newline' 'pc' (CRLF) or 'unix'. Written through write_text_file.
// - text = fileread(filename): the file's text as a char row (UTF-8 decoded, a BOM kept as
//   U+FEFF like MATLAB). Errors: MATLAB:fileread:cannotOpenFile.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "builtins/files_util.h"
#include "builtins/format.h"
#include "builtins/text_import.h"

namespace matfuse {

namespace {

using text_import::Record;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Zero-based [r0 c0 r1 c1] range (r1/c1 < 0: to the end).
struct Block {
  int64_t r0 = 0, c0 = 0, r1 = -1, c1 = -1;
};

int64_t offset_arg(const Value& v, const char* what) {
  double d = v.to_double(what);
  // Inf (and anything from 2^63 up) is no row or column offset; its cast would be undefined.
  if (!(d >= 0) || d != std::floor(d) || d >= 9.2e18)
    throw_error("MATLAB:dlmread:InvalidOffset", "%s must be a nonnegative integer.", what);
  return static_cast<int64_t>(d);
}

/// A range argument of dlmread/csvread: [R1 C1 R2 C2] or spreadsheet text ("A1..C3").
Block range_arg(const Value& v) {
  Block b;
  if (v.is_text()) {
    std::string s = v.to_text();
    size_t dots = s.find("..");
    if (dots != std::string::npos) s.replace(dots, 2, ":");
    text_import::Range r = text_import::parse_range(Value::from_chars(s));
    return {r.r0, r.c0, r.r1, r.c1};
  }
  Tensor t = v.tensor();
  if (t.numel() != 4)
    throw_error("MATLAB:dlmread:InvalidRange", "Range must be [R1 C1 R2 C2].");
  int64_t q[4];
  for (int k = 0; k < 4; ++k) {
    double d = t.get_double(k);
    if (!(d >= 0) || d != std::floor(d))
      throw_error("MATLAB:dlmread:InvalidRange", "Range must hold nonnegative integers.");
    q[k] = static_cast<int64_t>(d);
  }
  return {q[0], q[1], q[2], q[3]};
}

Value read_numeric(const std::string& path, std::string delim, Block b, double empty_value,
                   const char* fname) {
  const std::string text = text_import::read_file(path);
  if (delim.empty()) delim = text_import::detect_delimiter(text);
  std::vector<Record> recs = text_import::parse_records(text, delim);
  while (!recs.empty() && recs.back().empty()) recs.pop_back();
  const int64_t nrec = static_cast<int64_t>(recs.size());
  int64_t last_row = b.r1 >= 0 ? std::min(b.r1, nrec - 1) : nrec - 1;
  int64_t width = 0;
  for (int64_t r = b.r0; r <= last_row; ++r)
    width = std::max(width, static_cast<int64_t>(recs[static_cast<size_t>(r)].size()));
  int64_t last_col = b.c1 >= 0 ? b.c1 : width - 1;
  const int64_t m = std::max<int64_t>(last_row - b.r0 + 1, 0);
  const int64_t n = std::max<int64_t>(last_col - b.c0 + 1, 0);
  Tensor t = Tensor::uninit(ClassId::Double, Dims(m, n));
  double* p = t.mutable_data<double>();
  for (int64_t r = 0; r < m; ++r) {
    const Record& rec = recs[static_cast<size_t>(r + b.r0)];
    for (int64_t c = 0; c < n; ++c) {
      const int64_t fc = c + b.c0;
      double v = empty_value;
      if (fc < static_cast<int64_t>(rec.size())) {
        bool empty = false;
        auto num = text_import::parse_number(rec[static_cast<size_t>(fc)].text, '.', 0, &empty);
        if (num) {
          v = *num;
        } else if (!empty) {
          throw_error("MATLAB:textscan:handleErrorAndShowInfo",
                      "Mismatch between file and format character vector.\nTrouble reading "
                      "'Numeric' field from file (row number %lld, field number %lld) ==> %s",
                      static_cast<long long>(r + b.r0 + 1), static_cast<long long>(fc + 1),
                      rec[static_cast<size_t>(fc)].text.c_str());
        }
      }
      p[c * m + r] = v;
    }
  }
  (void)fname;
  return Value(std::move(t));
}

Outputs bi_csvread(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 4);
  check_nargout(nargout, 1);
  std::string path = text_arg(args[0], "csvread", 1);
  Block b;
  if (args.size() == 2)
    throw_error("MATLAB:csvread:InvalidInput", "Specify both the row and column offsets.");
  if (args.size() >= 3) {
    b.r0 = offset_arg(args[1], "Row offset");
    b.c0 = offset_arg(args[2], "Column offset");
  }
  if (args.size() == 4) b = range_arg(args[3]);
  return {read_numeric(path, ",", b, 0.0, "csvread")};
}

Outputs bi_dlmread(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 1);
  std::string path = text_arg(args[0], "dlmread", 1);
  std::string delim;
  Block b;
  double empty_value = 0;
  std::vector<Value> rest(args.begin() + 1, args.end());
  // Trailing 'EmptyValue', v (Octave and MATLAB's older form).
  if (rest.size() >= 2 && rest[rest.size() - 2].is_text() &&
      lower(rest[rest.size() - 2].to_text()) == "emptyvalue") {
    empty_value = rest.back().to_double("EmptyValue");
    rest.resize(rest.size() - 2);
  }
  size_t i = 0;
  if (i < rest.size() && rest[i].is_text() && !(rest.size() == 1 && rest[i].to_text().size() > 2 &&
                                                rest[i].to_text().find_first_of(":.") !=
                                                    std::string::npos)) {
    std::string d = rest[i++].to_text();
    if (d == "\\t") d = "\t";
    delim = d;
  }
  if (rest.size() - i == 1) {
    b = range_arg(rest[i]);
  } else if (rest.size() - i == 2) {
    b.r0 = offset_arg(rest[i], "Row offset");
    b.c0 = offset_arg(rest[i + 1], "Column offset");
  } else if (rest.size() - i == 3) {
    b.r0 = offset_arg(rest[i], "Row offset");
    b.c0 = offset_arg(rest[i + 1], "Column offset");
    b = range_arg(rest[i + 2]);
  } else if (rest.size() != i) {
    throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
  }
  return {read_numeric(path, delim, b, empty_value, "dlmread")};
}

/// One number as dlmwrite writes it: precision as digits (%.Ng) or a printf format.
std::string format_number(double d, const std::string& fmt) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Inf" : "-Inf";
  char buf[128];
  std::snprintf(buf, sizeof buf, fmt.c_str(), d);
  return buf;
}

Outputs write_numeric(const std::string& path, const Value& m, std::string delim, int64_t roff,
                      int64_t coff, const std::string& fmt, const std::string& newline,
                      bool append, const char* fname) {
  if (!(m.is_tensor()))
    throw_error("MATLAB:dlmwrite:InputMustBeNumeric", "The input must be a numeric array.");
  Tensor t = m.tensor();
  if (t.is_complex())
    throw_error("matfuse:notAvailable", "%s does not write complex data.", fname);
  Dims d = t.dims();
  const int64_t rows = d.rows(), cols = d.numel() / std::max<int64_t>(rows, 1);
  std::string text;
  for (int64_t r = 0; r < roff; ++r) {
    for (int64_t c = 1; c < cols + coff; ++c) text += delim;
    text += newline;
  }
  const bool chars = m.is_char();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < coff; ++c) text += delim;
    for (int64_t c = 0; c < cols; ++c) {
      if (c) text += delim;
      double v = t.get_double(c * rows + r);
      if (chars) text += static_cast<char>(v);
      else text += format_number(v, fmt);
    }
    text += newline;
  }
  write_text_file(path, text, append, fname);
  return {};
}

/// The printf format of a 'precision' value: digits N -> "%.Ng", or a format text.
std::string precision_format(const Value& v) {
  if (v.is_text()) {
    std::string f = v.to_text();
    if (f.empty() || f[0] != '%')
      throw_error("MATLAB:dlmwrite:InvalidPrecision", "Precision must be a number or a format.");
    return f;
  }
  double n = v.to_double("precision");
  if (!(n >= 1) || n != std::floor(n) || n > 40)
    throw_error("MATLAB:dlmwrite:InvalidPrecision", "Precision must be a positive integer.");
  return "%." + std::to_string(static_cast<int>(n)) + "g";
}

Outputs bi_csvwrite(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 4);
  check_nargout(nargout, 0);
  std::string path = text_arg(args[0], "csvwrite", 1);
  int64_t r = 0, c = 0;
  if (args.size() == 3)
    throw_error("MATLAB:csvwrite:InvalidInput", "Specify both the row and column offsets.");
  if (args.size() == 4) {
    r = offset_arg(args[2], "Row offset");
    c = offset_arg(args[3], "Column offset");
  }
  return write_numeric(path, args[1], ",", r, c, "%.5g", "\n", false, "csvwrite");
}

Outputs bi_dlmwrite(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, SIZE_MAX);
  check_nargout(nargout, 0);
  std::string path = text_arg(args[0], "dlmwrite", 1);
  std::string delim = ",", fmt = "%.5g", newline = "\n";
  int64_t roff = 0, coff = 0;
  bool append = false;
  size_t i = 2;
  std::vector<Value> positional;
  while (i < args.size()) {
    if (args[i].is_text()) {
      std::string k = lower(args[i].to_text());
      if (k == "-append") {
        append = true;
        ++i;
        continue;
      }
      if (i + 1 < args.size() && (k == "delimiter" || k == "precision" || k == "newline" ||
                                  k == "roffset" || k == "coffset")) {
        const Value& v = args[i + 1];
        if (k == "delimiter") {
          delim = v.to_text();
          if (delim == "\\t") delim = "\t";
        } else if (k == "precision") {
          fmt = precision_format(v);
        } else if (k == "newline") {
          std::string nl = lower(v.to_text());
          if (nl != "pc" && nl != "unix")
            throw_error("MATLAB:dlmwrite:InvalidNewline", "'newline' must be 'pc' or 'unix'.");
          newline = nl == "pc" ? "\r\n" : "\n";
        } else if (k == "roffset") {
          roff = offset_arg(v, "Row offset");
        } else {
          coff = offset_arg(v, "Column offset");
        }
        i += 2;
        continue;
      }
      if (i == 2) {  // dlmwrite(filename, M, delimiter, ...)
        delim = args[i].to_text();
        if (delim == "\\t") delim = "\t";
        ++i;
        continue;
      }
      throw_error("MATLAB:InputParser:UnmatchedParameter", "'%s' is not a recognized parameter.",
                  args[i].to_text().c_str());
    }
    positional.push_back(args[i++]);
  }
  if (positional.size() == 2) {
    roff = offset_arg(positional[0], "Row offset");
    coff = offset_arg(positional[1], "Column offset");
  } else if (!positional.empty()) {
    throw_error("MATLAB:dlmwrite:InvalidInput", "Specify both the row and column offsets.");
  }
  return write_numeric(path, args[1], delim, roff, coff, fmt, newline, append, "dlmwrite");
}

Outputs bi_fileread(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  std::string path = text_arg(args[0], "fileread", 1);
  std::error_code ec;
  std::ifstream in;
  if (!std::filesystem::is_directory(path, ec)) in.open(path, std::ios::binary);
  if (!in.is_open() || !in)
    throw_error("MATLAB:fileread:cannotOpenFile", "Could not open file %s. No such file or directory.",
                path.c_str());
  std::ostringstream ss;
  ss << in.rdbuf();
  return {char_row(ss.str())};
}

}  // namespace

void register_files_text(Registry& r) {
  r.add("csvread", bi_csvread);
  r.add("dlmread", bi_dlmread);
  r.add("csvwrite", bi_csvwrite);
  r.add("dlmwrite", bi_dlmwrite);
  r.add("fileread", bi_fileread);
}

}  // namespace matfuse
