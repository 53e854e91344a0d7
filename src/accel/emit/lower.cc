// Lowering of fusion groups to kernels (see lower.h and kernel_ir.h).
#include "accel/emit/lower.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "accel/emit/fast_math.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

struct Phase {
  std::vector<Instr>* code = nullptr;
  Dims ref;               ///< reference dims: node dims broadcast against these
  std::vector<int> perm;  ///< space dim j iterates reference dim perm[j]
  bool epilogue = false;
  /// Matmul epilogue over the main diagonal: the space is min(m,n) x 1 and its point k is the
  /// point (k,k) of `ref` (m x n).
  bool diag = false;
  std::unordered_map<const Node*, int> memo;
  /// Imaginary part of each complex value in memo (the memo holds the real part).
  std::unordered_map<const Node*, int> imemo;
};

bool is_64(ClassId c) { return c == ClassId::Int64 || c == ClassId::UInt64; }

class Lowerer {
public:
  Lowerer(const Plan& p, int g) : p_(p), g_(g), G_(p.groups[g]) {
    // Sizes known up front (fewer reallocations and rehashes on every evaluation).
    const size_t m = G_.members.size();
    inputs_.reserve(G_.sources.size() + 4);
    params_.reserve(m + 4);
    out_.kernel.body.reserve(2 * m + 8);
    out_.kernel.accesses.reserve(G_.sources.size() + 4);
  }

  std::optional<LoweredGroup> run(std::string* why) {
    if (!supported()) return fail_out(why);
    switch (G_.kind) {
      case FusionKind::Elementwise:
      case FusionKind::Loop: lower_elementwise(); break;
      case FusionKind::Reduction: lower_reduction(); break;
      case FusionKind::MatMul:
      case FusionKind::MatMulEpilogue: lower_matmul(); break;
      default: fail_ = "pattern label used as a structural fusion kind"; break;
    }
    if (!fail_.empty()) return fail_out(why);
    out_.kernel.fusion_kind = G_.kind;
    const std::string bad = verify_kernel(out_.kernel);
    MF_ASSERT(bad.empty(), "lowered kernel invalid: " + bad);
    if (math_mode() == MathMode::Fast) fast_math_rewrite(out_.kernel);
    return std::move(out_);
  }

private:
  const Plan& p_;
  int g_;
  const FusionGroup& G_;
  LoweredGroup out_;
  std::string fail_;
  std::unordered_map<const Node*, int> inputs_, params_, reduces_, reduces_im_;
  std::unordered_set<const Node*> prologue_;
  const Node* folded_ = nullptr;  ///< epilogue scale folded into the product's alpha

  std::optional<LoweredGroup> fail_out(std::string* why) {
    if (why) *why = fail_;
    return std::nullopt;
  }

  bool supported() {
    auto bad = [&](const Node* n) {
      if (n->complex && !is_float_class(n->cls)) fail_ = "complex integer data";
      else if (is_64(n->cls)) fail_ = "64-bit integer class";
      else if (n->numel() == 0) fail_ = "empty array";
      return !fail_.empty();
    };
    for (const Node* m : G_.members) {
      if (bad(m)) return false;
      for (const NodeRef& i : m->inputs)
        if (bad(i.get())) return false;
    }
    return true;
  }

  // ---- bindings ----
  int input_of(const Node* n) {
    auto it = inputs_.find(n);
    if (it != inputs_.end()) return it->second;
    const int i = static_cast<int>(out_.kernel.inputs.size());
    out_.kernel.inputs.push_back({n->cls});
    out_.input_nodes.push_back(n);
    inputs_[n] = i;
    return i;
  }
  int param_of(const Node* n) {
    auto it = params_.find(n);
    if (it != params_.end()) return it->second;
    const int s = static_cast<int>(out_.kernel.param_u64.size());
    out_.kernel.param_u64.push_back(n->param_u64);
    out_.param_nodes.push_back(n);
    params_[n] = s;
    return s;
  }
  int add_access(Access a) {
    auto& v = out_.kernel.accesses;
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i].strides == a.strides && v[i].base == a.base && v[i].param_terms == a.param_terms)
        return static_cast<int>(i);
    v.push_back(std::move(a));
    return static_cast<int>(v.size()) - 1;
  }
  /// Access of a value of dims `d` whose element (idx_0, idx_1, ...) lies at
  /// base + Σ idx_k*nstr[k], broadcast into the phase space.
  Access broadcast(const Phase& ph, const Dims& d, const std::array<int64_t, Dims::kMaxDims>& nstr,
                   int64_t base = 0) {
    Access a;
    a.base = base;
    if (ph.diag) {
      int64_t s = 0;
      for (int o = 0; o < std::max(d.ndims(), 2); ++o) {
        const int64_t size = d[o], want = o < 2 ? ph.ref[o] : 1;
        if (size != 1 && size != want) fail_ = "operand does not broadcast into the space";
        if (size != 1) s += nstr[o];
      }
      a.strides = {s, 0};
      return a;
    }
    for (int o : ph.perm) {
      const int64_t size = d[o];
      if (size != 1 && size != ph.ref[o]) fail_ = "operand does not broadcast into the space";
      a.strides.push_back(size == 1 ? 0 : nstr[o]);
    }
    return a;
  }
  static bool all_zero(const Access& a) {
    for (int64_t s : a.strides)
      if (s) return false;
    return true;
  }
  int push(Phase& ph, Instr in) {
    ph.code->push_back(in);
    return static_cast<int>(ph.code->size()) - 1;
  }
  const Instr& at(const Phase& ph, int v) const { return (*ph.code)[v]; }

  int conv(Phase& ph, int v, VType t) {
    if (at(ph, v).type == t) return v;
    Instr in;
    in.kind = IKind::Convert;
    in.type = t;
    in.cls = t == VType::F32 ? ClassId::Single : t == VType::Bool ? ClassId::Logical : ClassId::Double;
    in.a = v;
    in.uniform = at(ph, v).uniform;
    return push(ph, in);
  }

  // ---- emission ----
  int emit(Phase& ph, const Node* n) {
    auto it = ph.memo.find(n);
    if (it != ph.memo.end()) return it->second;
    int v;
    const bool member = n->kind != NodeKind::Input && is_computed(p_, n) && p_.group_of(n) == g_;
    if (member) {
      if (ph.epilogue && prologue_.count(n)) {
        fail_ = "epilogue reads a prologue value";
        v = const_value(ph, 0, n->cls);
      } else {
        v = emit_member(ph, n);
      }
    } else if (n->kind == NodeKind::Input || is_computed(p_, n)) {
      v = emit_load(ph, n);
    } else {
      switch (n->kind) {
        case NodeKind::Constant: v = const_value(ph, n->value, n->cls); break;
        case NodeKind::Param: {
          Instr in;
          in.kind = IKind::Param;
          in.slot = param_of(n);
          in.uniform = true;
          v = push(ph, in);
          break;
        }
        case NodeKind::Generator: v = emit_generator(ph, n); break;
        case NodeKind::Transpose:
        case NodeKind::Slice:
        case NodeKind::Diag: v = emit_movement(ph, n); break;
        case NodeKind::Elementwise:
          if (p_.at(n).recompute) {
            v = emit_member(ph, n);  // recomputed in this group from its inputs
            break;
          }
          [[fallthrough]];
        default:
          fail_ = "unexpected node " + n->str();
          v = const_value(ph, 0, n->cls);
      }
    }
    ph.memo[n] = v;
    return v;
  }

  int const_value(Phase& ph, double value, ClassId cls) {
    Instr in;
    in.kind = IKind::Const;
    in.type = vtype_of(cls);
    in.cls = cls;
    in.imm = value;
    in.uniform = true;
    return push(ph, in);
  }

  int emit_load(Phase& ph, const Node* n) {
    return load_access(ph, n, n, broadcast(ph, n->dims, strides_of(n->dims)));
  }

  /// Element access a of a complex buffer as the access of part `part` (0 real, 1 imaginary)
  /// in units of the real class: interleaved storage puts element e's parts at 2e and 2e + 1.
  static Access part_access(Access a, int part) {
    for (int64_t& s : a.strides) s *= 2;
    a.base = 2 * a.base + part;
    for (auto& t : a.param_terms) t.second *= 2;
    return a;
  }

  /// Load of buffer node x at element access a, the value of node n (a complex x also defines
  /// n's imaginary part in ph.imemo).
  int load_access(Phase& ph, const Node* n, const Node* x, Access a) {
    Instr in;
    in.kind = IKind::Load;
    in.type = vtype_of(x->cls);
    in.cls = x->cls;
    in.input = input_of(x);
    in.uniform = all_zero(a);
    if (!x->complex) {
      in.access = add_access(std::move(a));
      return push(ph, in);
    }
    in.access = add_access(part_access(a, 1));
    ph.imemo[n] = push(ph, in);
    in.access = add_access(part_access(std::move(a), 0));
    return push(ph, in);
  }

  /// Real and imaginary parts of n (imaginary -1 when n is real).
  std::pair<int, int> emit_c(Phase& ph, const Node* n) {
    const int re = emit(ph, n);
    if (!n->complex) return {re, -1};
    auto it = ph.imemo.find(n);
    if (it == ph.imemo.end()) {
      fail_ = "complex value without an imaginary part: " + n->str();
      return {re, re};
    }
    return {re, it->second};
  }

  int emit_movement(Phase& ph, const Node* n) {
    const Node* x = n->inputs[0].get();
    const bool gen_base = x->kind == NodeKind::Generator && !is_computed(p_, x);
    if (gen_base && n->kind == NodeKind::Transpose) {
      fail_ = "transpose of a generator that is not materialised";
      return const_value(ph, 0, n->cls);
    }
    if (!gen_base && !(x->kind == NodeKind::Input || is_computed(p_, x))) {
      fail_ = "movement of a value that is not materialised";
      return const_value(ph, 0, n->cls);
    }
    auto xs = strides_of(x->dims);
    std::array<int64_t, Dims::kMaxDims> ns{};
    int64_t base = 0;
    std::vector<std::pair<int, int64_t>> terms;
    if (n->kind == NodeKind::Transpose) {
      ns[0] = x->dims.rows();
      ns[1] = 1;
    } else if (n->kind == NodeKind::Diag) {
      ns[0] = x->dims.rows() + 1;  // element k of the diagonal: x(k*(m+1))
    } else {
      for (size_t k = 0; k < n->steps.size(); ++k) {
        ns[k] = n->steps[k] * xs[k];
        const Node* s = n->inputs[k + 1].get();
        if (s->kind == NodeKind::Param) {
          terms.push_back({param_of(s), xs[k]});
          base -= xs[k];
        } else {
          base += (static_cast<int64_t>(s->value) - 1) * xs[k];
        }
      }
    }
    Access a = broadcast(ph, n->dims, ns, base);
    a.param_terms = std::move(terms);
    // A slice or diagonal of a generator: the generator at the selected elements' linear indices.
    if (gen_base) return emit_generator_at(ph, x, std::move(a));
    const int re = load_access(ph, n, x, std::move(a));
    if (x->complex && n->kind == NodeKind::Transpose && n->conj)
      ph.imemo[n] = op_instr(ph, OpId::Neg, at(ph, re).type, x->cls, ph.imemo[n], -1);
    return re;
  }

  int emit_generator(Phase& ph, const Node* n) {
    return emit_generator_at(ph, n, broadcast(ph, n->dims, strides_of(n->dims)));
  }

  /// Generator n evaluated at the linear index given by access a (its own elements, broadcast,
  /// or the elements a slice selects).
  int emit_generator_at(Phase& ph, const Node* n, Access a) {
    if (n->gen == GenKind::Zeros || n->gen == GenKind::Ones)
      return const_value(ph, n->gen == GenKind::Ones ? 1 : 0, n->cls);
    Instr iota;
    iota.kind = IKind::Iota;
    iota.uniform = all_zero(a);
    iota.access = add_access(std::move(a));
    const int idx = push(ph, iota);
    Instr in;
    in.type = vtype_of(n->cls);
    in.cls = n->cls;
    in.gen = n->gen;
    in.a = idx;
    in.uniform = iota.uniform;
    switch (n->gen) {
      case GenKind::Rand:
      case GenKind::Randn:
        in.kind = IKind::Rng;
        in.slot = param_of(n->inputs[0].get());
        in.slot2 = param_of(n->inputs[1].get());
        break;
      case GenKind::Eye:
        in.kind = IKind::Gen;
        in.imm = static_cast<double>(n->dims.rows());
        break;
      case GenKind::Linspace:
        in.kind = IKind::Gen;
        in.slot = param_of(n->inputs[0].get());
        in.slot2 = param_of(n->inputs[1].get());
        in.imm = static_cast<double>(n->numel());
        break;
      case GenKind::Colon:
        in.kind = IKind::Gen;
        in.slot = param_of(n->inputs[0].get());
        in.slot2 = param_of(n->inputs[1].get());
        in.slot3 = param_of(n->inputs[2].get());
        in.imm = static_cast<double>(n->numel());
        break;
      default: break;
    }
    return push(ph, in);
  }

  int emit_member(Phase& ph, const Node* n) {
    if (n == folded_) return emit_member(ph, G_.anchor);  // the scale is the product's alpha
    switch (n->kind) {
      case NodeKind::Elementwise: return emit_op(ph, n);
      case NodeKind::Cast: {
        const auto [a, ai] = emit_c(ph, n->inputs[0].get());
        Instr in;
        in.kind = IKind::Cast;
        in.type = vtype_of(n->cls);
        in.cls = n->cls;
        in.a = a;
        in.uniform = at(ph, a).uniform;
        const int re = push(ph, in);
        if (n->complex) {
          in.a = ai;
          in.uniform = at(ph, ai).uniform;
          ph.imemo[n] = push(ph, in);
        } else if (ai >= 0) {
          fail_ = "complex value converted to a real class";
        }
        return re;
      }
      case NodeKind::Reduce: {
        if (!ph.epilogue) {
          fail_ = "reduction inside a prologue";
          return const_value(ph, 0, n->cls);
        }
        if (n->complex) ph.imemo[n] = reduce_result(ph, n, reduces_im_.at(n));
        return reduce_result(ph, n, reduces_.at(n));
      }
      case NodeKind::MatMul: {
        if (!ph.epilogue || !out_.kernel.matmul) {
          fail_ = "matrix product outside its kernel";
          return const_value(ph, 0, n->cls);
        }
        Instr in;
        in.kind = IKind::MatMulResult;
        in.type = out_.kernel.matmul->type;
        in.cls = n->cls;
        return push(ph, in);
      }
      case NodeKind::Generator: return emit_generator(ph, n);
      case NodeKind::Diag:
        // The final diag of a matmul epilogue: the diagonal phase already evaluates its input
        // at the diagonal points only.
        if (ph.diag) return emit(ph, n->inputs[0].get());
        return emit_movement(ph, n);
      case NodeKind::Transpose:
      case NodeKind::Slice: return emit_movement(ph, n);
      default: fail_ = "unexpected member " + n->str(); return const_value(ph, 0, n->cls);
    }
  }

  /// The folded value of reduction k (of node n), converted to n's class.
  int reduce_result(Phase& ph, const Node* n, int k) {
    Instr in;
    in.kind = IKind::ReduceResult;
    in.reduce = k;
    const KReduce& kr = out_.kernel.reduces[k];
    const bool truth = kr.kind == ReduceKind::Any || kr.kind == ReduceKind::All;
    in.type = truth ? VType::Bool : kr.acc;
    in.cls = in.type == VType::F32 ? ClassId::Single
             : in.type == VType::Bool ? ClassId::Logical
                                      : ClassId::Double;
    int v = push(ph, in);
    if (in.cls != n->cls) {
      Instr c;
      c.kind = IKind::Cast;
      c.type = vtype_of(n->cls);
      c.cls = n->cls;
      c.a = v;
      v = push(ph, c);
    }
    return v;
  }

  int op_instr(Phase& ph, OpId op, VType type, ClassId cls, int a, int b) {
    Instr in;
    in.kind = IKind::Op;
    in.op = op;
    in.type = type;
    in.cls = cls;
    in.a = a;
    in.b = b;
    in.check_real = op_has(op, kRealToComplex);
    in.uniform = at(ph, a).uniform && (b < 0 || at(ph, b).uniform);
    return push(ph, in);
  }

  int saturate(Phase& ph, int v, ClassId cls) {
    Instr in;
    in.kind = IKind::Saturate;
    in.type = VType::F64;
    in.cls = cls;
    in.a = v;
    in.uniform = at(ph, v).uniform;
    return push(ph, in);
  }

  /// The eager engine's class rules (runtime/elementwise.cc), op by op.
  int emit_op(Phase& ph, const Node* n) {
    const OpId op = n->op;
    const OpCategory cat = op_category(op);
    const Node* x = n->inputs[0].get();
    if (x->complex || (op_arity(op) == 2 && n->inputs[1]->complex))
      return emit_complex_op(ph, n);
    if (op_arity(op) == 2) {
      const Node* y = n->inputs[1].get();
      int a = emit(ph, x), b = emit(ph, y);
      if (cat == OpCategory::Compare) {
        const VType w =
            x->cls == ClassId::Single && y->cls == ClassId::Single ? VType::F32 : VType::F64;
        a = conv(ph, a, w);
        b = conv(ph, b, w);
        return op_instr(ph, op, VType::Bool, ClassId::Logical, a, b);
      }
      if (cat == OpCategory::Logical) {
        a = conv(ph, a, VType::Bool);
        b = conv(ph, b, VType::Bool);
        return op_instr(ph, op, VType::Bool, ClassId::Logical, a, b);
      }
      const ClassId rc = n->cls;
      const VType w = rc == ClassId::Single ? VType::F32 : VType::F64;
      a = conv(ph, a, w);
      b = conv(ph, b, w);
      // x.^2 with the 2 known now is x*x (scalar::Pow's own rule): the kernel then carries no
      // pow code, which in a fused body costs registers even when the branch is never taken.
      if (op == OpId::Pow && is_float_class(rc) && !n->complex &&
          (y->kind == NodeKind::Constant || y->kind == NodeKind::Param) && !y->param_u64 &&
          y->value == 2.0)
        return op_instr(ph, OpId::Mul, w, rc, a, a);
      int v = op_instr(ph, op, w, is_integer_class(rc) ? ClassId::Double : rc, a, b);
      // A base proved nonnegative keeps any real power real: no fault check (and so no wait
      // for the device to read a fault flag).
      if (op == OpId::Pow && known_nonnegative(x, false)) (*ph.code)[v].check_real = false;
      return is_integer_class(rc) ? saturate(ph, v, rc) : v;
    }
    int a = emit(ph, x);
    if (cat == OpCategory::Predicate) {
      if (!is_float_class(x->cls)) return const_value(ph, op == OpId::IsFinite ? 1 : 0, ClassId::Logical);
      return op_instr(ph, op, VType::Bool, ClassId::Logical, a, -1);
    }
    if (cat == OpCategory::Logical) {
      a = conv(ph, a, VType::Bool);
      return op_instr(ph, op, VType::Bool, ClassId::Logical, a, -1);
    }
    const ClassId rc = n->cls;
    const VType w = rc == ClassId::Single ? VType::F32 : VType::F64;
    a = conv(ph, a, w);
    // +x and conj(x) of real floating values are x, bit for bit (signed zeros and NaNs kept):
    // no instruction, so dot(x, y) = sum(conj(x).*y) does not copy x once more.
    if ((op == OpId::UPlus || op == OpId::Conj) && !is_integer_class(rc)) return a;
    int v = op_instr(ph, op, w, is_integer_class(rc) ? ClassId::Double : rc, a, -1);
    // sqrt and the logarithms of a value proved nonnegative stay real (sqrt(w'*w), norms).
    if (op_has(op, kRealOnNonneg) && known_nonnegative(x, false))
      (*ph.code)[v].check_real = false;
    return is_integer_class(rc) ? saturate(ph, v, rc) : v;
  }

  /// An op with a complex operand (complex_fusable ops): the real and imaginary parts are two
  /// real values. A real operand is promoted with a zero imaginary part, as the eager engine
  /// promotes it (runtime/elementwise.cc), so +, -, .* and comparisons give the eager bits.
  int emit_complex_op(Phase& ph, const Node* n) {
    const OpId op = n->op;
    const bool binary = op_arity(op) == 2;
    const Node* x = n->inputs[0].get();
    const Node* y = binary ? n->inputs[1].get() : nullptr;
    if (!complex_fusable(op)) {
      fail_ = std::string("complex ") + std::string(op_name(op));
      return const_value(ph, 0, n->cls);
    }
    const bool single = x->cls == ClassId::Single || (y && y->cls == ClassId::Single);
    const ClassId wc = single ? ClassId::Single : ClassId::Double;
    const VType w = vtype_of(wc);
    auto [ar, ai] = emit_c(ph, x);
    int br = -1, bi = -1;
    if (y) std::tie(br, bi) = emit_c(ph, y);
    auto zero = [&] { return const_value(ph, 0, wc); };
    ar = conv(ph, ar, w);
    ai = ai < 0 ? zero() : conv(ph, ai, w);
    if (y) {
      br = conv(ph, br, w);
      bi = bi < 0 ? zero() : conv(ph, bi, w);
    }
    auto o2 = [&](OpId f, int a, int b) { return op_instr(ph, f, w, wc, a, b); };
    auto o1 = [&](OpId f, int a) { return op_instr(ph, f, w, wc, a, -1); };
    auto cmp = [&](OpId f, int a, int b) {
      return op_instr(ph, f, VType::Bool, ClassId::Logical, a, b);
    };
    auto complex_out = [&](int re, int im) {
      ph.imemo[n] = im;
      return re;
    };
    switch (op) {
      case OpId::Add: return complex_out(o2(OpId::Add, ar, br), o2(OpId::Add, ai, bi));
      case OpId::Sub: return complex_out(o2(OpId::Sub, ar, br), o2(OpId::Sub, ai, bi));
      case OpId::Mul:
        return complex_out(o2(OpId::Sub, o2(OpId::Mul, ar, br), o2(OpId::Mul, ai, bi)),
                           o2(OpId::Add, o2(OpId::Mul, ar, bi), o2(OpId::Mul, ai, br)));
      case OpId::Eq: return cmp(OpId::And, cmp(OpId::Eq, ar, br), cmp(OpId::Eq, ai, bi));
      case OpId::Ne: return cmp(OpId::Or, cmp(OpId::Ne, ar, br), cmp(OpId::Ne, ai, bi));
      case OpId::Lt: case OpId::Le: case OpId::Gt: case OpId::Ge: return cmp(op, ar, br);
      case OpId::Neg: return complex_out(o1(OpId::Neg, ar), o1(OpId::Neg, ai));
      case OpId::UPlus: return complex_out(ar, ai);
      case OpId::Conj:
        if (!n->complex) return ar;
        return complex_out(ar, o1(OpId::Neg, ai));
      case OpId::Real: return ar;
      case OpId::Imag: return ai;
      case OpId::Abs: return o2(OpId::Hypot, ar, ai);
      case OpId::Angle: return o2(OpId::Atan2, ai, ar);
      case OpId::Exp: {
        // exp(a + bi) = exp(a) * (cos b + i sin b), as C's cexp computes it for finite a.
        const int e = o1(OpId::Exp, ar);
        return complex_out(o2(OpId::Mul, e, o1(OpId::Cos, ai)), o2(OpId::Mul, e, o1(OpId::Sin, ai)));
      }
      case OpId::Floor: case OpId::Ceil: case OpId::Round: case OpId::Fix:
        return complex_out(o1(op, ar), o1(op, ai));
      case OpId::IsNaN:
      case OpId::IsInf:
        return cmp(OpId::Or, op_instr(ph, op, VType::Bool, ClassId::Logical, ar, -1),
                   op_instr(ph, op, VType::Bool, ClassId::Logical, ai, -1));
      case OpId::IsFinite:
        return cmp(OpId::And, op_instr(ph, op, VType::Bool, ClassId::Logical, ar, -1),
                   op_instr(ph, op, VType::Bool, ClassId::Logical, ai, -1));
      default:
        fail_ = std::string("complex ") + std::string(op_name(op));
        return const_value(ph, 0, n->cls);
    }
  }

  // ---- group kinds ----
  static Phase identity_phase(std::vector<Instr>* code, const Dims& d, bool epilogue) {
    Phase ph;
    ph.memo.reserve(16);
    ph.code = code;
    ph.ref = d;
    for (int k = 0; k < d.ndims(); ++k) ph.perm.push_back(k);
    ph.epilogue = epilogue;
    return ph;
  }

  int contiguous_access(const Dims& d) {
    Access a;
    auto st = strides_of(d);
    for (int k = 0; k < d.ndims(); ++k) a.strides.push_back(d[k] == 1 ? 0 : st[k]);
    return add_access(std::move(a));
  }

  /// Output of node o's value v (a complex o: two outputs, its real and imaginary parts at
  /// their interleaved places; access acc0 is the element access).
  void add_output(Phase& ph, const Node* o, int v, const Access& acc0, bool in_body) {
    if (!o->complex) {
      KOutput ko{v, o->cls, add_access(acc0)};
      ko.in_body = in_body;
      out_.kernel.outputs.push_back(ko);
      out_.output_nodes.push_back(o);
      out_.output_imag.push_back(false);
      return;
    }
    const auto [re, im] = emit_c(ph, o);
    for (int part = 0; part < 2; ++part) {
      KOutput ko{part ? im : re, o->cls, add_access(part_access(acc0, part))};
      ko.in_body = in_body;
      out_.kernel.outputs.push_back(ko);
      out_.output_nodes.push_back(o);
      out_.output_imag.push_back(part == 1);
    }
  }

  void add_outputs(Phase& ph, const Dims& space) {
    const Access acc = out_.kernel.accesses[contiguous_access(space)];
    for (const Node* o : G_.outputs) {
      if (prologue_.count(o)) continue;  // body output (lower_reduction)
      const int v = emit(ph, o);
      add_output(ph, o, v, acc, false);
    }
  }

  void lower_elementwise() {
    const Dims space = G_.outputs.empty() ? G_.members.front()->dims : G_.outputs.front()->dims;
    out_.kernel.space = space;
    Phase ph = identity_phase(&out_.kernel.body, space, false);
    add_outputs(ph, space);
  }

  void lower_reduction() {
    std::vector<const Node*> reds;
    for (const Node* m : G_.members)
      if (m->kind == NodeKind::Reduce) reds.push_back(m);
    const Dims D = reds[0]->inputs[0]->dims;
    const uint32_t mask = reds[0]->reduce_mask;
    const int nd = D.ndims();
    Kernel& k = out_.kernel;
    // The eager layout (runtime/reduce_layout.h): reduced dims contiguous, else permuted first.
    int lo = -1, hi = -1;
    for (int d = 0; d < nd; ++d)
      if ((mask >> d & 1u) && D[d] != 1) {
        if (lo < 0) lo = d;
        hi = d;
      }
    std::vector<int> perm;
    if (lo < 0) {
      for (int d = 0; d < nd; ++d) perm.push_back(d);
      k.pre = D.numel();
      k.n = 1;
      k.post = 1;
    } else {
      bool contiguous = true;
      for (int d = lo; d <= hi; ++d)
        if (!(mask >> d & 1u) && D[d] != 1) contiguous = false;
      if (contiguous) {
        for (int d = 0; d < nd; ++d) perm.push_back(d);
        k.pre = k.n = k.post = 1;
        for (int d = 0; d < lo; ++d) k.pre *= D[d];
        for (int d = lo; d <= hi; ++d) k.n *= D[d];
        for (int d = hi + 1; d < nd; ++d) k.post *= D[d];
      } else {
        for (int d = 0; d < nd; ++d)
          if (mask >> d & 1u) perm.push_back(d);
        for (int d = 0; d < nd; ++d)
          if (!(mask >> d & 1u)) perm.push_back(d);
        k.pre = 1;
        k.n = 1;
        for (int d = 0; d < nd; ++d)
          if (mask >> d & 1u) k.n *= D[d];
        k.post = D.numel() / k.n;
      }
    }
    Dims space(D[perm[0]], D[perm[1]]);
    for (int j = 2; j < nd; ++j) space.push_back(D[perm[j]]);
    k.space = space;
    k.out_space = reds[0]->dims;
    for (const Node* r : reds)
      if (r->dims != k.out_space) fail_ = "sibling reductions with different output shapes";
    // Prologue (body) members: those not downstream of a reduction inside the group (the
    // reductions' producers and their sibling consumers of the input's shape).
    {
      std::unordered_set<const Node*> tail;
      for (const Node* m : G_.members) {  // topological order
        bool t = m->kind == NodeKind::Reduce;
        for (const NodeRef& i : m->inputs) t |= tail.count(i.get()) > 0;
        if (t) tail.insert(m);
        else prologue_.insert(m);
      }
    }
    Phase body;
    body.memo.reserve(2 * G_.members.size() + 8);
    body.code = &k.body;
    body.ref = D;
    body.perm = perm;
    for (const Node* r : reds) {
      const auto [v0, vim] = emit_c(body, r->inputs[0].get());
      int v = v0;
      KReduce kr;
      kr.kind = r->reduce;
      kr.omitnan = r->omitnan;
      const ClassId xc = r->inputs[0]->cls;
      switch (r->reduce) {
        case ReduceKind::Sum:
        case ReduceKind::Prod:
        case ReduceKind::Mean: kr.acc = r->cls == ClassId::Single ? VType::F32 : VType::F64; break;
        case ReduceKind::Min:
        case ReduceKind::Max: kr.acc = xc == ClassId::Single ? VType::F32 : VType::F64; break;
        case ReduceKind::Any:
        case ReduceKind::All: kr.acc = at(body, v).type; break;
      }
      v = conv(body, v, kr.acc);
      kr.value = v;
      reduces_[r] = static_cast<int>(k.reduces.size());
      k.reduces.push_back(kr);
      if (r->complex) {  // complex sum and mean: the imaginary parts fold alongside
        if (vim < 0 || (r->reduce != ReduceKind::Sum && r->reduce != ReduceKind::Mean) ||
            r->omitnan)
          fail_ = "complex reduction other than sum or mean";
        kr.value = conv(body, vim < 0 ? v0 : vim, kr.acc);
        reduces_im_[r] = static_cast<int>(k.reduces.size());
        k.reduces.push_back(kr);
      }
    }
    // Prologue values needed outside the kernel: stored from the body at their own layout.
    for (const Node* o : G_.outputs) {
      if (!prologue_.count(o)) continue;
      if (o->dims != D) fail_ = "body output of another shape than the reduced input";
      const int v = emit(body, o);
      add_output(body, o, v, broadcast(body, o->dims, strides_of(o->dims)), true);
    }
    Phase epi = identity_phase(&k.epilogue, k.out_space, true);
    add_outputs(epi, k.out_space);
  }

  void lower_matmul() {
    const Node* mm = G_.anchor;
    Kernel& k = out_.kernel;
    const ClassId rc = mm->cls == ClassId::Single ? ClassId::Single : ClassId::Double;
    KMatMul m;
    m.type = vtype_of(rc);
    m.m = mm->dims.rows();
    m.n = mm->dims.cols();
    m.k = mm->inputs[0]->dims.cols();
    auto operand = [&](const Node* a, bool& trans) -> int {
      const Node* buf = a;
      trans = false;
      if (a->kind == NodeKind::Transpose && !p_.at(a).materialise) {
        buf = a->inputs[0].get();
        trans = true;
      }
      if (!(buf->kind == NodeKind::Input || is_computed(p_, buf))) {
        fail_ = "matrix operand not materialised";
        return 0;
      }
      if (buf->cls != rc) fail_ = "matrix operand class differs from the product class";
      return input_of(buf);
    };
    m.a = operand(mm->inputs[0].get(), m.trans_a);
    m.b = operand(mm->inputs[1].get(), m.trans_b);
    m.lda = m.trans_a ? m.k : m.m;
    m.ldb = m.trans_b ? m.n : m.k;
    // A.'*A and A*A.' of one buffer: symmetric, one triangle computed (syrk).
    m.syrk = m.a == m.b && m.trans_a != m.trans_b && m.m == m.n && fail_.empty();
    // The epilogue's first op C*s, s*C or C/s with a scalar s becomes the product's alpha.
    const NodeInfo& mi = p_.at(mm);
    if (!mi.root && mi.users.size() == 1 && p_.group_of(mi.users[0]) == g_) {
      const Node* u = mi.users[0];
      auto scalar = [](const Node* x) {
        return (x->kind == NodeKind::Constant || x->kind == NodeKind::Param) && !x->param_u64 &&
               x->numel() == 1;
      };
      const Node* sc = nullptr;
      if (u->kind == NodeKind::Elementwise && u->cls == mm->cls && u->inputs.size() == 2) {
        const Node* x = u->inputs[0].get();
        const Node* y = u->inputs[1].get();
        if (u->op == OpId::Mul && x == mm && scalar(y)) sc = y;
        else if (u->op == OpId::Mul && y == mm && scalar(x)) sc = x;
        else if (u->op == OpId::Div && x == mm && scalar(y)) sc = y;
        if (sc) {
          m.alpha_div = u->op == OpId::Div;
          if (sc->kind == NodeKind::Param) m.alpha_slot = param_of(sc);
          else m.alpha_imm = sc->value;
          folded_ = u;
        }
      }
    }
    const Node* dg = nullptr;  // optional final diag (fuse_matmul_epilogue)
    for (const Node* x : G_.members)
      if (x->kind == NodeKind::Diag) dg = x;
    if (dg && (G_.outputs.size() != 1 || G_.outputs[0] != dg))
      fail_ = "diagonal epilogue with outputs other than the diagonal";
    m.diag = dg != nullptr;
    k.matmul = m;
    k.space = mm->dims;
    k.out_space = dg ? dg->dims : mm->dims;
    Phase epi = identity_phase(&k.epilogue, mm->dims, true);
    epi.diag = m.diag;
    add_outputs(epi, k.out_space);
  }
};

}  // namespace

std::optional<LoweredGroup> lower_group(const Plan& p, int g, std::string* why) {
  Lowerer l(p, g);
  return l.run(why);
}

}  // namespace matfuse::accel
