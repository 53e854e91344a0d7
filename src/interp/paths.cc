// The function search path and the builtins that need interpreter internals: addpath, rmpath,
// path, exist, eval, evalin, assignin, feval, nargin/nargout(fn), narginchk, clear, clearvars,
// who, run, func2str, str2func, mfilename, builtin, rethrow (lasterr: builtins/misc.cc).
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "builtins/gpu.h"
#include "interp/interp.h"
#include "runtime/mexception.h"

namespace matfuse {

namespace fs = std::filesystem;

std::shared_ptr<CodeUnit> Interpreter::find_path_unit(const std::string& name) {
  auto it = path_cache_.find(name);
  if (it != path_cache_.end()) return it->second;
  std::shared_ptr<CodeUnit> found;
  std::vector<std::string> dirs;
  if (!script_dir_.empty()) {
    dirs.push_back(script_dir_);
  } else {
    std::error_code ec;
    dirs.push_back(fs::current_path(ec).string());
  }
  dirs.insert(dirs.end(), path_.begin(), path_.end());
  for (const auto& d : dirs) {
    std::error_code ec;
    fs::path p = fs::path(d) / (name + ".m");
    if (fs::is_regular_file(p, ec)) {
      found = load_unit(p.string());
      break;
    }
    p = fs::path(d) / ("@" + name) / (name + ".m");  // class folder @NAME/NAME.m
    if (fs::is_regular_file(p, ec)) {
      found = load_unit(p.string());
      break;
    }
  }
  path_cache_[name] = found;
  return found;
}

static std::string normalize_dir(std::string d) {
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  return d;
}

void Interpreter::add_path(const std::string& dir0, bool at_end) {
  std::string dir = normalize_dir(dir0);
  remove_path(dir);
  if (at_end)
    path_.push_back(dir);
  else
    path_.insert(path_.begin(), dir);
  clear_functions();
}

void Interpreter::remove_path(const std::string& dir0) {
  std::string dir = normalize_dir(dir0);
  std::erase(path_, dir);
  clear_functions();
}

int Interpreter::exist(std::string_view name_sv) {
  std::string name(name_sv);
  bool found = false;
  variable_value(*cur_, name, &found);
  if (found) return 1;
  ResolvedFn r = resolve_function(name, cur_->unit);
  if (r.kind == ResolvedFn::Kind::User || r.kind == ResolvedFn::Kind::Script) return 2;
  if (r.kind == ResolvedFn::Kind::Builtin) return 5;
  std::error_code ec;
  if (fs::is_directory(name, ec)) return 7;
  if (fs::is_regular_file(name, ec)) return 2;
  return 0;
}

namespace {

Interpreter& interp(CallContext& ctx) {
  auto* in = dynamic_cast<Interpreter*>(&ctx);
  MF_ASSERT(in != nullptr, "interpreter builtin called without an interpreter");
  return *in;
}

std::vector<std::string> split_pathsep(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ':' || c == ';') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string joined_path(const Interpreter& in) {
  std::string s;
  for (const auto& d : in.search_path()) {
    if (!s.empty()) s += ':';
    s += d;
  }
  return s;
}

Outputs bi_addpath(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 64);
  Interpreter& in = interp(ctx);
  std::string old = joined_path(in);
  bool at_end = false;
  std::vector<std::string> dirs;
  for (const auto& a : args) {
    if (a.is_scalar_double()) {
      at_end = a.scalar() == 1;
      continue;
    }
    std::string s = a.to_text("path");
    if (s == "-end") at_end = true;
    else if (s == "-begin" || s == "-frozen") at_end = false;
    else
      for (auto& d : split_pathsep(s)) dirs.push_back(d);
  }
  if (at_end) {
    for (const auto& d : dirs) in.add_path(d, true);
  } else {
    for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) in.add_path(*it, false);
  }
  if (nargout > 0) return {Value::from_chars(old)};
  return {};
}

Outputs bi_rmpath(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 64);
  Interpreter& in = interp(ctx);
  std::string old = joined_path(in);
  for (const auto& a : args)
    for (auto& d : split_pathsep(a.to_text("path"))) in.remove_path(d);
  if (nargout > 0) return {Value::from_chars(old)};
  return {};
}

Outputs bi_path(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 2);
  Interpreter& in = interp(ctx);
  if (!args.empty()) {
    std::vector<std::string> dirs;
    for (const auto& a : args)
      for (auto& d : split_pathsep(a.to_text("path"))) dirs.push_back(d);
    while (!in.search_path().empty()) in.remove_path(in.search_path().front());
    for (const auto& d : dirs) in.add_path(d, true);
  }
  std::string p = joined_path(in);
  if (nargout > 0 || !args.empty()) return {Value::from_chars(p)};
  std::ostream& os = *in.session_.out;
  os << "\n\t\tMATLABPATH\n\n";
  for (const auto& d : in.search_path()) os << "\t" << d << "\n";
  os << "\n";
  return {};
}

/// exist(name) / exist(name, 'var'|'builtin'|'file'|'dir'|'class'): MATLAB codes 0 1 2 5 7 8.
Outputs bi_exist(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Interpreter& in = interp(ctx);
  std::string name = args[0].to_text("name");
  int code;
  if (args.size() == 2) {
    std::string type = args[1].to_text("type");
    bool found = false;
    in.variable_value(*in.cur_, name, &found);
    std::error_code ec;
    if (type == "var") {
      code = found ? 1 : 0;
    } else if (type == "builtin") {
      ResolvedFn r = in.resolve_function(name, in.cur_->unit);
      code = r.kind == ResolvedFn::Kind::Builtin ? 5 : 0;
    } else if (type == "file") {
      ResolvedFn r = in.resolve_function(name, in.cur_->unit);
      code = (r.kind == ResolvedFn::Kind::User || r.kind == ResolvedFn::Kind::Script) ? 2
             : fs::is_directory(name, ec)                                              ? 7
             : fs::is_regular_file(name, ec)                                           ? 2
                                                                                       : 0;
    } else if (type == "dir") {
      code = fs::is_directory(name, ec) ? 7 : 0;
    } else if (type == "class") {
      ResolvedFn r = in.resolve_function(name, in.cur_->unit);
      code = r.kind == ResolvedFn::Kind::Class ? 8 : 0;
    } else {
      throw_error("MATLAB:exist:InvalidType",
                  "Invalid search type '%s'. It must be 'var', 'builtin', 'file', 'dir' or "
                  "'class'.",
                  type.c_str());
    }
  } else {
    code = in.exist(name);
  }
  return {Value(static_cast<double>(code))};
}

Outputs bi_eval(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  Interpreter& in = interp(ctx);
  std::string code = args[0].to_text("expression");
  if (args.size() == 1) return in.eval_text(code, nargout);
  std::string handler = args[1].to_text("catch expression");
  try {
    return in.eval_text(code, nargout);
  } catch (const MatlabError& e) {
    in.session_.last_error_id = e.identifier();
    in.session_.last_error_msg = e.message();
  }
  return in.eval_text(handler, nargout);
}

int workspace_code(const Value& v) {
  std::string ws = v.to_text("workspace");
  if (ws == "base") return 2;
  if (ws == "caller") return 1;
  throw_error("MATLAB:evalin:InvalidWorkspace",
              "Workspace must be 'base' or 'caller'.");
}

Outputs bi_evalin(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  Interpreter& in = interp(ctx);
  int where = workspace_code(args[0]);
  std::string code = args[1].to_text("expression");
  if (args.size() == 2) return in.eval_in(where, code, nargout);
  try {
    return in.eval_in(where, code, nargout);
  } catch (const MatlabError&) {
  }
  return in.eval_in(where, args[2].to_text("catch expression"), nargout);
}

Outputs bi_assignin(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 0);
  Interpreter& in = interp(ctx);
  int where = workspace_code(args[0]);
  std::string name = args[1].to_text("variable name");
  in.assign_in(where, name, args[2]);
  return {};
}

Outputs bi_feval(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  return ctx.call(args[0], args.subspan(1), nargout);
}

/// nargin(fn) / nargout(fn): declared counts, negative when varargin/varargout is used.
Outputs count_args(CallContext& ctx, Args args, bool inputs) {
  Interpreter& in = interp(ctx);
  const char* what = inputs ? "nargin" : "nargout";
  if (args.empty()) {
    Frame* f = in.cur_;
    if (!f->def)
      throw_error(inputs ? "MATLAB:nargin:notInFunction" : "MATLAB:nargout:notInFunction",
                  "You can only call %s from within a MATLAB function.", what);
    return {Value(static_cast<double>(inputs ? f->nargin : f->nargout))};
  }
  check_nargin(args, 1, 1);
  const ast::FunctionDef* def = nullptr;
  if (args[0].is_function()) {
    const FunctionObject* fo = args[0].function().get();
    if (auto* a = dynamic_cast<const AnonFunction*>(fo)) {
      const auto& p = a->expr()->params;
      if (!inputs) return {Value(1.0)};
      double n = static_cast<double>(p.size());
      if (!p.empty() && p.back() == "varargin") n = -n;
      return {Value(n)};
    }
    if (auto* nf = dynamic_cast<const NamedFunction*>(fo)) {
      ResolvedFn r = nf->resolved().kind != ResolvedFn::Kind::None
                         ? nf->resolved()
                         : in.resolve_function(nf->name(), nf->unit().get());
      def = r.def;
    }
  } else {
    ResolvedFn r = in.resolve_function(args[0].to_text("function name"), in.cur_->unit);
    def = r.def;
  }
  if (!def)
    throw_error("MATLAB:narginout:functionDoesnotExist", "Function does not exist or is not a MATLAB function.");
  const auto& list = inputs ? def->params : def->outputs;
  double n = static_cast<double>(list.size());
  if (!list.empty() && list.back() == (inputs ? "varargin" : "varargout")) n = -n;
  return {Value(n)};
}

Outputs bi_nargin(CallContext& ctx, Args args, int) { return count_args(ctx, args, true); }
Outputs bi_nargout(CallContext& ctx, Args args, int) { return count_args(ctx, args, false); }

Outputs bi_narginchk(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  Interpreter& in = interp(ctx);
  double lo = args[0].to_double("minimum"), hi = args[1].to_double("maximum");
  double n = in.cur_->nargin;
  if (n < lo) throw_error("MATLAB:narginchk:notEnoughInputs", "Not enough input arguments.");
  if (n > hi) throw_error("MATLAB:narginchk:tooManyInputs", "Too many input arguments.");
  return {};
}

Outputs bi_nargoutchk(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  Interpreter& in = interp(ctx);
  double lo = args[0].to_double("minimum"), hi = args[1].to_double("maximum");
  double n = in.cur_->nargout;
  if (n < lo) throw_error("MATLAB:nargoutchk:notEnoughOutputs", "Not enough output arguments.");
  if (n > hi) throw_error("MATLAB:nargoutchk:tooManyOutputs", "Too many output arguments.");
  return {};
}

Outputs bi_clear(CallContext& ctx, Args args, int nargout) {
  Interpreter& in = interp(ctx);
  std::vector<std::string> names;
  bool all = args.empty();
  for (const auto& a : args) {
    std::string s = a.to_text("name");
    if (s == "all" || s == "-all" || s == "variables" || s == "-variables") {
      all = true;
      if (s == "all" || s == "-all") {
        in.clear_functions();
        in.clear_persistents();
      }
    } else if (s == "functions" || s == "-functions") {
      in.clear_functions();
      in.clear_persistents();
    } else if (s == "global" || s == "-global") {
      in.clear_globals();
    } else if (!s.empty() && s[0] != '-') {
      names.push_back(s);
    }
  }
  if (all) names.clear();
  if (all || !names.empty()) in.clear_vars(names);
  return {};
}

/// Whether name matches a who/clear pattern where '*' stands for any characters.
bool wildcard_match(const std::string& pat, const std::string& name) {
  size_t p = 0, n = 0, star = std::string::npos, mark = 0;
  while (n < name.size()) {
    if (p < pat.size() && pat[p] == name[n]) {
      ++p;
      ++n;
    } else if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

/// who | who('global') | who(pattern, ...) | c = who(...): variable names of the current
/// workspace (or the global ones), filtered by wildcard patterns ('a*'), sorted.
Outputs bi_who(CallContext& ctx, Args args, int nargout) {
  Interpreter& in = interp(ctx);
  Frame* f = in.cur_;
  bool global = false;
  std::vector<std::string> pats;
  for (const Value& a : args) {
    std::string t = a.to_text("argument");
    if (t == "global") global = true;
    else pats.push_back(t);
  }
  std::vector<std::string> names;
  if (global) {
    for (const auto& [k, v] : in.globals_) names.push_back(k);
  } else {
    for (size_t k = 0; k < f->layout->names.size() && k < f->slots.size(); ++k) {
      const Slot& s = f->slots[k];
      if (s.ref || s.set) names.push_back(f->layout->names[k]);
    }
  }
  if (!pats.empty()) {
    std::vector<std::string> kept;
    for (const auto& n : names)
      for (const auto& p : pats)
        if (wildcard_match(p, n)) {
          kept.push_back(n);
          break;
        }
    names = kept;
  }
  std::sort(names.begin(), names.end());
  if (nargout > 0) {
    CellArray c(Dims(static_cast<int64_t>(names.size()), 1));
    for (size_t i = 0; i < names.size(); ++i) c.at(static_cast<int64_t>(i)) = Value::from_chars(names[i]);
    return {Value(std::move(c))};
  }
  if (names.empty()) return {};
  std::ostream& os = *in.session_.out;
  os << "\nYour variables are:\n\n";
  for (const auto& n : names) os << n << "  ";
  os << "\n\n";
  return {};
}

Outputs bi_run(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  Interpreter& in = interp(ctx);
  std::string p = args[0].to_text("script");
  std::error_code ec;
  if (!fs::is_regular_file(p, ec) && fs::is_regular_file(p + ".m", ec)) p += ".m";
  if (!fs::is_regular_file(p, ec)) {
    std::shared_ptr<CodeUnit> u = in.find_path_unit(p);
    if (!u) throw_error("MATLAB:run:FileNotFound", "File '%s' not found.", p.c_str());
    if (u->file->is_script) in.run_script(u);
    else if (!u->file->functions.empty()) in.call_user(u, u->file->functions[0].get(), {}, 0);
    return {};
  }
  std::shared_ptr<CodeUnit> u = in.load_unit(p);
  if (u->file->is_script) in.run_script(u);
  else if (!u->file->functions.empty()) in.call_user(u, u->file->functions[0].get(), {}, 0);
  return {};
}

/// func2str(h): 'sin' for @sin, '@(x)x+1' for anonymous functions.
Outputs bi_func2str(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  if (!args[0].is_function())
    throw_error("MATLAB:func2str:InputNotFunctionHandle",
                "Input argument must be a function handle.");
  const FunctionObject& f = *args[0].function();
  std::string s = f.name().empty() ? f.display() : f.name();
  return {Value::from_chars(s)};
}

/// str2func('name') / str2func('@(x)...'): anonymous function text is evaluated in an empty
/// workspace, so it captures no variables (as in MATLAB).
Outputs bi_str2func(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Interpreter& in = interp(ctx);
  if (args[0].is_function()) return {args[0]};
  std::string s = args[0].to_text("function name");
  if (!s.empty() && s[0] == '@') {
    // Anonymous function text: evaluated in an empty workspace (captures nothing).
    if (s.size() > 1 && s[1] != '(') s = s.substr(1);
    else {
      Layout L;
      Frame f;
      f.layout = &L;
      f.caller = in.cur_;
      Frame* saved = in.cur_;
      in.cur_ = &f;
      try {
        Outputs r = in.eval_text(s, 1);
        in.cur_ = saved;
        return r;
      } catch (...) {
        in.cur_ = saved;
        throw;
      }
    }
  }
  return {in.make_named_handle(s)};
}

Outputs bi_mfilename(CallContext& ctx, Args args, int nargout) {
  Interpreter& in = interp(ctx);
  Frame* f = in.cur_;
  std::string file = f->file;
  if (!args.empty() && args[0].to_text() == "fullpath") {
    fs::path p(file);
    return {Value::from_chars(p.empty() ? "" : (p.parent_path() / p.stem()).string())};
  }
  return {Value::from_chars(file.empty() ? "" : fs::path(file).stem().string())};
}

Outputs bi_builtin(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  std::string name = args[0].to_text("function name");
  const Builtin* b = builtins().find(name);
  if (!b)
    throw_error("MATLAB:UndefinedFunction", "Unrecognized function or variable '%s'.", name.c_str());
  return call_builtin_gpu_aware(*b, ctx, args.subspan(1), nargout);
}

Outputs bi_rethrow(CallContext&, Args args, int) {
  check_nargin(args, 1, 1);
  MatlabError e = error_from_value(args[0]);
  // err.stack of a caught error is complete (its frames down to the base workspace).
  if (!e.stack().empty()) mark_stack_complete(e);
  throw e;
}

/// Graphics and console commands that have no effect in matfuse.
Outputs bi_noop(CallContext&, Args, int) { return {}; }

}  // namespace

void register_object_builtins(Registry& r);  // objects.cc
void register_subs_builtins(Registry& r);    // subs.cc: subsref, subsasgn, substruct

void register_interp_builtins(Registry& r) {
  register_object_builtins(r);
  register_subs_builtins(r);
  r.add("addpath", bi_addpath);
  r.add("rmpath", bi_rmpath);
  r.add("path", bi_path);
  r.add("exist", bi_exist);
  r.add("eval", bi_eval);
  r.add("evalin", bi_evalin);
  r.add("assignin", bi_assignin);
  r.add("feval", bi_feval);
  r.add("nargin", bi_nargin);
  r.add("nargout", bi_nargout);
  r.add("narginchk", bi_narginchk);
  r.add("nargoutchk", bi_nargoutchk);
  r.add("clear", bi_clear);
  r.add("clearvars", bi_clear);
  r.add("who", bi_who);
  register_help_builtins(r);
  r.add("run", bi_run);
  r.add("func2str", bi_func2str);
  r.add("str2func", bi_str2func);
  r.add("mfilename", bi_mfilename);
  r.add("builtin", bi_builtin);
  r.add("rethrow", bi_rethrow);
}

}  // namespace matfuse
