// Calls: user functions (params, varargin/varargout, nargin/nargout, output checks), builtins,
// function handles, scripts; the CallContext services; top-level entry points; error text.
#include <stdexcept>
#include <pthread.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>

#include "builtins/gpu.h"
#include "builtins/linalg.h"
#include "builtins/methods.h"
#include "interp/call_site.h"
#include "interp/display.h"
#include "interp/interp.h"
#include "runtime/mexception.h"
#include "runtime/sparse.h"
#include "interp/classdef.h"
#include "interp/liveness.h"
#include "lang/parser.h"

namespace matfuse {

static std::string interp_arg_name(CallContext& ctx, size_t k, size_t nargs);

using namespace ast;

/// Pushes a frame for the duration of a call.
struct FrameGuard {
  Interpreter& in;
  Frame* saved;
  FrameGuard(Interpreter& i, Frame* f) : in(i), saved(i.cur_) {
    f->caller = saved;
    in.cur_ = f;
    ++in.depth_;
  }
  ~FrameGuard() {
    in.cur_ = saved;
    --in.depth_;
  }
};

namespace {

[[noreturn]] void recursion_limit() {
  throw_error("MATLAB:recursionLimit",
              "Maximum recursion limit of %d reached. Use set(0,'RecursionLimit',N) to change "
              "the limit. Be aware that exceeding your available stack space can crash MATLAB "
              "and/or your computer.",
              Interpreter::kRecursionLimit);
}

}  // namespace

Interpreter::Interpreter(Session& session) : session_(session) {
  base_.layout = &base_layout_;
  base_layout_.ans_slot = base_layout_.get_or_add("ans");
  base_.slots.resize(base_layout_.names.size());
  cur_ = &base_;
  register_interp_builtins(own_builtins_);
  // A name is registered once only, across the interpreter's table and the library's.
  for (const auto& n : own_builtins_.names())
    MF_ASSERT(builtins().find(n) == nullptr, "builtin '" + n + "' is registered twice");
  // Warnings of the matrix operators (A \ B, A / B, A ^ p) reach this session's err stream,
  // warning switches and lastwarn.
  linalg_set_session(&session_);
  set_arg_name_hook(interp_arg_name);
}

Interpreter::~Interpreter() { linalg_set_session(nullptr); }

void Interpreter::init_stack_guard() {
  char here;
  stack_base_ = &here;
  size_t size = 8u << 20;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    size_t s = 0;
    if (pthread_attr_getstacksize(&attr, &s) == 0 && s > 0) size = s;
    pthread_attr_destroy(&attr);
  }
  // Leave room for the deepest builtin work below the last checked call.
  size_t margin = 1u << 20;
  stack_limit_ = size > 2 * margin ? size - margin : size / 2;
}

void Interpreter::check_stack() {
  if (depth_ >= kRecursionLimit) recursion_limit();
  char here;
  if (stack_base_ && static_cast<size_t>(stack_base_ - &here) > stack_limit_) recursion_limit();
}

static bool has_object_arg(Args args) {
  for (const Value& a : args)
    if (a.is_object()) return true;
  return false;
}

/// Builtins that take sparse arguments as they are (they store, pass on or only describe their
/// arguments) although no sparse method of theirs is registered.
static bool keeps_sparse_args(std::string_view name) {
  static const char* const names[] = {
      "class",    "struct",   "cell",       "deal",      "feval",     "cellfun",   "arrayfun",
      "structfun", "setfield", "getfield",  "save",      "isobject",  "builtin",   "disp",
      "display",  "isstruct", "iscell",     "ischar",    "isstring",  "iscellstr", "isa",
      "func2str", "containers.Map", "assignin", "num2cell", "whos",
      "rmfield",  "orderfields", "horzcat", "vertcat",   "cat",       "validateattributes",
      "isgpuarray", "gather", "fieldnames", "isfield", "error", "warning",
      "subsref",  "subsasgn", "cell2mat",  "mat2cell",  "nargin",    "nargout",
      "size",     "numel",    "ndims",      "length",    "isempty",   "isscalar",  "isvector",
      "isrow",    "iscolumn", "ismatrix"};
  for (const char* n : names)
    if (name == n) return true;
  return is_sparse_aware(name);  // the sparse family's own builtins (builtins/sparse*.cc)
}

Outputs Interpreter::call_resolved(const ResolvedFn& fn, Args args, int nargout) {
  switch (fn.kind) {
    case ResolvedFn::Kind::Builtin: {
      const Builtin* b = fn.builtin;
      if (const ClassInfo* cls = nullptr; has_object_arg(args)) {
        if (find_dispatch(fn.name, args, &cls))
          return call_class_method(*cls, fn.name, args, nargout);
        // A method of a C++ value class (datetime, duration, table, ...) among the arguments.
        if (const Builtin* m = dispatch_class_method(fn.name, args)) b = m;
      }
      // A function without a sparse method computes on full operands (its result is full);
      // functions that hold or pass values on (struct, cell, feval, ...) keep them sparse.
      std::vector<Value> full_args;
      if (b == fn.builtin && any_sparse(args) && !keeps_sparse_args(b->name)) {
        full_args = densify_all(args);
        args = full_args;
      }
      Outputs r;
      try {
        r = call_builtin_gpu_aware(*b, *this, args, nargout);
      } catch (MatlabError& e) {
        if (e.raised_by().empty() && e.stack().empty()) {
          // error()/rethrow() report the calling function (MATLAB: "Error using f").
          const std::string& n = b->name;
          if (n == "error" || n == "rethrow" || n == "throw" || n == "throwAsCaller")
            e.raised_by() = cur_ && cur_->def ? cur_->def->name : std::string();
          else
            e.raised_by() = n;
        }
        throw;
      } catch (const std::bad_alloc&) {
        MatlabError e("MATLAB:nomem", "Out of memory.");
        e.raised_by() = b->name;
        throw e;
      } catch (const std::length_error&) {
        // A container asked for more than it can hold (a size past every limit): MATLAB's
        // size error, catchable by try, not an internal error.
        MatlabError e("MATLAB:array:SizeLimitExceeded",
                      "Requested array exceeds the maximum possible variable size.");
        e.raised_by() = b->name;
        throw e;
      }
      if (nargout > 0 && static_cast<int>(r.size()) < nargout) {
        MatlabError e("MATLAB:TooManyOutputs", "Too many output arguments.");
        e.raised_by() = b->name;
        throw e;
      }
      return r;
    }
    case ResolvedFn::Kind::User:
      if (const ClassInfo* cls = nullptr; has_object_arg(args)) {
        if (find_dispatch(fn.name, args, &cls))
          return call_class_method(*cls, fn.name, args, nargout);
      }
      return call_user(fn.unit, fn.def, args, nargout);
    case ResolvedFn::Kind::Class:
      return construct(fn.cls, args, nargout);
    case ResolvedFn::Kind::Script:
      if (!args.empty())
        throw_error("MATLAB:scriptNotAFunction",
                    "Attempt to execute SCRIPT %s as a function:\n%s", fn.name.c_str(),
                    fn.unit->file->path.c_str());
      if (nargout > 0)
        throw_error("MATLAB:scriptNotAFunction",
                    "Attempt to execute SCRIPT %s as a function:\n%s", fn.name.c_str(),
                    fn.unit->file->path.c_str());
      run_script(fn.unit);
      return {};
    case ResolvedFn::Kind::None:
      // A method of a C++ value class that is no function of its own (datevec(t), ...).
      if (has_object_arg(args))
        if (const Builtin* m = dispatch_class_method(fn.name, args))
          return call_builtin_gpu_aware(*m, *this, args, nargout);
      break;
  }
  throw_error("MATLAB:UndefinedFunction", "Unrecognized function or variable '%s'.",
              fn.name.c_str());
}

/// Binds arguments to parameters (with varargin) into a frame's slots.
static void bind_params(Frame& fr, Layout& L, const std::vector<std::string>& params, Args args) {
  bool has_varargin = !params.empty() && params.back() == "varargin";
  size_t nfixed = params.size() - (has_varargin ? 1 : 0);
  for (size_t i = 0; i < nfixed && i < args.size(); ++i) {
    if (params[i] == "~") continue;
    Slot& s = fr.slots[static_cast<size_t>(L.find(params[i]))];
    s.v = args[i];
    s.set = true;
  }
  if (has_varargin) {
    size_t extra = args.size() > nfixed ? args.size() - nfixed : 0;
    CellArray c(Dims(1, static_cast<int64_t>(extra)));
    for (size_t i = 0; i < extra; ++i) c.at(static_cast<int64_t>(i)) = args[nfixed + i];
    Slot& s = fr.slots[static_cast<size_t>(L.find("varargin"))];
    s.v = Value(std::move(c));
    s.set = true;
  }
  int k = L.find("nargin");
  if (k >= 0 && !fr.slots[static_cast<size_t>(k)].set) {
    fr.slots[static_cast<size_t>(k)].v = Value(static_cast<double>(args.size()));
    fr.slots[static_cast<size_t>(k)].set = true;
  }
  k = L.find("nargout");
  if (k >= 0 && !fr.slots[static_cast<size_t>(k)].set) {
    fr.slots[static_cast<size_t>(k)].v = Value(static_cast<double>(fr.nargout));
    fr.slots[static_cast<size_t>(k)].set = true;
  }
}

Outputs Interpreter::call_user(const std::shared_ptr<CodeUnit>& unit, FunctionDef* def, Args args,
                               int nargout) {
  check_stack();
  CallSiteScope no_site(nullptr);  // the caller's call expression is not ours
  const auto& params = def->params;
  bool has_varargin = !params.empty() && params.back() == "varargin";
  if (!has_varargin && args.size() > params.size()) {
    MatlabError e("MATLAB:TooManyInputs", "Too many input arguments.");
    e.raised_by() = def->name;
    throw e;
  }
  const auto& outs = def->outputs;
  bool has_varargout = !outs.empty() && outs.back() == "varargout";
  if (!has_varargout && nargout > static_cast<int>(outs.size())) {
    MatlabError e("MATLAB:TooManyOutputs", "Too many output arguments.");
    e.raised_by() = def->name;
    throw e;
  }
  Layout* L = resolve_function_def(*unit, *def);
  Frame fr;
  fr.layout = L;
  fr.slots.resize(L->names.size());
  fr.unit = unit.get();
  fr.code = unit.get();
  fr.def = def;
  fr.name = def->name;
  fr.file = unit->file->path;
  fr.line = def->loc.line;
  fr.liveness = function_liveness(*this, *unit, *def, *L);
  fr.nargin = static_cast<int>(args.size());
  fr.nargout = nargout;
  bind_params(fr, *L, params, args);
  if (preset_output_) {
    // A constructor: its output variable starts as the new instance.
    if (!outs.empty()) {
      Slot& s = fr.slots[static_cast<size_t>(L->find(outs[0]))];
      s.v = std::move(*preset_output_);
      s.set = true;
    }
    preset_output_.reset();
  }
  {
    FrameGuard g(*this, &fr);
    try {
      exec_block(def->body);
    } catch (MatlabError& e) {
      if (!stack_complete(e)) e.stack().push_back({fr.file, fr.name, fr.line, 0});
      throw;
    }
  }
  Outputs r;
  size_t nfixed = outs.size() - (has_varargout ? 1 : 0);
  size_t want = static_cast<size_t>(nargout < 1 ? 1 : nargout);
  auto unassigned = [&](const std::string& out) {
    throw_error("MATLAB:unassignedOutputs",
                "Output argument \"%s\" (and possibly others) not assigned a value in the "
                "execution with \"%s\" function.",
                out.c_str(), def->name.c_str());
  };
  auto value_of = [&](const std::string& n) -> const Value* {
    const Slot& s = fr.slots[static_cast<size_t>(L->find(n))];
    if (s.ref) return s.ref;
    return s.set ? &s.v : nullptr;
  };
  for (size_t i = 0; i < want && i < nfixed; ++i) {
    const Value* v = value_of(outs[i]);
    if (!v) {
      if (static_cast<int>(i) < nargout) unassigned(outs[i]);
      return r;
    }
    r.push_back(*v);
  }
  if (has_varargout && want > nfixed) {
    const Value* v = value_of("varargout");
    size_t have = 0;
    if (v && v->is_cell()) {
      const CellArray& c = v->cell();
      for (int64_t i = 0; i < c.numel() && r.size() < want; ++i, ++have) r.push_back(c[i]);
    } else if (v && !v->is_cell()) {
      throw_error("MATLAB:varargoutNotCell", "The variable varargout must be a cell array.");
    }
    if (static_cast<int>(r.size()) < nargout)
      unassigned("varargout{" + std::to_string(have + 1) + "}");
  }
  return r;
}

static Outputs call_anon(Interpreter& in, const AnonFunction& f, Args args, int nargout) {
  in.check_stack();
  const AnonFnExpr* ex = f.expr();
  const auto& params = ex->params;
  bool has_varargin = !params.empty() && params.back() == "varargin";
  if (!has_varargin && args.size() > params.size())
    throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
  Layout* L = f.layout();
  Frame fr;
  fr.layout = L;
  fr.slots = f.captured();
  fr.slots.resize(L->names.size());
  fr.unit = f.unit().get();
  fr.code = f.unit().get();
  fr.name = ex->source();
  fr.file = f.unit()->file ? f.unit()->file->path : "";
  fr.line = ex->loc.line;
  fr.nargin = static_cast<int>(args.size());
  fr.nargout = nargout;
  // Parameters occupy the first slots in order (resolver.cc).
  size_t nfixed = params.size() - (has_varargin ? 1 : 0);
  for (size_t i = 0; i < nfixed && i < args.size(); ++i) {
    fr.slots[i].v = args[i];
    fr.slots[i].set = true;
    fr.slots[i].ref = nullptr;
  }
  if (has_varargin) {
    size_t extra = args.size() > nfixed ? args.size() - nfixed : 0;
    CellArray c(Dims(1, static_cast<int64_t>(extra)));
    for (size_t i = 0; i < extra; ++i) c.at(static_cast<int64_t>(i)) = args[nfixed + i];
    fr.slots[nfixed].v = Value(std::move(c));
    fr.slots[nfixed].set = true;
  }
  FrameGuard g(in, &fr);
  Outputs r;
  const Expr& body = *ex->body;
  if (nargout == 1 || (body.kind != ExprKind::Index && body.kind != ExprKind::Field &&
                       body.kind != ExprKind::Ident)) {
    r.push_back(in.eval(body));
  } else {
    in.eval_chain(body, nargout, r);
  }
  return r;
}

Outputs Interpreter::call(const Value& fn, Args args, int nargout) {
  if (fn.is_function()) {
    const FunctionObject* fo = fn.function().get();
    if (auto* a = dynamic_cast<const AnonFunction*>(fo)) return call_anon(*this, *a, args, nargout);
    if (auto* n = dynamic_cast<const NamedFunction*>(fo)) {
      if (n->resolved().kind != ResolvedFn::Kind::None) return call_resolved(n->resolved(), args, nargout);
      ResolvedFn r = resolve_function(n->name(), n->unit().get());
      if (r.kind == ResolvedFn::Kind::None)
        throw_error("MATLAB:UndefinedFunction", "Unrecognized function or variable '%s'.",
                    n->name().c_str());
      return call_resolved(r, args, nargout);
    }
    MF_ASSERT(false, "unknown FunctionObject type");
  }
  if (fn.is_text()) return call_named(fn.to_text(), args, nargout);
  throw_error("MATLAB:feval:ArgumentNotFunctionNameOrHandle",
              "Argument must contain a character vector or function handle.");
}

Outputs Interpreter::call_named(std::string_view name, Args args, int nargout) {
  ResolvedFn r = resolve_function(name, cur_ ? cur_->unit : nullptr);
  if (r.kind == ResolvedFn::Kind::None && has_object_arg(args) && dispatch_class_method(name, args)) {
    r.name = std::string(name);
    return call_resolved(r, args, nargout);
  }
  if (r.kind == ResolvedFn::Kind::None)
    throw_error("MATLAB:UndefinedFunction", "Unrecognized function or variable '%s'.",
                std::string(name).c_str());
  return call_resolved(r, args, nargout);
}

void Interpreter::display(const Value& v, std::string_view name) {
  if (v.is_object() && object_display(v, name)) return;
  if (name.empty())
    disp_value(*session_.out, v, session_);
  else
    display_value(*session_.out, v, name, session_);
}

void Interpreter::run_script(const std::shared_ptr<CodeUnit>& unit, bool program) {
  Frame* f = cur_;
  Layout* prev = unit->script_resolved_into;
  resolve_script_into(*unit, *f->layout);
  if (f->slots.size() < f->layout->names.size()) f->slots.resize(f->layout->names.size());
  CodeUnit* su = f->unit;
  CodeUnit* sc = f->code;
  std::string sname = std::move(f->name), sfile = std::move(f->file);
  int sline = f->line;
  const Stmt* sstmt = f->stmt;
  const Liveness* slive = f->liveness;
  f->liveness = program ? program_script_liveness(*this, *unit, *f->layout) : nullptr;
  f->unit = unit.get();
  f->code = unit.get();
  f->name = unit->file->name;
  f->file = unit->file->path;
  auto restore = [&] {
    f->unit = su;
    f->code = sc;
    f->name = std::move(sname);
    f->file = std::move(sfile);
    f->line = sline;
    f->stmt = sstmt;
    f->liveness = slive;
    if (prev && prev != f->layout) resolve_script_into(*unit, *prev);
  };
  check_stack();
  ++depth_;
  try {
    exec_block(unit->file->script_body);
  } catch (MatlabError& e) {
    if (!stack_complete(e)) e.stack().push_back({f->file, f->name, f->line, 0});
    --depth_;
    restore();
    throw;
  } catch (...) {
    --depth_;
    restore();
    throw;
  }
  --depth_;
  restore();
}

std::shared_ptr<CodeUnit> Interpreter::unit_from_text(std::string_view code, const std::string& path) {
  auto u = std::make_shared<CodeUnit>();
  u->file = parse_source(code, path);
  u->source = std::string(code);
  if (!path.empty()) u->dir = std::filesystem::path(path).parent_path().string();
  std::vector<FunctionDef*> todo;
  for (auto& f : u->file->functions) todo.push_back(f.get());
  while (!todo.empty()) {
    FunctionDef* f = todo.back();
    todo.pop_back();
    u->locals.emplace(f->name, f);
    for (auto& n : f->nested) todo.push_back(n.get());
  }
  return u;
}

std::shared_ptr<CodeUnit> Interpreter::load_unit(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw_error("MATLAB:run:FileNotFound", "Unable to read file '%s'.", path.c_str());
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  // A UTF-8 byte order mark is not program text; classic Mac files end lines with CR alone.
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
  return unit_from_text(text, path);
}

/// Top-level entry: resets per-run state, converts out-of-memory, restores the base frame.
template <class F>
static void top_level(Interpreter& in, F&& body) {
  bool outer = in.depth_ == 0 && in.cur_ == &in.base_;
  if (outer) {
    in.init_stack_guard();
    in.end_stack_.clear();
  }
  Frame* saved = in.cur_;
  ActiveInterpreterScope active(in);
  try {
    body();
  } catch (const std::bad_alloc&) {
    in.cur_ = saved;
    throw MatlabError("MATLAB:nomem", "Out of memory.");
  } catch (...) {
    in.cur_ = saved;
    if (outer) in.end_stack_.clear();
    throw;
  }
}

void Interpreter::run_file(const std::string& path, bool program) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw_error("MATLAB:run:FileNotFound", "File '%s' not found.", path.c_str());
  fs::path abs = fs::absolute(path, ec);
  script_dir_ = abs.parent_path().string();
  ++generation_;
  path_cache_.clear();
  top_level(*this, [&] {
    std::shared_ptr<CodeUnit> unit = load_unit(path);
    if (!unit->file->is_script) {
      if (unit->file->functions.empty()) return;
      call_user(unit, unit->file->functions[0].get(), {}, 0);
      return;
    }
    Frame* f = &base_;
    CodeUnit* su = f->unit;
    CodeUnit* sc = f->code;
    try {
      run_script(unit, program);
    } catch (...) {
      f->unit = su;
      f->code = sc;
      throw;
    }
  });
}

void Interpreter::run_text(std::string_view code, bool program) {
  top_level(*this, [&] {
    std::shared_ptr<CodeUnit> unit = unit_from_text(code, "");
    Frame* f = cur_;
    resolve_block_into(*unit, unit->file->script_body, *f->layout);
    if (f->slots.size() < f->layout->names.size()) f->slots.resize(f->layout->names.size());
    CodeUnit* su = f->unit;
    CodeUnit* sc = f->code;
    const Stmt* sstmt = f->stmt;
    const Liveness* slive = f->liveness;
    f->unit = unit.get();
    f->code = unit.get();
    f->liveness = program && f == &base_ ? program_script_liveness(*this, *unit, *f->layout)
                                         : nullptr;
    auto restore = [&] {
      f->unit = su;
      f->code = sc;
      f->stmt = sstmt;
      f->liveness = slive;
    };
    try {
      exec_block(unit->file->script_body);
    } catch (...) {
      restore();
      throw;
    }
    restore();
  });
}

const ast::IndexExpr*& current_call_site() {
  static const ast::IndexExpr* site = nullptr;
  return site;
}

/// caller_arg_name for builtins: the name of argument k when the running builtin's call site
/// has nargs argument expressions and that one is a defined variable.
static std::string interp_arg_name(CallContext& ctx, size_t k, size_t nargs) {
  const ast::IndexExpr* ix = current_call_site();
  auto* in = dynamic_cast<Interpreter*>(&ctx);
  if (!in || !ix || ix->args.size() != nargs || k >= nargs) return {};
  const ast::Expr& a = *ix->args[k];
  if (a.kind != ast::ExprKind::Ident) return {};
  const auto& id = static_cast<const ast::IdentExpr&>(a);
  return in->slot_value(id.slot) ? id.name : std::string();
}

Outputs Interpreter::eval_text(std::string_view code, int nargout) {
  std::shared_ptr<CodeUnit> unit = unit_from_text(code, "");
  Frame* f = cur_;
  resolve_block_into(*unit, unit->file->script_body, *f->layout);
  if (f->slots.size() < f->layout->names.size()) f->slots.resize(f->layout->names.size());
  CodeUnit* sc = f->code;
  CodeUnit* su = f->unit;
  if (!f->unit) f->unit = unit.get();
  f->code = unit.get();
  struct Restore {
    Frame* f;
    CodeUnit* sc;
    CodeUnit* su;
    int line;
    const Stmt* stmt;
    ~Restore() {
      f->code = sc;
      f->unit = su;
      f->line = line;
      f->stmt = stmt;
    }
  } restore{f, sc, su, f->line, f->stmt};
  Outputs r;
  const Block& body = unit->file->script_body;
  if (nargout > 0) {
    if (body.size() != 1 || body[0]->kind != StmtKind::Expr)
      throw_error("MATLAB:eval:nonExpression",
                  "Only an expression can be evaluated when eval is asked for outputs.");
    const Expr& e = *static_cast<const ExprStmt&>(*body[0]).expr;
    if (e.kind == ExprKind::Index || e.kind == ExprKind::Field || e.kind == ExprKind::Ident)
      eval_chain(e, nargout, r);
    else
      r.push_back(eval(e));
    return r;
  }
  exec_block(body);
  return r;
}

Outputs Interpreter::eval_in(int where, std::string_view code, int nargout) {
  Frame* target = where == 2 ? &base_ : where == 1 && cur_->caller ? cur_->caller : cur_;
  Frame* saved = cur_;
  cur_ = target;
  try {
    Outputs r = eval_text(code, nargout);
    cur_ = saved;
    return r;
  } catch (...) {
    cur_ = saved;
    throw;
  }
}

void Interpreter::assign_in(int where, const std::string& name, const Value& v) {
  Frame* target = where == 2 ? &base_ : where == 1 && cur_->caller ? cur_->caller : cur_;
  int k = target->layout->get_or_add(name);
  if (target->slots.size() < target->layout->names.size())
    target->slots.resize(target->layout->names.size());
  Slot& s = target->slots[static_cast<size_t>(k)];
  if (s.ref) {
    *s.ref = v;
  } else {
    s.v = v;
    s.set = true;
  }
}

std::vector<std::pair<std::string, Value>> Interpreter::workspace_variables() {
  std::vector<std::pair<std::string, Value>> out;
  Frame* f = cur_;
  for (size_t k = 0; k < f->layout->names.size() && k < f->slots.size(); ++k) {
    const Slot& s = f->slots[k];
    if (s.ref) out.emplace_back(f->layout->names[k], *s.ref);
    else if (s.set) out.emplace_back(f->layout->names[k], s.v);
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

void Interpreter::assign_variable(std::string_view name, const Value& v) {
  assign_in(0, std::string(name), v);
}

const Value* Interpreter::base_var(const std::string& name) const {
  int k = base_layout_.find(name);
  if (k < 0 || static_cast<size_t>(k) >= base_.slots.size()) return nullptr;
  const Slot& s = base_.slots[static_cast<size_t>(k)];
  if (s.ref) return s.ref;
  return s.set ? &s.v : nullptr;
}

void Interpreter::set_base_var(const std::string& name, Value v) {
  Frame* saved = cur_;
  cur_ = &base_;
  assign_in(0, name, v);
  cur_ = saved;
}

Value Interpreter::variable_value(Frame& f, const std::string& name, bool* found) {
  int k = f.layout->find(name);
  *found = false;
  if (k < 0 || static_cast<size_t>(k) >= f.slots.size()) return Value();
  const Slot& s = f.slots[static_cast<size_t>(k)];
  if (s.ref) {
    *found = true;
    return *s.ref;
  }
  if (!s.set) return Value();
  *found = true;
  return s.v;
}

void Interpreter::clear_vars(const std::vector<std::string>& names) {
  Frame* f = cur_;
  auto clear_slot = [](Slot& s) {
    s.v = Value();
    s.ref = nullptr;
    s.set = false;
  };
  if (names.empty()) {
    for (auto& s : f->slots) clear_slot(s);
    return;
  }
  for (const auto& n : names) {
    bool wildcard = !n.empty() && n.back() == '*';
    if (wildcard) {
      std::string prefix = n.substr(0, n.size() - 1);
      for (size_t k = 0; k < f->layout->names.size() && k < f->slots.size(); ++k)
        if (f->layout->names[k].compare(0, prefix.size(), prefix) == 0) clear_slot(f->slots[k]);
      continue;
    }
    int k = f->layout->find(n);
    if (k >= 0 && static_cast<size_t>(k) < f->slots.size()) clear_slot(f->slots[static_cast<size_t>(k)]);
  }
}

void Interpreter::clear_functions() {
  ++generation_;
  path_cache_.clear();
}

void Interpreter::unlink_refs() {
  for (Frame* f = cur_; f; f = f->caller)
    for (auto& s : f->slots)
      if (s.ref) {
        s.ref = nullptr;
        s.set = false;
        s.v = Value(0.0);
      }
  if (cur_ != &base_)
    for (auto& s : base_.slots)
      if (s.ref) {
        s.ref = nullptr;
        s.set = false;
      }
}

void Interpreter::clear_persistents() {
  unlink_refs();
  persistents_.clear();
}

void Interpreter::clear_globals() {
  unlink_refs();
  globals_.clear();
}

std::string format_error(const MatlabError& e) {
  std::string s;
  if (!e.raised_by().empty()) s += "Error using " + e.raised_by() + "\n";
  s += e.message() + "\n";
  bool first = true;
  const StackFrame* prev = nullptr;
  for (const auto& f : e.stack()) {
    // A parse error's own frame (it alone has a column) is in its message already; the frames
    // after it are the calls that led there (eval, str2func, a function file's caller).
    if (f.file.empty() || f.column != 0) continue;
    // Deep recursion repeats one frame hundreds of times: print each run once.
    if (prev && prev->name == f.name && prev->line == f.line && prev->file == f.file) continue;
    prev = &f;
    if (first) s += "\n";
    first = false;
    s += "Error in " + f.name + " (line " + std::to_string(f.line) + ")\n";
  }
  return s;
}

Value error_to_value(const MatlabError& e, const std::vector<StackFrame>& extra) {
  MatlabError full = e;
  if (stack_complete(full)) full.stack().pop_back();  // the marker, not a frame
  else full.stack().insert(full.stack().end(), extra.begin(), extra.end());
  return make_mexception(std::move(full));
}

}  // namespace matfuse
