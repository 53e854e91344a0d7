// The interpreter: workspaces, name resolution, statements, expressions and calls.
//
// Execution model
// - Code runs from CodeUnits (one parsed .m file, or one -e / REPL input). Before a function or
//   script runs, the resolver (resolver.cc) walks its AST once and gives every identifier a slot
//   in a Layout (the frame layout shared by all activations of that function). Evaluation indexes
//   Frame::slots by IdentExpr::slot and never hashes a name on the hot path.
// - An identifier whose slot holds no value is a function: local function of the same file, then
//   a function file on the path (script folder first, then addpath folders), then a builtin; the
//   result is cached per (layout, slot) and invalidated by a generation counter (addpath, clear).
// - Scalar doubles (Value::Kind::Scalar) take allocation-free paths: arithmetic, comparisons,
//   for-loops over ranges and builtins with scalar fast paths (Builtin::scalar1/scalar2).
// - Errors are MatlabError; each user-function or script frame that an error unwinds through
//   appends a StackFrame (file, name, line). format_error() renders MATLAB's text.
//
// Split: resolver.cc (slots), eval_expr.cc (expressions), exec_stmt.cc (statements, assignment),
// calls.cc (calls, CallContext), functions.cc (function handles), paths.cc (path and the
// interpreter's own builtins: addpath, eval, feval, exist, clear, nargin, ...).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "builtins/registry.h"
#include "lang/ast.h"
#include "runtime/ops.h"
#include "runtime/session.h"
#include "runtime/value.h"

namespace matfuse {

struct CodeUnit;
struct Layout;
struct ClassInfo;
struct Liveness;

/// What a name resolved to when it is not a variable.
struct ResolvedFn {
  enum class Kind : uint8_t { None, Builtin, User, Script, Class };
  Kind kind = Kind::None;
  /// A builtin whose scalar calls the evaluator computes itself (ops.def's kScalarFast: sqrt,
  /// log, log2, log10 in their real domain; mod, rem of integer values); else nullopt.
  std::optional<OpId> scalar_fast;
  const Builtin* builtin = nullptr;
  ast::FunctionDef* def = nullptr;   ///< User: the function
  std::shared_ptr<CodeUnit> unit;    ///< User/Script: the file holding it
  std::string name;                  ///< name as called
  std::shared_ptr<ClassInfo> cls;    ///< Class: the class whose constructor this name calls
};

/// One variable of a frame. Global and persistent variables point at shared storage (ref).
struct Slot {
  Value v{0.0};  ///< (a Scalar placeholder: a default Value would allocate)
  Value* ref = nullptr;
  bool set = false;
};

/// Frame layout: the variable names of one function (or anonymous function, or the base
/// workspace), append-only; plus the per-name function cache.
struct Layout {
  struct FnCache {
    uint64_t generation = 0;  ///< 0 = empty
    const CodeUnit* unit = nullptr;
    ResolvedFn fn;
  };
  std::vector<std::string> names;
  std::unordered_map<std::string, int> index;
  std::vector<FnCache> fn_cache;
  int ans_slot = -1;
  /// Slot of `name`, adding it when absent.
  int get_or_add(const std::string& name);
  /// Slot of `name` or -1.
  int find(const std::string& name) const;
};

/// A parsed file (or text input) with its local functions and the layouts of its code.
struct CodeUnit : std::enable_shared_from_this<CodeUnit> {
  std::unique_ptr<ast::ParsedFile> file;
  std::string dir;  ///< folder of the file ("" for text input)
  /// The program text it was parsed from (parallel workers parse the same text again).
  std::string source;
  std::unordered_map<std::string, ast::FunctionDef*> locals;  ///< every function in the file
  std::unordered_map<const void*, std::unique_ptr<Layout>> layouts;  ///< FunctionDef*/AnonFnExpr*
  Layout* script_resolved_into = nullptr;  ///< scripts: layout their slots currently refer to
  /// Liveness of its bodies by FunctionDef* / script body (liveness.cc).
  std::unordered_map<const void*, std::shared_ptr<Liveness>> liveness;
};

/// An activation record.
struct Frame {
  Layout* layout = nullptr;
  std::vector<Slot> slots;
  CodeUnit* unit = nullptr;             ///< file whose local functions are visible here
  CodeUnit* code = nullptr;             ///< unit owning the AST now executing (eval text differs)
  const ast::FunctionDef* def = nullptr;  ///< null for the base workspace and anonymous fns
  std::string name;                     ///< function or script name for stack traces
  std::string file;                     ///< file path for stack traces
  int line = 0;                         ///< line of the statement being executed
  const ast::Stmt* stmt = nullptr;      ///< innermost statement being executed (liveness)
  const Liveness* liveness = nullptr;   ///< liveness of the body running here (null: all live)
  int nargin = 0, nargout = 0;
  Frame* caller = nullptr;
};

/// Control flow out of a statement.
enum class Flow : uint8_t { Normal, Break, Continue, Return };

class Interpreter;

/// Runs parfor-loops and spmd blocks: implemented by the parallel layer (src/parallel), which
/// sits above the interpreter and installs itself with Interpreter::set_parallel_runner. Without
/// one, a parfor-loop runs as a for-loop and an spmd block runs its body once on the client.
class ParallelRunner {
public:
  virtual ~ParallelRunner() = default;
  /// Runs parfor-loop f (f.parfor) in the interpreter's current frame.
  virtual Flow run_parfor(Interpreter& in, const ast::ForStmt& f) = 0;
  /// Runs spmd block s in the interpreter's current frame.
  virtual Flow run_spmd(Interpreter& in, const ast::SpmdStmt& s) = 0;
};

class Interpreter : public CallContext {
public:
  explicit Interpreter(Session& session);
  ~Interpreter() override;
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  /// Runs a script file in the base workspace; its folder goes first on the path.
  /// Throws MatlabError (stack filled) on a MATLAB error; MATLAB:run:FileNotFound when missing.
  /// program: nothing runs in the base workspace afterwards (its dead variables are known).
  void run_file(const std::string& path, bool program = true);
  /// Runs code text (-e argument, REPL line) in the base workspace. program: the text is the
  /// whole program (base workspace discarded afterwards), so its dead variables are known.
  void run_text(std::string_view code, bool program = false);
  /// Lets at most n more statements run; the next raises matfuse:statementLimit ("Statement
  /// limit reached."), and so does every statement after it, so try/catch cannot go on. n < 0:
  /// no limit (the default). For running untrusted or generated code with a time budget.
  void set_statement_limit(int64_t n) { statement_limit_ = n; }
  /// Adds a folder to the function search path (front, or back when at_end).
  void add_path(const std::string& dir, bool at_end = false);
  void remove_path(const std::string& dir);
  const std::vector<std::string>& search_path() const { return path_; }

  /// Base-workspace variable access (tests, CLI).
  const Value* base_var(const std::string& name) const;
  void set_base_var(const std::string& name, Value v);

  // CallContext
  Session& session() override { return session_; }
  Outputs call(const Value& fn, Args args, int nargout) override;
  Outputs call_named(std::string_view name, Args args, int nargout) override;
  void display(const Value& v, std::string_view name) override;
  int exist(std::string_view name) override;
  Outputs eval_text(std::string_view code, int nargout) override;
  std::vector<std::pair<std::string, Value>> workspace_variables() override;
  void assign_variable(std::string_view name, const Value& v) override;

  // ---- internals shared by the interpreter's source files (not a stable API) ----
  /// Resolves a name in the context of `frame` (not variables). Kind::None when unknown.
  ResolvedFn resolve_function(std::string_view name, const CodeUnit* unit);
  /// Calls a resolved function.
  Outputs call_resolved(const ResolvedFn& fn, Args args, int nargout);
  /// Calls a user function of a unit.
  Outputs call_user(const std::shared_ptr<CodeUnit>& unit, ast::FunctionDef* def, Args args,
                    int nargout);
  /// Runs a script unit in the current frame's workspace. program: it is the script run by
  /// `matfuse file.m` (nothing read after it; liveness known).
  void run_script(const std::shared_ptr<CodeUnit>& unit, bool program = false);
  /// Makes a function handle value for @name from the current frame's file.
  Value make_named_handle(const std::string& name);
  /// Evaluates an expression/code in another workspace: 0 = current, 1 = caller, 2 = base.
  Outputs eval_in(int where, std::string_view code, int nargout);
  void assign_in(int where, const std::string& name, const Value& v);
  Frame* current_frame() { return cur_; }
  Frame* base_frame() { return &base_; }
  /// Clears variables of the current frame (names empty: all).
  void clear_vars(const std::vector<std::string>& names);
  /// Forgets cached function files (path change, `clear functions`).
  void clear_functions();
  /// `clear all` / `clear functions` also reset persistent variables.
  void clear_persistents();
  /// `clear global`.
  void clear_globals();
  /// Unlinks every global/persistent slot of the live frames (before their storage goes).
  void unlink_refs();
  Value variable_value(Frame& f, const std::string& name, bool* found);
  /// Parses a function file found on the path; cached by name.
  std::shared_ptr<CodeUnit> find_path_unit(const std::string& name);
  /// Loads and resolves a unit from a file path (not cached).
  std::shared_ptr<CodeUnit> load_unit(const std::string& path);
  std::shared_ptr<CodeUnit> unit_from_text(std::string_view code, const std::string& path);

  // Resolver (resolver.cc)
  Layout* resolve_function_def(CodeUnit& unit, ast::FunctionDef& def);
  void resolve_script_into(CodeUnit& unit, Layout& layout);
  void resolve_block_into(CodeUnit& unit, ast::Block& block, Layout& layout);

  // Expressions (eval_expr.cc)
  Value eval(const ast::Expr& e);
  /// Evaluates e as a comma-separated list (c{:}, s.f, calls with nargout outputs).
  void eval_multi(const ast::Expr& e, std::vector<Value>& out);
  /// Evaluates a postfix chain or identifier with `nargout` (0 = statement context).
  void eval_chain(const ast::Expr& e, int nargout, std::vector<Value>& out);
  bool eval_cond(const ast::Expr& e);
  /// Evaluates e as a real double scalar without building Values when every part is a number,
  /// a Scalar variable, arithmetic, or a builtin with a scalar fast path; false (having
  /// evaluated only pure parts) when the general path must run.
  bool eval_scalar(const ast::Expr& e, double& out);

  // Objects (objects.cc)
  /// Whether obj.name reads a property (or field) rather than calling a method.
  bool object_has_property(const Value& obj, const std::string& name);
  /// Calls method `name` with args (args[0] the object): the class's method when it has one,
  /// else the function of that name. MATLAB:noSuchMethodOrField when neither exists.
  Outputs call_method(const std::string& name, std::vector<Value>& args, int nargout);

  // Classes (classdef.cc, classdef_object.cc)
  /// The class defined by NAME.m / @NAME/NAME.m on the path, or null.
  std::shared_ptr<ClassInfo> find_class(const std::string& name);
  /// The ClassInfo of a classdef unit (built once; superclasses loaded).
  std::shared_ptr<ClassInfo> class_for_unit(const std::shared_ptr<CodeUnit>& unit);
  /// ClassName(args...): a new instance with the defaults, then the constructor.
  Outputs construct(const std::shared_ptr<ClassInfo>& cls, Args args, int nargout);
  /// Runs method m with args; preset (constructors) pre-assigns the first output.
  Outputs call_class_method(const ClassInfo& cls, const std::string& m, Args args, int nargout,
                            const Value* preset = nullptr);
  /// The method of `name` of the first class-object argument (MATLAB dispatch), or null.
  const void* find_dispatch(const std::string& name, Args args, const ClassInfo** cls);
  /// Cls.Member: a constant property, an enumeration member or a static method call.
  bool class_member(const std::string& cls, const std::string& member, Value& out);
  /// obj@Super(...) / method@Super(obj, ...) (name "a@Super").
  Outputs super_call(const std::string& name, std::vector<Value>& args, int nargout);
  /// Operator by method name when an operand is a class object (plus, eq, ...); false when
  /// no operand's class defines it.
  bool object_operator(const char* method, std::vector<Value> args, Value& out);
  /// disp/display overloads: true when the object's class defined and ran one.
  bool object_display(const Value& v, std::string_view name);
  /// Runs `block` (property defaults, enumeration arguments) in a frame of the class's file and
  /// returns the value of variable `var` (null when unset).
  Value eval_class_block(ClassInfo& cls, ast::Block& block, const std::string& var, bool* set);
  std::map<const CodeUnit*, std::shared_ptr<ClassInfo>> classes_;
  /// Set by call_class_method for a constructor: call_user presets the first output with it.
  std::optional<Value> preset_output_;
  /// (class, property) pairs whose get./set. method is running (direct access inside them).
  std::vector<std::pair<const ClassInfo*, std::string>> accessors_active_;

  // Statements (exec_stmt.cc)
  Flow exec_block(const ast::Block& b);
  Flow exec_stmt(const ast::Stmt& s);
  /// Runs `f` as a plain for-loop (a parfor-loop when no parallel runner is installed).
  Flow exec_for_loop(const ast::ForStmt& f);

  /// The parallel runner (null: none; parfor runs serially, spmd on the client). Not owned.
  void set_parallel_runner(ParallelRunner* r) { parallel_ = r; }
  ParallelRunner* parallel_runner() const { return parallel_; }
  /// parfor reduction statements X = f(X, e) / f(e, X) in a worker's block: while X is unset
  /// the statement assigns e alone (a function reduction has no identity value to start
  /// from). Keyed by the statement; `slot` is X's slot. Empty except while a worker runs a
  /// parfor block (the parallel layer fills and clears it).
  struct ReductionFirst {
    const ast::Expr* other = nullptr;
    int slot = -1;
  };
  std::unordered_map<const ast::Stmt*, ReductionFirst> reduction_first_;

  // Variables
  /// Value in slot or null when unset.
  const Value* slot_value(int slot) const {
    const Slot& s = cur_->slots[static_cast<size_t>(slot)];
    if (s.ref) return s.ref;
    return s.set ? &s.v : nullptr;
  }
  void set_slot_scalar(int slot, double d) {
    Slot& s = cur_->slots[static_cast<size_t>(slot)];
    if (s.ref) {
      s.ref->set_scalar(d);
    } else {
      s.v.set_scalar(d);
      s.set = true;
    }
  }
  void set_slot(int slot, Value v) {
    Slot& s = cur_->slots[static_cast<size_t>(slot)];
    if (s.ref) {
      *s.ref = std::move(v);
    } else {
      s.v = std::move(v);
      s.set = true;
    }
  }

  int depth() const { return depth_; }
  Session& session_;

private:
  friend struct FrameGuard;
  friend class InterpAccess;

  void display_assigned(const std::string& name, const Value& v);
  Value fn_value_for(const ResolvedFn& fn);

public:
  // state (public for the split implementation files; treat as private)
  Frame base_;
  Layout base_layout_;
  Frame* cur_ = nullptr;
  int depth_ = 0;
  int64_t statement_limit_ = -1;  // see set_statement_limit
  ParallelRunner* parallel_ = nullptr;  // see set_parallel_runner
  static constexpr int kRecursionLimit = 500;
  const char* stack_base_ = nullptr;
  size_t stack_limit_ = 0;
  std::vector<std::string> path_;        ///< addpath folders, in search order
  std::string script_dir_;               ///< folder of the main script (searched first)
  uint64_t generation_ = 1;              ///< bumps on path/clear changes
  std::unordered_map<std::string, std::shared_ptr<CodeUnit>> path_cache_;  ///< null = absent
  std::map<std::string, Value> globals_;
  /// Persistent variables by "file>function" (stable when a file is parsed again).
  std::map<std::string, std::map<std::string, Value>> persistents_;
  Registry own_builtins_;                ///< interpreter builtins (eval, addpath, ...), checked first
  struct EndCtx {
    Dims dims;
    int k, n;
  };
  std::vector<EndCtx> end_stack_;
  /// Stack-depth guard: throws MATLAB:recursionLimit when the C++ stack runs low.
  void check_stack();
  void init_stack_guard();
};

/// MATLAB's text for an uncaught error: "Error using NAME\nMESSAGE\n" (or "MESSAGE\n"), then a
/// blank line and "Error in NAME (line N)" for each frame that has a file.
std::string format_error(const MatlabError& e);

/// The err value of `catch err`: struct with identifier, message, stack (file, name, line).
Value error_to_value(const MatlabError& e, const std::vector<StackFrame>& extra_frames);

/// rethrow(err) gives an error err.stack's frames, which already reach the base workspace: a
/// last marker frame (column -1; never printed or shown in err.stack) says so, and the frames
/// it unwinds through add nothing (rethrow through recursion stays linear in the depth).
inline bool stack_complete(const MatlabError& e) {
  return !e.stack().empty() && e.stack().back().column == -1;
}
inline void mark_stack_complete(MatlabError& e) { e.stack().push_back({"", "", 0, -1}); }

/// Registers the interpreter's own builtins (paths.cc).
void register_interp_builtins(Registry& r);
/// whos, help, doc (help.cc); called by register_interp_builtins.
void register_help_builtins(Registry& r);

/// FunctionObject implementations (functions.cc).
class NamedFunction : public FunctionObject {
public:
  NamedFunction(std::string name, std::shared_ptr<CodeUnit> unit, ResolvedFn fn)
      : name_(std::move(name)), unit_(std::move(unit)), fn_(std::move(fn)) {}
  std::string display() const override { return "@" + name_; }
  std::string name() const override { return name_; }
  const std::shared_ptr<CodeUnit>& unit() const { return unit_; }
  const ResolvedFn& resolved() const { return fn_; }

private:
  std::string name_;
  std::shared_ptr<CodeUnit> unit_;
  ResolvedFn fn_;
};

class AnonFunction : public FunctionObject {
public:
  AnonFunction(std::shared_ptr<CodeUnit> unit, const ast::AnonFnExpr* expr, Layout* layout,
               std::vector<Slot> captured)
      : unit_(std::move(unit)), expr_(expr), layout_(layout), captured_(std::move(captured)) {}
  std::string display() const override { return expr_->source(); }
  std::string name() const override { return ""; }
  const std::shared_ptr<CodeUnit>& unit() const { return unit_; }
  const ast::AnonFnExpr* expr() const { return expr_; }
  Layout* layout() const { return layout_; }
  /// Frame slots at creation: params unset, captured variables set.
  const std::vector<Slot>& captured() const { return captured_; }

private:
  std::shared_ptr<CodeUnit> unit_;
  const ast::AnonFnExpr* expr_;
  Layout* layout_;
  std::vector<Slot> captured_;
};

}  // namespace matfuse
