// Builtins of the "files" family: load and save (MAT-files through files_mat.cc, ASCII text
// here), plus the registration entry point for readmatrix/writematrix (files_csv.cc) and the
// file-system and time functions (files_sys.cc).
//
// ASCII files (MATLAB `save -ascii` / `load` of text): one matrix row per line, numbers
// separated by blanks, tabs or commas; text after '%' is a comment; every row must have the
// same number of columns. `load f.txt` assigns the matrix to a variable named after the file
// (invalid characters become '_', a leading non-letter gets an 'X' prefix).
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "builtins/files_util.h"
#include "builtins/format.h"
#include "builtins/misc.h"

namespace matfuse {

namespace files_detail {

void warn(CallContext& ctx, const char* id, const std::string& msg) {
  Value a[3] = {char_row(id), char_row("%s"), char_row(msg)};
  ctx.call_named("warning", Args(a, 3), 0);
}

/// Parses one ASCII numeric line into values (NaN, Inf, -Inf accepted). False on bad text.
bool parse_ascii_line(const std::string& line, std::vector<double>& vals) {
  size_t i = 0, n = line.size();
  while (i < n) {
    char c = line[i];
    if (c == '%') break;
    if (c == ' ' || c == '\t' || c == ',' || c == '\r' || c == ';') {
      ++i;
      continue;
    }
    const char* start = line.c_str() + i;
    char* end = nullptr;
    double d = std::strtod(start, &end);
    if (end == start) return false;
    vals.push_back(d);
    i += static_cast<size_t>(end - start);
    if (i < n && !(line[i] == ' ' || line[i] == '\t' || line[i] == ',' || line[i] == '\r' ||
                   line[i] == ';' || line[i] == '%'))
      return false;
  }
  return true;
}

Value load_ascii(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw_error("MATLAB:load:couldNotReadFile", "Unable to find file or directory '%s'.",
                path.c_str());
  std::vector<double> all;
  int64_t cols = -1, rows = 0, lineno = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++lineno;
    std::vector<double> vals;
    if (!parse_ascii_line(line, vals))
      throw_error("MATLAB:load:unableToReadAsciiFile",
                  "Unable to read file '%s'. Input must be a MAT-file or an ASCII file "
                  "containing numeric data with same number of columns in each row.",
                  path.c_str());
    if (vals.empty()) continue;
    if (cols >= 0 && static_cast<int64_t>(vals.size()) != cols)
      throw_error("MATLAB:load:numColumnsNotSame",
                  "Number of columns on line %lld of ASCII file %s must be the same as "
                  "previous lines.",
                  static_cast<long long>(lineno), path.c_str());
    cols = static_cast<int64_t>(vals.size());
    all.insert(all.end(), vals.begin(), vals.end());
    ++rows;
  }
  if (rows == 0) return Value(Tensor());
  Tensor t = Tensor::uninit(ClassId::Double, Dims(rows, cols));
  double* p = t.mutable_data<double>();
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) p[c * rows + r] = all[static_cast<size_t>(r * cols + c)];
  return Value(std::move(t));
}

/// Variable name MATLAB gives to the matrix of an ASCII file: the file's stem with invalid
/// characters replaced by '_' and an 'X' prefix when it does not start with a letter.
std::string ascii_var_name(const std::string& path) {
  std::string stem = std::filesystem::path(path).stem().string();
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (stem.empty() || !std::isalpha(static_cast<unsigned char>(stem[0]))) stem = "X" + stem;
  if (stem.size() > 63) stem.resize(63);
  return stem;
}

void save_ascii(const std::string& path, const std::vector<std::pair<std::string, Value>>& vars,
                bool dbl, bool tabs, bool append) {
  std::ofstream out(path, append ? std::ios::app : std::ios::trunc);
  if (!out)
    throw_error("MATLAB:save:couldNotWriteFile", "Unable to write file %s: %s.", path.c_str(),
                "No such file or directory");
  for (const auto& [name, v] : vars) {
    if (!v.is_tensor())
      throw_error("MATLAB:save:asciiUnsupported",
                  "Variable '%s' cannot be saved to an ASCII file: only numeric, logical and "
                  "char arrays are supported.",
                  name.c_str());
    Tensor t = v.tensor();
    if (t.dims().ndims() > 2)
      throw_error("MATLAB:save:asciiUnsupported",
                  "Variable '%s' cannot be saved to an ASCII file: it has more than two "
                  "dimensions.",
                  name.c_str());
    int64_t rows = t.dims().rows(), cols = t.dims().cols();
    char buf[64];
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        double d = t.get_double(c * rows + r);
        std::snprintf(buf, sizeof buf, dbl ? "%.16e" : "%.7e", d);
        out << (tabs ? (c ? "\t" : "") : "   ") << buf;
      }
      out << "\n";
    }
  }
  if (!out)
    throw_error("MATLAB:save:couldNotWriteFile", "Unable to write file %s.", path.c_str());
}

bool has_extension(const std::string& path) {
  return !std::filesystem::path(path).extension().empty();
}

}  // namespace files_detail

namespace {

using namespace files_detail;

/// load(filename), load(filename, vars...), load(..., '-ascii'|'-mat'), S = load(...).
/// MAT-files: every (or each named) variable is assigned in the caller's workspace, or returned
/// as the fields of a struct S. ASCII files: the matrix is assigned to a variable named after
/// the file, or returned. A name without extension gets ".mat". Errors:
/// MATLAB:load:couldNotReadFile (missing file), MATLAB:load:numColumnsNotSame,
/// MATLAB:load:unableToReadAsciiFile, MATLAB:load:unableToReadMatFile.
Outputs bi_load(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  std::string file;
  bool force_ascii = false, force_mat = false;
  std::vector<std::string> wanted;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_text())
      throw_error("MATLAB:load:invalidInput",
                  "Argument must be a character vector or string scalar.");
    std::string s = args[i].to_text();
    if (s == "-ascii") force_ascii = true;
    else if (s == "-mat") force_mat = true;
    else if (file.empty()) file = s;
    else wanted.push_back(s);
  }
  if (file.empty()) file = "matlab.mat";
  std::error_code ec;
  if (!has_extension(file) && !std::filesystem::exists(file, ec)) file += ".mat";
  if (!std::filesystem::is_regular_file(file, ec))
    throw_error("MATLAB:load:couldNotReadFile", "Unable to find file or directory '%s'.",
                file.c_str());
  // MATLAB reads a .mat file as a MAT-file whatever it holds (-ascii overrides).
  const std::string ext = std::filesystem::path(file).extension().string();
  bool mat = force_mat || (!force_ascii && (is_mat_file(file) || ext == ".mat"));
  if (!mat) {
    Value m = load_ascii(file);
    if (nargout >= 1) return {m};
    ctx.assign_variable(ascii_var_name(file), m);
    return {};
  }
  std::vector<std::string> skipped;
  auto vars = mat_load(file, skipped);
  for (const auto& s : skipped)
    warn(ctx, "MATLAB:load:unsupportedVariable",
         "Variable " + s + " could not be loaded: its class is not supported.");
  std::vector<std::pair<std::string, Value>> chosen;
  if (wanted.empty()) {
    chosen = std::move(vars);
  } else {
    for (const auto& w : wanted) {
      bool found = false;
      for (const auto& kv : vars)
        if (kv.first == w) {
          chosen.push_back(kv);
          found = true;
        }
      if (!found)
        warn(ctx, "MATLAB:load:variableNotFound",
             "Variable '" + w + "' not found.");
    }
  }
  if (nargout >= 1) {
    StructArray s(Dims(1, 1));
    for (const auto& [n, v] : chosen) s.at(0, s.add_field(n)) = v;
    return {Value(std::move(s))};
  }
  for (const auto& [n, v] : chosen) ctx.assign_variable(n, v);
  return {};
}

/// save(filename), save(filename, vars...), save(..., '-struct', s[, fields...]),
/// options '-ascii' ('-double', '-tabs'), '-append' (ASCII only), '-mat', '-v7', '-v6',
/// '-v7.3'. A name without extension gets ".mat" (MAT format). Values of unsupported classes
/// are skipped with a warning. Errors: MATLAB:save:variableNotFound, MATLAB:save:couldNotWriteFile,
/// MATLAB:save:notAStruct.
Outputs bi_save(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 0);
  std::string file;
  bool ascii = false, dbl = false, tabs = false, append = false, v73 = false, as_struct = false;
  std::vector<std::string> names;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_text())
      throw_error("MATLAB:save:invalidInput",
                  "Argument must be a character vector or string scalar.");
    std::string s = args[i].to_text();
    if (s == "-ascii") ascii = true;
    else if (s == "-double") dbl = true;
    else if (s == "-tabs") tabs = true;
    else if (s == "-append") append = true;
    else if (s == "-v7.3") v73 = true;
    else if (s == "-struct") as_struct = true;
    else if (s == "-mat" || s == "-v7" || s == "-v6" || s == "-v4" || s == "-nocompression")
      continue;
    else if (!s.empty() && s[0] == '-')
      throw_error("MATLAB:save:unknownOption", "Unknown option '%s'.", s.c_str());
    else if (file.empty()) file = s;
    else names.push_back(s);
  }
  if (file.empty()) file = "matlab.mat";
  if (!ascii && !has_extension(file)) file += ".mat";
  auto ws = ctx.workspace_variables();
  auto lookup = [&](const std::string& n) -> const Value* {
    for (const auto& kv : ws)
      if (kv.first == n) return &kv.second;
    return nullptr;
  };
  std::vector<std::pair<std::string, Value>> vars;
  if (as_struct) {
    if (names.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
    const Value* s = lookup(names[0]);
    if (!s) throw_error("MATLAB:save:variableNotFound", "Variable '%s' not found.",
                        names[0].c_str());
    if (!s->is_struct() || s->numel() != 1)
      throw_error("MATLAB:save:notAStruct",
                  "The argument to -STRUCT must be the name of a scalar structure variable.");
    const StructArray& sa = s->struct_array();
    std::vector<std::string> fields(names.begin() + 1, names.end());
    if (fields.empty()) fields = sa.fields();
    for (const auto& f : fields) {
      int k = sa.field_index(f);
      if (k < 0)
        throw_error("MATLAB:save:variableNotFound", "Variable '%s' not found.", f.c_str());
      vars.emplace_back(f, sa.get(0, k));
    }
  } else if (names.empty()) {
    vars = ws;
  } else {
    for (const auto& n : names) {
      const Value* v = lookup(n);
      if (!v) throw_error("MATLAB:save:variableNotFound", "Variable '%s' not found.", n.c_str());
      vars.emplace_back(n, *v);
    }
  }
  if (ascii) {
    save_ascii(file, vars, dbl, tabs, append);
    return {};
  }
  if (append) {
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) {
      std::vector<std::string> ignored;
      auto old = mat_load(file, ignored);
      for (auto& kv : old) {
        bool replaced = false;
        for (const auto& nv : vars) replaced = replaced || nv.first == kv.first;
        if (!replaced) vars.push_back(std::move(kv));
      }
    }
  }
  std::vector<std::string> skipped;
  mat_save(file, vars, v73, skipped);
  for (const auto& s : skipped)
    warn(ctx, "MATLAB:save:unsupportedVariable",
         "Variable " + s + " was not saved: its class is not supported.");
  return {};
}

}  // namespace

void register_files(Registry& r) {
  r.add("load", bi_load);
  r.add("save", bi_save);
  register_files_csv(r);
  register_files_text(r);
  register_files_sys(r);
}

}  // namespace matfuse
