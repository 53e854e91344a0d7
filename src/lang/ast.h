// AST of the MATLAB language as matfuse parses it.
//
// Ownership: nodes are owned by unique_ptr from their parent; a parsed file (ParsedFile) owns
// everything. Nodes are immutable after parsing except for the `slot` fields of Ident and the
// per-function variable tables, which the interpreter's resolver fills in once before running
// (variables resolved to frame slots, so the hot path never hashes a name).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace matfuse::ast {

struct Loc {
  int line = 0;    ///< 1-based
  int column = 0;  ///< 1-based
};

enum class BinOp : uint8_t {
  Add, Sub, Mul, Div, LDiv, Pow,          // + - * / \ ^   (matrix forms)
  EMul, EDiv, ELDiv, EPow,                // .* ./ .\ .^
  Eq, Ne, Lt, Le, Gt, Ge,                 // == ~= < <= > >=
  And, Or,                                // & |   (elementwise)
  AndAnd, OrOr,                           // && || (short-circuit)
};
enum class UnOp : uint8_t { Neg, Plus, Not };
enum class PostOp : uint8_t { CTranspose, Transpose };  // ' .'

const char* binop_text(BinOp op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

enum class ExprKind : uint8_t {
  Number,      // 3, 1e-3, 0x1F, 3i
  String,      // 'chars' (is_string=false) or "string" (is_string=true)
  Ident,       // name
  Colon,       // bare ':' as an index argument
  End,         // 'end' inside an index argument
  Unary,
  Postfix,
  Binary,
  Range,       // a:b or a:s:b (step may be null)
  Index,       // base(args) or base{args}
  Field,       // base.name or base.(expr)
  Matrix,      // [a b; c d]
  CellLit,     // {a b; c d}
  AnonFn,      // @(x, y) body
  FuncHandle,  // @name
};

struct Expr {
  explicit Expr(ExprKind k, Loc l) : kind(k), loc(l) {}
  virtual ~Expr() = default;
  ExprKind kind;
  Loc loc;
};

struct NumberExpr : Expr {
  NumberExpr(Loc l, double v, bool imag) : Expr(ExprKind::Number, l), value(v), imaginary(imag) {}
  double value;
  bool imaginary;  ///< 3i, 2.5j
  /// Class of a hexadecimal/binary literal ("uint8", ..., "int64"; 0x1F is uint8, 0xFFs8 is
  /// int8 -1); empty for ordinary (double) literals.
  std::string int_class;
};

struct StringExpr : Expr {
  StringExpr(Loc l, std::string v, bool str) : Expr(ExprKind::String, l), value(std::move(v)), is_string(str) {}
  std::string value;  ///< UTF-8, quotes already unescaped
  bool is_string;     ///< "..." (string class) vs '...' (char)
};

struct IdentExpr : Expr {
  IdentExpr(Loc l, std::string n) : Expr(ExprKind::Ident, l), name(std::move(n)) {}
  std::string name;
  int slot = -1;  ///< variable slot in the enclosing function's frame, set by the resolver
};

struct ColonExpr : Expr { explicit ColonExpr(Loc l) : Expr(ExprKind::Colon, l) {} };
struct EndExpr : Expr { explicit EndExpr(Loc l) : Expr(ExprKind::End, l) {} };

struct UnaryExpr : Expr {
  UnaryExpr(Loc l, UnOp o, ExprPtr e) : Expr(ExprKind::Unary, l), op(o), operand(std::move(e)) {}
  UnOp op;
  ExprPtr operand;
};

struct PostfixExpr : Expr {
  PostfixExpr(Loc l, PostOp o, ExprPtr e) : Expr(ExprKind::Postfix, l), op(o), operand(std::move(e)) {}
  PostOp op;
  ExprPtr operand;
};

struct BinaryExpr : Expr {
  BinaryExpr(Loc l, BinOp o, ExprPtr a, ExprPtr b)
      : Expr(ExprKind::Binary, l), op(o), lhs(std::move(a)), rhs(std::move(b)) {}
  BinOp op;
  ExprPtr lhs, rhs;
};

struct RangeExpr : Expr {
  RangeExpr(Loc l, ExprPtr a, ExprPtr s, ExprPtr b)
      : Expr(ExprKind::Range, l), start(std::move(a)), step(std::move(s)), stop(std::move(b)) {}
  ExprPtr start, step /* may be null */, stop;
};

struct IndexExpr : Expr {
  IndexExpr(Loc l, ExprPtr b, std::vector<ExprPtr> a, bool brace)
      : Expr(ExprKind::Index, l), base(std::move(b)), args(std::move(a)), is_brace(brace) {}
  ExprPtr base;
  std::vector<ExprPtr> args;
  bool is_brace;  ///< x{...} vs x(...)
};

struct FieldExpr : Expr {
  FieldExpr(Loc l, ExprPtr b, std::string n, ExprPtr dyn)
      : Expr(ExprKind::Field, l), base(std::move(b)), name(std::move(n)), dynamic(std::move(dyn)) {}
  ExprPtr base;
  std::string name;  ///< static field name (empty when dynamic)
  ExprPtr dynamic;   ///< s.(expr), null for static
};

/// Rows of elements; used for both [ ] (MatrixExpr) and { } (CellLit).
struct MatrixExpr : Expr {
  MatrixExpr(Loc l, bool cell, std::vector<std::vector<ExprPtr>> r)
      : Expr(cell ? ExprKind::CellLit : ExprKind::Matrix, l), rows(std::move(r)) {}
  std::vector<std::vector<ExprPtr>> rows;
};

struct FunctionDef;

struct AnonFnExpr : Expr {
  AnonFnExpr(Loc l, std::vector<std::string> p, ExprPtr b)
      : Expr(ExprKind::AnonFn, l), params(std::move(p)), body(std::move(b)) {}
  std::vector<std::string> params;
  ExprPtr body;
  /// Canonical text for display: "@(x)x.^2+a". Nested anonymous functions share the text of
  /// the outermost one (each keeps its range), so n levels of nesting cost O(n), not O(n^2).
  std::string source() const { return text ? text->substr(text_begin, text_len) : std::string(); }
  std::shared_ptr<const std::string> text;
  size_t text_begin = 0, text_len = 0;
  /// Filled by the resolver: the anonymous function's own frame layout (params first, then
  /// captured names), and for each captured name the slot in the enclosing frame.
  std::vector<std::string> frame_names;
  std::vector<int> capture_outer_slots;
};

struct FuncHandleExpr : Expr {
  FuncHandleExpr(Loc l, std::string n) : Expr(ExprKind::FuncHandle, l), name(std::move(n)) {}
  std::string name;
};

/// Calls f(const Expr*) for each direct sub-expression of e, left to right: operands, a range's
/// start, step and stop, an index's base and arguments, a field's base and dynamic name, matrix
/// and cell elements, an anonymous function's body. Absent parts (a range without a step, a
/// static field name) are skipped; leaves (numbers, strings, names, ':', 'end', @name) have none.
template <class F> void for_each_child(const Expr& e, F&& f) {
  auto visit = [&](const ExprPtr& c) {
    if (c) f(c.get());
  };
  switch (e.kind) {
    case ExprKind::Unary: visit(static_cast<const UnaryExpr&>(e).operand); return;
    case ExprKind::Postfix: visit(static_cast<const PostfixExpr&>(e).operand); return;
    case ExprKind::Binary:
      visit(static_cast<const BinaryExpr&>(e).lhs);
      visit(static_cast<const BinaryExpr&>(e).rhs);
      return;
    case ExprKind::Range: {
      const auto& r = static_cast<const RangeExpr&>(e);
      visit(r.start);
      visit(r.step);
      visit(r.stop);
      return;
    }
    case ExprKind::Index: {
      const auto& x = static_cast<const IndexExpr&>(e);
      visit(x.base);
      for (const ExprPtr& a : x.args) visit(a);
      return;
    }
    case ExprKind::Field:
      visit(static_cast<const FieldExpr&>(e).base);
      visit(static_cast<const FieldExpr&>(e).dynamic);
      return;
    case ExprKind::Matrix:
    case ExprKind::CellLit:
      for (const auto& row : static_cast<const MatrixExpr&>(e).rows)
        for (const ExprPtr& x : row) visit(x);
      return;
    case ExprKind::AnonFn: visit(static_cast<const AnonFnExpr&>(e).body); return;
    default: return;
  }
}

// ---------------------------------------------------------------- statements

enum class StmtKind : uint8_t {
  Expr,        // expression statement (displays as `ans = ` unless a call with no outputs)
  Assign,      // lhs = rhs, [a, b] = rhs
  If,
  For,
  While,
  Switch,
  Try,
  Break,
  Continue,
  Return,
  Global,
  Persistent,
  Command,     // command syntax: name word word ... (format long, hold on, clear x)
  Spmd,        // spmd [ (n) | (m, n) ] block end
};

struct Stmt {
  Stmt(StmtKind k, Loc l) : kind(k), loc(l) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  Loc loc;
  bool print = false;  ///< not terminated by ';' (display the result)
};

struct ExprStmt : Stmt {
  ExprStmt(Loc l, ExprPtr e) : Stmt(StmtKind::Expr, l), expr(std::move(e)) {}
  ExprPtr expr;
};

/// Assignment. Each target is an Ident, or an Index/Field chain rooted at an Ident, or a
/// `~` placeholder (null ExprPtr) in multi-assignment.
struct AssignStmt : Stmt {
  AssignStmt(Loc l, std::vector<ExprPtr> t, ExprPtr r)
      : Stmt(StmtKind::Assign, l), targets(std::move(t)), rhs(std::move(r)) {}
  std::vector<ExprPtr> targets;  ///< size 1 for `x = ...`; null entries are `~`
  ExprPtr rhs;
  bool multi = false;  ///< written with brackets: [a, b] = ...
};

struct IfStmt : Stmt {
  explicit IfStmt(Loc l) : Stmt(StmtKind::If, l) {}
  struct Clause {
    ExprPtr cond;  ///< null for the else clause
    Block body;
  };
  std::vector<Clause> clauses;
};

struct ForStmt : Stmt {
  explicit ForStmt(Loc l) : Stmt(StmtKind::For, l), id(next_id()) {}
  /// Unique over the process (never reused, unlike the address of a freed statement): the
  /// key of what the interpreter keeps about a loop between its executions.
  const uint64_t id;
  ExprPtr var;  ///< IdentExpr (or an indexed target, rare)
  ExprPtr range;
  Block body;
  /// A parfor-loop (run by the parallel layer when one is installed; else as a for-loop).
  bool parfor = false;
  /// parfor (i = r, M): the most workers to use (null when not given).
  ExprPtr max_workers;

private:
  static uint64_t next_id() {
    static std::atomic<uint64_t> n{0};
    return ++n;
  }
};

/// spmd block: the body runs on every worker of the pool (on the client when none is open).
struct SpmdStmt : Stmt {
  explicit SpmdStmt(Loc l) : Stmt(StmtKind::Spmd, l) {}
  ExprPtr min_workers;  ///< spmd (m, n): m; null when not given
  ExprPtr max_workers;  ///< spmd (n) / spmd (m, n): n; null when not given
  Block body;
};

struct WhileStmt : Stmt {
  explicit WhileStmt(Loc l) : Stmt(StmtKind::While, l) {}
  ExprPtr cond;
  Block body;
};

struct SwitchStmt : Stmt {
  explicit SwitchStmt(Loc l) : Stmt(StmtKind::Switch, l) {}
  struct Case {
    ExprPtr value;  ///< null for otherwise
    Block body;
  };
  ExprPtr subject;
  std::vector<Case> cases;
};

struct TryStmt : Stmt {
  explicit TryStmt(Loc l) : Stmt(StmtKind::Try, l) {}
  Block body;
  std::string catch_var;  ///< empty when `catch` has no identifier
  int catch_slot = -1;
  Block handler;
};

struct SimpleStmt : Stmt {  // Break, Continue, Return
  SimpleStmt(StmtKind k, Loc l) : Stmt(k, l) {}
};

struct DeclStmt : Stmt {  // Global, Persistent
  DeclStmt(StmtKind k, Loc l) : Stmt(k, l) {}
  std::vector<std::string> names;
  std::vector<int> slots;
  std::vector<ExprPtr> inits;  ///< persistent x = 0 style initialisers are not MATLAB; kept empty
};

struct CommandStmt : Stmt {
  CommandStmt(Loc l, std::string n, std::vector<std::string> a)
      : Stmt(StmtKind::Command, l), name(std::move(n)), args(std::move(a)) {}
  std::string name;
  std::vector<std::string> args;
};

// ---------------------------------------------------------------- functions and files

struct FunctionDef {
  std::string name;
  Loc loc;
  std::vector<std::string> params;   ///< may end with "varargin"; "~" for ignored inputs
  std::vector<std::string> outputs;  ///< may end with "varargout"
  Block body;
  std::vector<std::unique_ptr<FunctionDef>> nested;  ///< nested functions (end-terminated files)
  /// Filled by the resolver: frame layout (all variable names, params and outputs first).
  std::vector<std::string> frame_names;
  bool resolved = false;
};

/// One attribute of a classdef, properties or methods block: `Static`, `Access = private`,
/// `~Hidden` (value "false"). value is the attribute's source text ("true" when only named).
struct ClassAttr {
  std::string name;
  std::string value;
};

/// A property of a classdef: NAME [ (dims) ] [ CLASS ] [ {validators} ] [ = default ].
struct ClassProperty {
  std::string name;
  Loc loc;
  /// `__value__ = default` (empty when no default: the value is []); run once per class.
  std::vector<StmtPtr> default_block;
  std::vector<std::string> size;         ///< "1", ":" ... per dimension; empty when not given
  std::string cls;                       ///< validation class ("double", "string", ...) or ""
  std::vector<ExprPtr> validators;       ///< function calls/names inside { }
  std::vector<ClassAttr> attrs;          ///< the block's attributes
};

/// A method of a classdef (its FunctionDef lives in ParsedFile::functions).
struct ClassMethod {
  std::string name;
  std::vector<ClassAttr> attrs;  ///< the block's attributes (Static, Access, Abstract, ...)
  bool has_body = true;          ///< false for a signature-only declaration
};

/// An enumeration member: NAME [ (args) ].
struct EnumMember {
  std::string name;
  Loc loc;
  std::vector<StmtPtr> args;  ///< `__a1__ = arg1; __a2__ = arg2; ...`
  size_t nargs = 0;
};

/// classdef [ (attrs) ] NAME [ < SUPER { & SUPER } ] ... end
struct ClassDefAst {
  std::string name;
  Loc loc;
  std::vector<ClassAttr> attrs;
  std::vector<std::string> supers;
  std::vector<ClassProperty> properties;
  std::vector<ClassMethod> methods;
  std::vector<EnumMember> enumeration;
};

/// A parsed .m file: a script (statements, then optional local functions) or a function file
/// (first function is the main one; the rest are local functions).
struct ParsedFile {
  std::string path;  ///< as given to the parser ("" for -e / REPL input)
  std::string name;  ///< file stem
  bool is_script = true;
  Block script_body;                                ///< scripts only
  std::vector<std::unique_ptr<FunctionDef>> functions;  ///< main function first for function files
  std::vector<std::string> script_frame_names;      ///< filled by the resolver for scripts
  /// classdef files: the class (is_script false; its methods and the file's local functions
  /// are in functions).
  std::unique_ptr<ClassDefAst> classdef;
};

}  // namespace matfuse::ast
