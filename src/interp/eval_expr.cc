// Expression evaluation.
//
// Hot paths (kept allocation-free for real double scalars): identifiers read their frame slot;
// binary operators on two Scalar values compute inline; a call f(x) / f(x, y) of a builtin with
// Builtin::scalar1/scalar2 and scalar arguments calls the fast path without building argument
// vectors; sqrt/log/log2/log10 of a nonnegative scalar compute directly (negative arguments go to
// the builtin, which returns complex results).
#include <algorithm>
#include <cmath>

#include "builtins/construct.h"
#include "builtins/operators.h"
#include "builtins/methods.h"
#include "interp/call_site.h"
#include "interp/indexing.h"
#include "interp/interp.h"
#include "accel/capture/lazy.h"
#include "interp/classdef.h"
#include "runtime/scalar_ops.h"
#include "runtime/sparse.h"

namespace matfuse {

using namespace ast;

namespace {

/// Pops the `end` context on scope exit (also when an error unwinds).
struct EndGuard {
  std::vector<Interpreter::EndCtx>& st;
  ~EndGuard() { st.pop_back(); }
};

[[noreturn]] void undefined_name(const std::string& name) {
  throw_error("MATLAB:UndefinedFunction", "Unrecognized function or variable '%s'.", name.c_str());
}

/// True when a single Scalar binary op could be computed inline; result in out.
inline bool scalar_binop(BinOp op, double x, double y, Value& out) {
  switch (op) {
    case BinOp::Add: out = Value(x + y); return true;
    case BinOp::Sub: out = Value(x - y); return true;
    case BinOp::Mul:
    case BinOp::EMul: out = Value(x * y); return true;
    case BinOp::Div:
    case BinOp::EDiv: out = Value(x / y); return true;
    case BinOp::LDiv:
    case BinOp::ELDiv: out = Value(y / x); return true;
    case BinOp::Pow:
    case BinOp::EPow:
      if (x >= 0 || y == std::floor(y)) {
        out = Value(std::pow(x, y));
        return true;
      }
      return false;
    case BinOp::Eq: out = Value::logical(x == y); return true;
    case BinOp::Ne: out = Value::logical(x != y); return true;
    case BinOp::Lt: out = Value::logical(x < y); return true;
    case BinOp::Le: out = Value::logical(x <= y); return true;
    case BinOp::Gt: out = Value::logical(x > y); return true;
    case BinOp::Ge: out = Value::logical(x >= y); return true;
    default: return false;
  }
}

inline bool is_compare(BinOp op) {
  return op == BinOp::Eq || op == BinOp::Ne || op == BinOp::Lt || op == BinOp::Le ||
         op == BinOp::Gt || op == BinOp::Ge;
}

inline bool scalar_compare(BinOp op, double x, double y) {
  switch (op) {
    case BinOp::Eq: return x == y;
    case BinOp::Ne: return x != y;
    case BinOp::Lt: return x < y;
    case BinOp::Le: return x <= y;
    case BinOp::Gt: return x > y;
    default: return x >= y;
  }
}

[[noreturn]] void nan_to_logical() {
  throw_error("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.");
}

/// Truth of a || / && operand: must be convertible to a logical scalar.
bool logical_scalar(const Value& v) {
  if (v.is_scalar_double()) {
    double x = v.scalar();
    if (x != x) nan_to_logical();
    return x != 0;
  }
  if ((v.is_tensor() || as_sparse(v)) && v.numel() == 1) {
    accel::SinkScope sink(accel::SinkReason::Branch);
    return v.truthy();
  }
  throw_error("MATLAB:nonLogicalConditional",
              "Operands to the logical AND (&&) and OR (||) operators must be convertible to "
              "logical scalar values. Use the ANY or ALL functions to reduce operands to logical "
              "scalar values.");
}

/// Whether evaluating this argument expression can yield a comma-separated list.
inline bool may_be_list(const Expr& e) {
  if (e.kind == ExprKind::Field) return true;
  if (e.kind == ExprKind::Index) return static_cast<const IndexExpr&>(e).is_brace;
  return false;
}

/// Op::apply(x) in double for a unary functor (x itself for the others, never called).
template <class Op> double apply_unary(double x) {
  if constexpr (requires { Op::apply(x); }) return static_cast<double>(Op::apply(x));
  else return x;
}

/// The scalar fast path of a unary kScalarFast op: its functor (runtime/scalar_ops.h) for
/// x >= 0, where the result is real.
inline bool special_scalar(std::optional<OpId> op, double x, double& r) {
  if (!op || op_arity(*op) != 1 || !(x >= 0)) return false;
  switch (*op) {
#define MF_OP(id, ...) \
  case OpId::id: r = apply_unary<scalar::id>(x); return true;
#include "runtime/ops.def"
#undef MF_OP
  }
  return false;
}

/// mod/rem of integer-valued doubles below 2^53 in magnitude, computed exactly in int64 (the
/// same values as the builtins; other arguments go to Builtin::scalar2).
inline bool special_scalar2(std::optional<OpId> op, double x, double y, double& r) {
  if (!op || (*op != OpId::Mod && *op != OpId::Rem)) return false;
  constexpr double kLim = 9007199254740992.0;  // 2^53
  if (!(std::fabs(x) < kLim && std::fabs(y) < kLim) || y == 0) return false;
  int64_t a = static_cast<int64_t>(x), b = static_cast<int64_t>(y);
  if (static_cast<double>(a) != x || static_cast<double>(b) != y) return false;
  int64_t m = a % b;
  if (*op == OpId::Mod && m != 0 && ((m < 0) != (b < 0))) m += b;
  r = static_cast<double>(m);
  return true;
}

}  // namespace

// Reads the function cache of an identifier's slot, resolving on a miss.
static const ResolvedFn& cached_fn(Interpreter& in, const IdentExpr& id) {
  Frame* f = in.cur_;
  Layout::FnCache& c = f->layout->fn_cache[static_cast<size_t>(id.slot)];
  if (c.generation != in.generation_ || c.unit != f->unit) {
    c.fn = in.resolve_function(id.name, f->unit);
    c.generation = in.generation_;
    c.unit = f->unit;
  }
  return c.fn;
}

/// x OP y where an operand is a class object: the class's method of the operator's name
/// (plus, minus, times, mtimes, rdivide, mrdivide, power, mpower, eq, ne, lt, le, gt, ge, and,
/// or, ...); without one, == and ~= compare enumeration members by name and handles by
/// identity. False for other objects (the generic operator then raises its error).
static bool object_binary(Interpreter& in, BinOp op, const Value& x, const Value& y, Value& r) {
  const char* m = nullptr;
  switch (op) {
    case BinOp::Add: m = "plus"; break;
    case BinOp::Sub: m = "minus"; break;
    case BinOp::EMul: m = "times"; break;
    case BinOp::Mul: m = "mtimes"; break;
    case BinOp::EDiv: m = "rdivide"; break;
    case BinOp::Div: m = "mrdivide"; break;
    case BinOp::ELDiv: m = "ldivide"; break;
    case BinOp::LDiv: m = "mldivide"; break;
    case BinOp::EPow: m = "power"; break;
    case BinOp::Pow: m = "mpower"; break;
    case BinOp::Eq: m = "eq"; break;
    case BinOp::Ne: m = "ne"; break;
    case BinOp::Lt: m = "lt"; break;
    case BinOp::Le: m = "le"; break;
    case BinOp::Gt: m = "gt"; break;
    case BinOp::Ge: m = "ge"; break;
    case BinOp::And: m = "and"; break;
    case BinOp::Or: m = "or"; break;
    default: return false;
  }
  if (in.object_operator(m, {x, y}, r)) return true;
  if (op != BinOp::Eq && op != BinOp::Ne) return false;
  ClassObject* a = as_class_object(x);
  ClassObject* b = as_class_object(y);
  if (!a || !b) return false;
  bool eq;
  if (!a->enum_member.empty() || !b->enum_member.empty())
    eq = a->cls == b->cls && a->enum_member == b->enum_member;
  else if (a->cls->is_handle && b->cls->is_handle)
    eq = a == b;
  else
    return false;
  r = Value::logical(op == BinOp::Eq ? eq : !eq);
  return true;
}

/// Evaluates index/call arguments (colon -> ':' char, cs-lists expanded). When end_dims is
/// given, `end` in argument k refers to that array.
static void eval_args(Interpreter& in, const IndexExpr& ix, const Dims* end_dims,
                      std::vector<Value>& args) {
  int n = static_cast<int>(ix.args.size());
  args.reserve(args.size() + ix.args.size());
  for (int k = 0; k < n; ++k) {
    const Expr& a = *ix.args[static_cast<size_t>(k)];
    if (a.kind == ExprKind::Colon) {
      args.push_back(Value::from_chars(":"));
      continue;
    }
    if (end_dims) {
      in.end_stack_.push_back({*end_dims, k, n});
      EndGuard g{in.end_stack_};
      in.eval_multi(a, args);
    } else {
      in.eval_multi(a, args);
    }
  }
}

/// f(x) / f(x, y) / x(i) fast paths; false when the general path must run.
static bool try_fast_index(Interpreter& in, const IndexExpr& ix, Value& result) {
  if (ix.is_brace || ix.base->kind != ExprKind::Ident) return false;
  size_t na = ix.args.size();
  if (na == 0 || na > 2) return false;
  for (const auto& a : ix.args)
    if (may_be_list(*a) || a->kind == ExprKind::Colon || a->kind == ExprKind::End) return false;
  const auto& id = static_cast<const IdentExpr&>(*ix.base);
  if (const Value* var = in.slot_value(id.slot)) {
    if (!var->is_tensor() || na != 1) return false;
    // x(i), where i may use `end` (e.g. x(end-1)).
    Value idx(0.0);
    {
      in.end_stack_.push_back({var->dims(), 0, 1});
      EndGuard g{in.end_stack_};
      idx = in.eval(*ix.args[0]);
    }
    var = in.slot_value(id.slot);  // slots may have moved while evaluating
    if (!var) return false;
    result = index_paren(*var, std::span<const Value>(&idx, 1));
    return true;
  }
  const ResolvedFn& fn = cached_fn(in, id);
  if (fn.kind != ResolvedFn::Kind::Builtin) return false;
  const Builtin* b = fn.builtin;
  const std::optional<OpId> sp = fn.scalar_fast;
  if (na == 1) {
    Value a = in.eval(*ix.args[0]);
    if (a.is_scalar_double()) {
      double r;
      if (special_scalar(sp, a.scalar(), r)) {
        result = Value(r);
        return true;
      }
      if (b->scalar1) {
        result = Value(b->scalar1(a.scalar()));
        return true;
      }
    }
    CallSiteScope site(&ix);
    Outputs o = in.call_resolved(cached_fn(in, id), std::span<const Value>(&a, 1), 1);
    result = std::move(o[0]);
    return true;
  }
  Value ab[2] = {in.eval(*ix.args[0]), in.eval(*ix.args[1])};
  if (b->scalar2 && ab[0].is_scalar_double() && ab[1].is_scalar_double()) {
    result = Value(b->scalar2(ab[0].scalar(), ab[1].scalar()));
    return true;
  }
  CallSiteScope site(&ix);
  Outputs o = in.call_resolved(cached_fn(in, id), std::span<const Value>(ab, 2), 1);
  result = std::move(o[0]);
  return true;
}

static Value single_of(std::vector<Value>& list) {
  if (list.empty())
    throw_error("MATLAB:needMoreRhsOutputs",
                "Insufficient number of outputs from right hand side of equal sign to satisfy "
                "assignment.");
  return std::move(list[0]);
}

Value Interpreter::eval(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Number: {
      const auto& n = static_cast<const NumberExpr&>(e);
      if (n.imaginary) return Value(Tensor::complex_scalar({0.0, n.value}));
      if (!n.int_class.empty()) {  // hex/binary literal: 0x1F is uint8, 0xFFs8 is int8
        std::optional<ClassId> c = class_from_name(n.int_class);
        MF_ASSERT(c.has_value(), "parser produced an unknown integer literal class");
        return Value(Tensor::scalar(n.value, *c));
      }
      return Value(n.value);
    }
    case ExprKind::String: {
      const auto& s = static_cast<const StringExpr&>(e);
      return s.is_string ? Value::from_string(s.value) : Value::from_chars(s.value);
    }
    case ExprKind::Ident: {
      const auto& id = static_cast<const IdentExpr&>(e);
      if (const Value* v = slot_value(id.slot)) return *v;
      std::vector<Value> out;
      eval_chain(e, 1, out);
      return single_of(out);
    }
    case ExprKind::Colon:
      return Value::from_chars(":");
    case ExprKind::End: {
      if (end_stack_.empty())
        throw_error("MATLAB:badsubscript",
                    "'end' is not valid here: it must appear inside an index expression.");
      const EndCtx& c = end_stack_.back();
      return Value(static_cast<double>(end_index(c.dims, c.k, c.n)));
    }
    case ExprKind::Unary: {
      const auto& u = static_cast<const UnaryExpr&>(e);
      Value v = eval(*u.operand);
      if (v.is_scalar_double()) {
        double x = v.scalar();
        if (u.op == UnOp::Neg) return Value(-x);
        if (u.op == UnOp::Plus) return v;
        if (x == x) return Value::logical(x == 0);
      }
      if (v.is_object()) [[unlikely]] {
        Value r;
        const char* m = u.op == UnOp::Neg ? "uminus" : u.op == UnOp::Plus ? "uplus" : "not";
        if (object_operator(m, {v}, r)) return r;
        if (as_sparse(v)) v = densify(v);
      }
      return unary_op(u.op, v);
    }
    case ExprKind::Postfix: {
      const auto& p = static_cast<const PostfixExpr&>(e);
      Value v = eval(*p.operand);
      if (v.is_scalar_double()) return v;
      if (v.is_object()) [[unlikely]] {
        Value r;
        if (object_operator(p.op == PostOp::CTranspose ? "ctranspose" : "transpose", {v}, r))
          return r;
        if (as_sparse(v)) v = densify(v);
      }
      return transpose_op(v, p.op == PostOp::CTranspose);
    }
    case ExprKind::Binary: {
      const auto& b = static_cast<const BinaryExpr&>(e);
      if (b.op == BinOp::AndAnd) {
        bool r = logical_scalar(eval(*b.lhs)) && logical_scalar(eval(*b.rhs));
        return Value::logical(r);
      }
      if (b.op == BinOp::OrOr) {
        bool r = logical_scalar(eval(*b.lhs)) || logical_scalar(eval(*b.rhs));
        return Value::logical(r);
      }
      Value x, y;
      if (b.op == BinOp::Mul && b.lhs->kind == ExprKind::Postfix) [[unlikely]] {
        // S' * x with a sparse S: the product without forming the transpose. Other operands
        // take the postfix operator's usual path.
        const auto& pf = static_cast<const PostfixExpr&>(*b.lhs);
        const bool ct = pf.op == PostOp::CTranspose;
        Value s = eval(*pf.operand);
        y = eval(*b.rhs);
        if (const SparseMatrix* sm = as_sparse(s))
          if (std::optional<Value> r = sparse_transposed_product(*sm, y)) return std::move(*r);
        if (s.is_scalar_double()) x = std::move(s);
        else if (!s.is_object() || !object_operator(ct ? "ctranspose" : "transpose", {s}, x))
          x = transpose_op(densify(s), ct);
      } else {
        x = eval(*b.lhs);
        y = eval(*b.rhs);
      }
      if (x.is_scalar_double() && y.is_scalar_double()) {
        Value r(0.0);
        if (scalar_binop(b.op, x.scalar(), y.scalar(), r)) return r;
      }
      if (x.is_object() || y.is_object()) [[unlikely]] {
        Value r;
        if (object_binary(*this, b.op, x, y, r)) return r;
        // An operator without a sparse method works on the full operands.
        if (as_sparse(x) || as_sparse(y)) return binary_op(b.op, densify(x), densify(y));
      }
      return binary_op(b.op, x, y);
    }
    case ExprKind::Range: {
      const auto& r = static_cast<const RangeExpr&>(e);
      Value a = eval(*r.start);
      if (r.step) {
        Value s = eval(*r.step);
        Value b = eval(*r.stop);
        if (a.is_object() || s.is_object() || b.is_object()) [[unlikely]] {
          Value o;
          if (object_operator("colon", {a, s, b}, o)) return o;
          a = densify(a), s = densify(s), b = densify(b);
        }
        return colon_op(a, &s, b);
      }
      Value b = eval(*r.stop);
      if (a.is_object() || b.is_object()) [[unlikely]] {
        Value o;
        if (object_operator("colon", {a, b}, o)) return o;
        a = densify(a), b = densify(b);
      }
      return colon_op(a, nullptr, b);
    }
    case ExprKind::Index: {
      Value r(0.0);
      if (try_fast_index(*this, static_cast<const IndexExpr&>(e), r)) return r;
      std::vector<Value> out;
      eval_chain(e, 1, out);
      return single_of(out);
    }
    case ExprKind::Field: {
      std::vector<Value> out;
      eval_chain(e, 1, out);
      return single_of(out);
    }
    case ExprKind::Matrix: {
      const auto& m = static_cast<const MatrixExpr&>(e);
      if (m.rows.empty()) return Value();
      std::vector<Value> rows;
      rows.reserve(m.rows.size());
      for (const auto& row : m.rows) {
        std::vector<Value> elems;
        elems.reserve(row.size());
        for (const auto& x : row) eval_multi(*x, elems);
        if (elems.size() == 1 && m.rows.size() == 1) return std::move(elems[0]);
        rows.push_back(elems.size() == 1 ? std::move(elems[0]) : horzcat(elems));
      }
      if (rows.size() == 1) return std::move(rows[0]);
      return vertcat(rows);
    }
    case ExprKind::CellLit: {
      const auto& m = static_cast<const MatrixExpr&>(e);
      if (m.rows.empty()) return Value(CellArray(Dims(0, 0)));
      std::vector<Value> rows;
      for (const auto& row : m.rows) {
        std::vector<Value> elems;
        for (const auto& x : row) eval_multi(*x, elems);
        CellArray c(Dims(1, static_cast<int64_t>(elems.size())));
        for (size_t i = 0; i < elems.size(); ++i) c.at(static_cast<int64_t>(i)) = std::move(elems[i]);
        rows.push_back(Value(std::move(c)));
      }
      if (rows.size() == 1) return std::move(rows[0]);
      return vertcat(rows);
    }
    case ExprKind::AnonFn: {
      const auto& a = static_cast<const AnonFnExpr&>(e);
      CodeUnit* code = cur_->code ? cur_->code : cur_->unit;
      MF_ASSERT(code != nullptr, "anonymous function outside a code unit");
      auto it = code->layouts.find(&a);
      MF_ASSERT(it != code->layouts.end(), "anonymous function not resolved");
      Layout* L = it->second.get();
      std::vector<Slot> cap(L->names.size());
      for (size_t i = 0; i < a.capture_outer_slots.size(); ++i) {
        const Value* v = slot_value(a.capture_outer_slots[i]);
        if (v) {
          Slot& s = cap[a.params.size() + i];
          s.v = *v;
          s.set = true;
        }
      }
      return Value(std::shared_ptr<const FunctionObject>(
          std::make_shared<AnonFunction>(code->shared_from_this(), &a, L, std::move(cap))));
    }
    case ExprKind::FuncHandle:
      return make_named_handle(static_cast<const FuncHandleExpr&>(e).name);
  }
  internal_assert_failed("false", __FILE__, __LINE__, "unknown expression kind");
}

bool Interpreter::eval_scalar(const Expr& e, double& out) {
  switch (e.kind) {
    case ExprKind::Number: {
      const auto& n = static_cast<const NumberExpr&>(e);
      if (n.imaginary || !n.int_class.empty()) return false;
      out = n.value;
      return true;
    }
    case ExprKind::Ident: {
      const Value* v = slot_value(static_cast<const IdentExpr&>(e).slot);
      if (!v || !v->is_scalar_double()) return false;
      out = v->scalar();
      return true;
    }
    case ExprKind::Unary: {
      const auto& u = static_cast<const UnaryExpr&>(e);
      if (u.op == UnOp::Not || !eval_scalar(*u.operand, out)) return false;
      if (u.op == UnOp::Neg) out = -out;
      return true;
    }
    case ExprKind::Binary: {
      const auto& b = static_cast<const BinaryExpr&>(e);
      double x, y;
      switch (b.op) {
        case BinOp::Add: case BinOp::Sub: case BinOp::Mul: case BinOp::EMul: case BinOp::Div:
        case BinOp::EDiv: case BinOp::LDiv: case BinOp::ELDiv: case BinOp::Pow: case BinOp::EPow:
          break;
        default:
          return false;
      }
      if (!eval_scalar(*b.lhs, x) || !eval_scalar(*b.rhs, y)) return false;
      switch (b.op) {
        case BinOp::Add: out = x + y; return true;
        case BinOp::Sub: out = x - y; return true;
        case BinOp::Mul: case BinOp::EMul: out = x * y; return true;
        case BinOp::Div: case BinOp::EDiv: out = x / y; return true;
        case BinOp::LDiv: case BinOp::ELDiv: out = y / x; return true;
        default:
          if (x >= 0 || y == std::floor(y)) {
            out = std::pow(x, y);
            return true;
          }
          return false;
      }
    }
    case ExprKind::Index: {
      const auto& ix = static_cast<const IndexExpr&>(e);
      if (ix.is_brace || ix.base->kind != ExprKind::Ident) return false;
      size_t na = ix.args.size();
      if (na == 0 || na > 2) return false;
      const auto& id = static_cast<const IdentExpr&>(*ix.base);
      if (const Value* var = slot_value(id.slot)) {
        // x(i) of a real double array with an in-range integer scalar index.
        if (na != 1 || var->kind() != Value::Kind::Array) return false;
        double i;
        if (!eval_scalar(*ix.args[0], i)) return false;
        var = slot_value(id.slot);
        if (!var || var->kind() != Value::Kind::Array || var->cls() != ClassId::Double) return false;
        if (var->is_gpu_array()) return false;  // x(i) of a gpuArray is a gpuArray
        const Tensor t = accel::settled_value(var->tensor());
        // A device-only array: index_paren reads the one element there (no gather).
        if (t.is_complex() || t.device_only()) return false;
        int64_t k = static_cast<int64_t>(i);
        if (static_cast<double>(k) != i || k < 1 || k > t.numel()) return false;
        out = t.data<double>()[k - 1];
        return true;
      }
      const ResolvedFn& fn = cached_fn(*this, id);
      if (fn.kind != ResolvedFn::Kind::Builtin) return false;
      const Builtin* b = fn.builtin;
      const std::optional<OpId> sp = fn.scalar_fast;
      if (na == 1) {
        if (!b->scalar1 && !sp) return false;
        double x;
        if (!eval_scalar(*ix.args[0], x)) return false;
        if (special_scalar(sp, x, out)) return true;
        if (!b->scalar1) return false;
        out = b->scalar1(x);
        return true;
      }
      if (!b->scalar2 && !sp) return false;
      double x, y;
      if (!eval_scalar(*ix.args[0], x) || !eval_scalar(*ix.args[1], y)) return false;
      if (special_scalar2(sp, x, y, out)) return true;
      if (!b->scalar2) return false;
      out = b->scalar2(x, y);
      return true;
    }
    default:
      return false;
  }
}

void Interpreter::eval_multi(const Expr& e, std::vector<Value>& out) {
  if (may_be_list(e)) {
    eval_chain(e, 1, out);
    return;
  }
  out.push_back(eval(e));
}

bool Interpreter::eval_cond(const Expr& e) {
  if (e.kind == ExprKind::Binary) {
    const auto& b = static_cast<const BinaryExpr&>(e);
    if (b.op == BinOp::AndAnd) return logical_scalar(eval(*b.lhs)) && logical_scalar(eval(*b.rhs));
    if (b.op == BinOp::OrOr) return logical_scalar(eval(*b.lhs)) || logical_scalar(eval(*b.rhs));
    if (is_compare(b.op)) {
      double xs, ys;
      if (eval_scalar(*b.lhs, xs) && eval_scalar(*b.rhs, ys)) return scalar_compare(b.op, xs, ys);
      Value x = eval(*b.lhs);
      Value y = eval(*b.rhs);
      if (x.is_scalar_double() && y.is_scalar_double())
        return scalar_compare(b.op, x.scalar(), y.scalar());
      const Value c = binary_op(b.op, x, y);
      accel::SinkScope sink(accel::SinkReason::Branch);
      return c.truthy();
    }
  }
  Value v = eval(e);
  if (v.is_scalar_double()) {
    double x = v.scalar();
    if (x != x) nan_to_logical();
    return x != 0;
  }
  accel::SinkScope sink(accel::SinkReason::Branch);
  return v.truthy();
}

// The general postfix path: root identifier (variable or function) followed by (), {} and .
// accessors, each applied to a single value; the last may produce a comma-separated list.
void Interpreter::eval_chain(const Expr& e, int nargout, std::vector<Value>& out) {
  std::vector<const Expr*> chain;
  const Expr* root = &e;
  while (root->kind == ExprKind::Index || root->kind == ExprKind::Field) {
    chain.push_back(root);
    root = root->kind == ExprKind::Index ? static_cast<const IndexExpr*>(root)->base.get()
                                         : static_cast<const FieldExpr*>(root)->base.get();
  }
  std::reverse(chain.begin(), chain.end());
  size_t pos = 0;
  std::vector<Value> cur;
  if (root->kind == ExprKind::Ident) {
    const auto& id = static_cast<const IdentExpr&>(*root);
    if (const Value* v = slot_value(id.slot)) {
      cur.push_back(*v);
    } else if (id.name.find('@') != std::string::npos) {
      // obj@Super(args) / method@Super(obj, args)
      std::vector<Value> args;
      if (pos < chain.size() && chain[pos]->kind == ExprKind::Index &&
          !static_cast<const IndexExpr*>(chain[pos])->is_brace) {
        eval_args(*this, *static_cast<const IndexExpr*>(chain[pos]), nullptr, args);
        ++pos;
      }
      cur = super_call(id.name, args, pos == chain.size() ? nargout : 1);
      if (pos == chain.size()) {
        for (auto& v : cur) out.push_back(std::move(v));
        return;
      }
    } else {
      ResolvedFn fn = cached_fn(*this, id);
      if (fn.kind == ResolvedFn::Kind::Class && !chain.empty() &&
          chain[0]->kind == ExprKind::Field && !static_cast<const FieldExpr*>(chain[0])->dynamic) {
        // ClassName.Member: Constant property, enumeration member or static method.
        const std::string& member = static_cast<const FieldExpr*>(chain[0])->name;
        Value mv;
        if (class_member(id.name, member, mv)) {
          cur.push_back(std::move(mv));
          pos = 1;
        } else if (fn.cls->method(member)) {
          std::vector<Value> args;
          pos = 1;
          if (pos < chain.size() && chain[pos]->kind == ExprKind::Index &&
              !static_cast<const IndexExpr*>(chain[pos])->is_brace) {
            eval_args(*this, *static_cast<const IndexExpr*>(chain[pos]), nullptr, args);
            ++pos;
          }
          cur = call_class_method(*fn.cls, member, args, pos == chain.size() ? nargout : 1);
        } else {
          throw_error("MATLAB:subscripting:classHasNoPropertyOrMethod",
                      "The class %s has no Constant property or Static method named '%s'.",
                      id.name.c_str(), member.c_str());
        }
        if (pos == chain.size()) {
          for (auto& v : cur) out.push_back(std::move(v));
          return;
        }
        goto rest;
      }
      if (fn.kind == ResolvedFn::Kind::None && !chain.empty() &&
          chain[0]->kind == ExprKind::Index && !static_cast<const IndexExpr*>(chain[0])->is_brace) {
        // A method defined only by a class (no function of that name): dispatch on the
        // arguments' classes.
        std::vector<Value> args;
        eval_args(*this, *static_cast<const IndexExpr*>(chain[0]), nullptr, args);
        const ClassInfo* cls = nullptr;
        if (find_dispatch(id.name, args, &cls)) {
          pos = 1;
          cur = call_class_method(*cls, id.name, args, pos == chain.size() ? nargout : 1);
          if (pos == chain.size()) {
            for (auto& v : cur) out.push_back(std::move(v));
            return;
          }
          goto rest;
        }
        if (dispatch_class_method(id.name, args)) {  // a method of a C++ value class
          pos = 1;
          cur = call_resolved(fn, args, pos == chain.size() ? nargout : 1);
          if (pos == chain.size()) {
            for (auto& v : cur) out.push_back(std::move(v));
            return;
          }
          goto rest;
        }
      }
      if (fn.kind == ResolvedFn::Kind::None) {
        // Dotted names of builtins (containers.Map): a.b.c with static fields.
        std::string dotted = id.name;
        size_t k = 0;
        while (k < chain.size() && chain[k]->kind == ExprKind::Field &&
               !static_cast<const FieldExpr*>(chain[k])->dynamic) {
          dotted += "." + static_cast<const FieldExpr*>(chain[k])->name;
          ++k;
          ResolvedFn f2 = resolve_function(dotted, cur_->unit);
          if (f2.kind != ResolvedFn::Kind::None) {
            fn = std::move(f2);
            pos = k;
            break;
          }
        }
        if (fn.kind == ResolvedFn::Kind::None) undefined_name(id.name);
      }
      std::vector<Value> args;
      const IndexExpr* site = nullptr;
      if (pos < chain.size() && chain[pos]->kind == ExprKind::Index &&
          !static_cast<const IndexExpr*>(chain[pos])->is_brace) {
        const auto& ix = *static_cast<const IndexExpr*>(chain[pos]);
        site = &ix;
        eval_args(*this, ix, nullptr, args);
        ++pos;
        // display(X) shows X under its variable name (MATLAB's inputname).
        if (fn.kind == ResolvedFn::Kind::Builtin && fn.name == "display" && args.size() == 1 &&
            ix.args.size() == 1 && ix.args[0]->kind == ExprKind::Ident &&
            slot_value(static_cast<const IdentExpr&>(*ix.args[0]).slot))
          args.push_back(Value::from_chars(static_cast<const IdentExpr&>(*ix.args[0]).name));
      }
      int n = pos == chain.size() ? nargout : 1;
      CallSiteScope call_site(site);
      cur = call_resolved(fn, args, n);
      if (pos == chain.size()) {
        for (auto& v : cur) out.push_back(std::move(v));
        return;
      }
    }
  } else {
    cur.push_back(eval(*root));
  }
rest:
  for (; pos < chain.size(); ++pos) {
    bool last = pos + 1 == chain.size();
    if (cur.size() != 1) {
      if (cur.empty())
        throw_error("MATLAB:index:expected_one_output_from_expression",
                    "Expected one output from a curly brace or dot indexing expression, but "
                    "there were 0 results.");
      throw_error("MATLAB:index:expected_one_output_from_expression",
                  "Expected one output from a curly brace or dot indexing expression, but there "
                  "were %zu results.",
                  cur.size());
    }
    Value v = std::move(cur[0]);
    cur.clear();
    const Expr* acc = chain[pos];
    if (acc->kind == ExprKind::Field) {
      const auto& f = static_cast<const FieldExpr&>(*acc);
      std::string name = f.dynamic ? eval(*f.dynamic).to_text("dynamic field name") : f.name;
      if (v.is_object() && !f.dynamic && !object_has_property(v, name)) {
        // obj.method(args...) is method(obj, args...) (MATLAB's dot-call syntax).
        std::vector<Value> margs{v};
        if (pos + 1 < chain.size() && chain[pos + 1]->kind == ExprKind::Index &&
            !static_cast<const IndexExpr*>(chain[pos + 1])->is_brace) {
          eval_args(*this, *static_cast<const IndexExpr*>(chain[pos + 1]), nullptr, margs);
          ++pos;
        }
        cur = call_method(name, margs, pos + 1 == chain.size() ? nargout : 1);
        continue;
      }
      cur = get_field(v, name);
      continue;
    }
    const auto& ix = static_cast<const IndexExpr&>(*acc);
    std::vector<Value> args;
    if (!ix.is_brace && v.is_function()) {
      eval_args(*this, ix, nullptr, args);
      cur = call(v, args, last ? nargout : 1);
      continue;
    }
    Dims d = v.dims();
    eval_args(*this, ix, &d, args);
    if (ix.is_brace) {
      cur = index_brace(v, args);
    } else {
      cur.push_back(index_paren(v, args));
    }
  }
  for (auto& v : cur) out.push_back(std::move(v));
}

}  // namespace matfuse
