// whos, help and doc: the workspace table and the function reference at the prompt.
//
// - whos [NAME ...] lists variables of the current workspace in MATLAB's table (Name, Size,
//   Bytes, Class, Attributes; attributes global, persistent, complex); S = whos returns the
//   struct array (name, size, bytes, class, global, sparse, complex, nesting, persistent).
//   NAME may hold * wildcards. Bytes follow MATLAB's accounting: element size times count for
//   numeric, char (2 bytes) and logical arrays; cells and structs add a 104-byte header per
//   element / field value (structs also 64 bytes per field name); strings 2 bytes per character
//   plus a 100-byte header each; function handles 32 bytes; objects 0.
// - help NAME prints a user function's or script's help text, the first block of comment lines
//   after its `function` line (or at the top of the file), with the comment sign removed, as
//   MATLAB does; for a builtin, its documented call forms from the function reference
//   (docs/function_forms.txt, embedded at build time) and whether it runs on a kernel provider.
//   `help` alone prints how to get help. An unknown NAME prints "NAME not found." (no error).
// - doc NAME prints the same reference text (there is no help browser).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/sparse.h"
#include "interp/interp.h"

namespace matfuse {

extern const char* const kFunctionFormsText;

namespace {

namespace fs = std::filesystem;

Interpreter& interp(CallContext& ctx) { return static_cast<Interpreter&>(ctx); }

// ---------------------------------------------------------------- whos

int64_t value_bytes(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::Scalar: return 8;
    case Value::Kind::Array: {
      const Tensor t = v.tensor();
      if (v.is_char()) return 2 * t.numel();
      return static_cast<int64_t>(t.elem_bytes()) * t.numel();
    }
    case Value::Kind::Cell: {
      int64_t b = 0;
      for (int64_t i = 0; i < v.numel(); ++i) b += 104 + value_bytes(v.cell()[i]);
      return b;
    }
    case Value::Kind::Struct: {
      const StructArray& s = v.struct_array();
      int64_t b = 64 * static_cast<int64_t>(s.fields().size());
      for (int64_t e = 0; e < s.numel(); ++e)
        for (size_t f = 0; f < s.fields().size(); ++f)
          b += 104 + value_bytes(s.get(e, static_cast<int>(f)));
      return b;
    }
    case Value::Kind::String: {
      int64_t b = 0;
      for (const auto& e : v.string_array().elems()) b += 100 + (e ? 2 * int64_t(e->size()) : 0);
      return b;
    }
    case Value::Kind::Function: return 32;
    case Value::Kind::Object:
      if (const SparseMatrix* sm = as_sparse(v)) {
        // MATLAB's sparse storage: nzmax values and row indices, n+1 column starts.
        const int64_t vb = sm->is_logical() ? 1 : sm->is_complex() ? 16 : 8;
        return sm->nzmax() * (vb + 8) + (sm->cols() + 1) * 8;
      }
      return 0;
  }
  return 0;
}

std::string size_text(const Dims& d) {
  std::string s;
  for (int k = 0; k < d.ndims(); ++k) {
    if (k) s += "x";
    s += std::to_string(d[k]);
  }
  return s;
}

/// Glob match with '*' (MATLAB's who/whos wildcards).
bool wildcard_match(const std::string& pat, const std::string& s) {
  size_t p = 0, i = 0, star = std::string::npos, mark = 0;
  while (i < s.size()) {
    if (p < pat.size() && (pat[p] == s[i])) {
      ++p;
      ++i;
    } else if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = i;
    } else if (star != std::string::npos) {
      p = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

struct VarInfo {
  std::string name;
  Value value;
  bool global = false, persistent = false;
};

std::vector<VarInfo> frame_variables(Interpreter& in) {
  std::vector<VarInfo> out;
  Frame* f = in.cur_;
  for (size_t k = 0; k < f->layout->names.size() && k < f->slots.size(); ++k) {
    const Slot& s = f->slots[k];
    if (!s.ref && !s.set) continue;
    VarInfo vi;
    vi.name = f->layout->names[k];
    vi.value = s.ref ? *s.ref : s.v;
    if (s.ref) {
      auto g = in.globals_.find(vi.name);
      vi.global = g != in.globals_.end() && &g->second == s.ref;
      vi.persistent = !vi.global;
    }
    out.push_back(std::move(vi));
  }
  std::sort(out.begin(), out.end(), [](const VarInfo& a, const VarInfo& b) {
    return a.name < b.name;
  });
  return out;
}

bool is_complex_value(const Value& v) {
  if (const SparseMatrix* sm = as_sparse(v)) return sm->is_complex();
  return v.kind() == Value::Kind::Array && v.tensor().is_complex();
}

Outputs bi_whos(CallContext& ctx, Args args, int nargout) {
  check_nargout(nargout, 1);
  Interpreter& in = interp(ctx);
  std::vector<std::string> pats;
  for (const Value& a : args) {
    std::string p = a.to_text("variable name");
    if (!p.empty() && p[0] == '-')
      throw_error("MATLAB:whos:unsupportedOption", "Option '%s' is not supported.", p.c_str());
    pats.push_back(p);
  }
  std::vector<VarInfo> vars;
  for (auto& v : frame_variables(in)) {
    bool keep = pats.empty();
    for (const auto& p : pats) keep = keep || wildcard_match(p, v.name);
    if (keep) vars.push_back(std::move(v));
  }
  if (nargout > 0) {
    static const char* const kFields[] = {"name",    "size",   "bytes",   "class",     "global",
                                          "sparse",  "complex", "nesting", "persistent"};
    StructArray s(Dims(static_cast<int64_t>(vars.size()), 1));
    for (const char* f : kFields) s.add_field(f);
    for (size_t i = 0; i < vars.size(); ++i) {
      const auto e = static_cast<int64_t>(i);
      const VarInfo& v = vars[i];
      const Dims d = v.value.dims();
      Tensor sz = Tensor::zeros(ClassId::Double, Dims(1, d.ndims()));
      for (int k = 0; k < d.ndims(); ++k) sz.set_double(k, static_cast<double>(d[k]));
      StructArray nest;
      nest.add_field("function");
      nest.add_field("level");
      nest.at(0, 0) = Value::from_chars(in.cur_->name);
      nest.at(0, 1) = Value(1.0);
      s.at(e, 0) = Value::from_chars(v.name);
      s.at(e, 1) = Value(std::move(sz));
      s.at(e, 2) = Value(static_cast<double>(value_bytes(v.value)));
      s.at(e, 3) = Value::from_chars(v.value.class_name());
      s.at(e, 4) = Value::logical(v.global);
      s.at(e, 5) = Value::logical(as_sparse(v.value) != nullptr);
      s.at(e, 6) = Value::logical(is_complex_value(v.value));
      s.at(e, 7) = Value(std::move(nest));
      s.at(e, 8) = Value::logical(v.persistent);
    }
    return {Value(std::move(s))};
  }
  if (vars.empty()) return {};
  size_t name_w = 4, size_w = 4, class_w = 5;
  std::vector<std::string> sizes, bytes, classes, attrs;
  size_t bytes_w = 5;
  for (const auto& v : vars) {
    name_w = std::max(name_w, v.name.size());
    sizes.push_back(size_text(v.value.dims()));
    size_w = std::max(size_w, sizes.back().size());
    bytes.push_back(std::to_string(value_bytes(v.value)));
    bytes_w = std::max(bytes_w, bytes.back().size());
    classes.push_back(v.value.class_name());
    class_w = std::max(class_w, classes.back().size());
    std::string a = v.global ? "global" : v.persistent ? "persistent" : "";
    if (as_sparse(v.value)) a += a.empty() ? "sparse" : ", sparse";
    if (is_complex_value(v.value)) a += a.empty() ? "complex" : ", complex";
    attrs.push_back(a);
  }
  // MATLAB's layout: Name padded to at least 10, Size to 16 (with Bytes right-aligned in the
  // 5 columns after it), Class to 10, then Attributes.
  name_w = std::max<size_t>(name_w + 2, 10);
  size_w = std::max<size_t>(size_w + 4, 16);
  class_w = std::max<size_t>(class_w + 2, 10);
  auto pad = [](std::string s, size_t w) {
    if (s.size() < w) s.resize(w, ' ');
    return s;
  };
  auto rpad = [](const std::string& s, size_t w) {
    return s.size() < w ? std::string(w - s.size(), ' ') + s : s;
  };
  std::ostringstream os;
  os << "  " << pad("Name", name_w) << pad("Size", size_w) << rpad("Bytes", bytes_w) << "  "
     << pad("Class", class_w) << "Attributes\n\n";
  for (size_t i = 0; i < vars.size(); ++i) {
    std::string row = "  " + pad(vars[i].name, name_w) + pad(sizes[i], size_w) +
                      rpad(bytes[i], bytes_w) + "  " + pad(classes[i], class_w) + attrs[i];
    while (!row.empty() && row.back() == ' ') row.pop_back();
    os << row << "\n";
  }
  os << "\n";
  *in.session_.out << os.str();
  return {};
}

// ---------------------------------------------------------------- help, doc

/// The embedded reference line of a builtin: its forms and whether it runs on a provider.
bool reference_entry(const std::string& name, std::vector<std::string>& forms, bool& gpu) {
  std::istringstream is(kFunctionFormsText);
  std::string line;
  while (std::getline(is, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t bar = line.find('|');
    if (bar == std::string::npos) continue;
    std::string n = line.substr(0, bar);
    while (!n.empty() && n.back() == ' ') n.pop_back();
    if (n != name) continue;
    size_t last = line.rfind('|');
    std::string mid = line.substr(bar + 1, last > bar ? last - bar - 1 : std::string::npos);
    std::string g = line.substr(last + 1);
    gpu = g.find("yes") != std::string::npos;
    std::string part;
    std::istringstream fs_(mid);
    while (std::getline(fs_, part, ';')) {
      size_t a = part.find_first_not_of(' '), b = part.find_last_not_of(' ');
      if (a != std::string::npos) forms.push_back(part.substr(a, b - a + 1));
    }
    return true;
  }
  return false;
}

/// The file of a user function or script NAME (the folders the interpreter searches).
std::string find_m_file(Interpreter& in, const std::string& name) {
  std::error_code ec;
  if (fs::path(name).extension() == ".m" && fs::is_regular_file(name, ec)) return name;
  std::vector<std::string> dirs;
  if (!in.cur_->file.empty()) dirs.push_back(fs::path(in.cur_->file).parent_path().string());
  dirs.push_back(in.script_dir_.empty() ? fs::current_path(ec).string() : in.script_dir_);
  dirs.insert(dirs.end(), in.path_.begin(), in.path_.end());
  for (const auto& d : dirs) {
    if (d.empty()) continue;
    fs::path p = fs::path(d) / (name + ".m");
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return "";
}

/// The help text of a .m file: the first comment block after the function line (or, when
/// there is none, the one at the top of the file), each line without its comment sign.
std::string m_file_help(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::string> lines;
  std::string l;
  while (std::getline(f, l)) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  auto trim_left = [](const std::string& s) {
    size_t a = s.find_first_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a);
  };
  auto is_comment = [&](const std::string& s) {
    std::string t = trim_left(s);
    return !t.empty() && (t[0] == '%' || t[0] == '#') && t.rfind("%{", 0) != 0;
  };
  auto block_at = [&](size_t i) {
    std::string out;
    for (; i < lines.size() && is_comment(lines[i]); ++i) {
      std::string t = trim_left(lines[i]);
      out += t.substr(1) + "\n";
    }
    return out;
  };
  size_t i = 0;
  while (i < lines.size() && trim_left(lines[i]).empty()) ++i;
  if (i < lines.size() && trim_left(lines[i]).rfind("function", 0) == 0) {
    size_t j = i;
    // The signature may continue over `...` lines.
    while (j < lines.size() && lines[j].find("...") != std::string::npos) ++j;
    ++j;
    while (j < lines.size() && trim_left(lines[j]).empty()) ++j;
    std::string after = block_at(j);
    if (!after.empty()) return after;
    return "";
  }
  std::string before = block_at(i);
  if (!before.empty()) return before;
  return "";
}

std::string help_text(Interpreter& in, const std::string& name, bool doc) {
  std::string file = find_m_file(in, name);
  if (!file.empty()) {
    std::string h = m_file_help(file);
    if (h.empty()) return "No help found for " + name + ".\n";
    return h + "\n";
  }
  std::vector<std::string> forms;
  bool gpu = false;
  if (reference_entry(name, forms, gpu)) {
    std::string s = " " + name + " - matfuse builtin\n\n";
    for (const auto& f : forms) s += "    " + f + "\n";
    s += std::string("\n    Runs on a kernel provider (GPU): ") + (gpu ? "yes" : "no") + "\n";
    if (doc) s += "    Reference: docs/functions.md\n";
    return s + "\n";
  }
  if (builtins().find(name) || in.own_builtins_.find(name))
    return " " + name + " is a built-in function.\n\n";
  return name + " not found.\n\n";
}

Outputs help_or_doc(CallContext& ctx, Args args, int nargout, bool doc) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, doc ? 0 : 1);
  Interpreter& in = interp(ctx);
  std::string text;
  if (args.empty()) {
    text =
        "  help NAME  shows the help of a function: for a .m file the comment block after its\n"
        "             function line; for a builtin its call forms from the function reference.\n"
        "  doc NAME   the same text; the full reference is docs/functions.md.\n"
        "  whos       lists the variables of the workspace.\n\n";
  } else {
    text = help_text(in, args[0].to_text("function name"), doc);
  }
  if (nargout > 0) return {Value::from_chars(text)};
  *in.session_.out << text;
  return {};
}

Outputs bi_help(CallContext& ctx, Args args, int nargout) {
  return help_or_doc(ctx, args, nargout, false);
}
Outputs bi_doc(CallContext& ctx, Args args, int nargout) {
  return help_or_doc(ctx, args, nargout, true);
}

}  // namespace

void register_help_builtins(Registry& r) {
  r.add("whos", bi_whos);
  r.add("help", bi_help);
  r.add("doc", bi_doc);
}

}  // namespace matfuse
