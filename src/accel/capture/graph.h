// The acceleration graph (DESIGN.md decisions 1, 6, 7, 8): immutable, interned array nodes.
//
// Semantics contract
// - A Node describes one array value: kind, category, MATLAB class, dims, inputs, attributes.
//   Shape and class are inferred when the node is created, with the eager engine's rules
//   (broadcast_dims, class_of_binary, the op table flags), and creation raises the same
//   MatlabError the eager operation would (MATLAB:sizeDimensionsMustMatch,
//   MATLAB:mixedIntegerTypes, MATLAB:UndefinedFunction, ...). size/class never force evaluation.
// - Nodes are hash-consed: structurally equal nodes (same kind, attributes and input objects)
//   are the same object while any reference to it lives (weak-pointer intern table, thread
//   safe). Pointer equality is therefore structural equality, which gives common
//   subexpression elimination for free and makes cache keys structural.
// - Input nodes hold a materialised host Tensor and are identified by storage identity (the
//   data pointer, class, dims): the node keeps the storage alive, and copy-on-write guarantees
//   that nobody writes through it.
// - Param nodes are per-trace scalars (loop index, RNG counter offset, RNG key, generator
//   endpoints). Their value is part of the node identity (so CSE stays exact) but not of the
//   node's `shape_hash` and not of a kernel's canonical text: two traces that differ only in
//   Param values lower to the same kernel (decision 8).
// - Generators (rand, randn, zeros, ones, eye, linspace, colon ranges) are index functions of
//   the element's linear index; rand/randn take their Philox key and stream offset as Params
//   and element i is the value at stream position offset + i, exactly as the eager rand/randn
//   (decision 7; philox.inc's stream model).
// - Complex: the graph tracks whether a value is known to be complex (`complex`). Ops with the
//   kRealToComplex flag on real inputs are typed real; when the data leave the real domain at
//   run time the fused kernel reports a fault and the group is re-run by the eager engine, which
//   produces the complex result (so evaluate() may return complex tensors for real-typed nodes).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/ops.h"
#include "runtime/dims.h"
#include "runtime/dtype.h"
#include "runtime/tensor.h"

namespace matfuse::accel {

/// The node kinds, one row each in node_kinds.def (name, category, arity, attributes):
///   Input        materialised host Tensor
///   Constant     scalar constant of a class
///   Param        per-trace scalar, lifted into kernel parameters
///   Elementwise  op from ops.def, unary or binary, with implicit expansion
///   Generator    rand, randn, zeros, ones, eye, linspace, colon range
///   Reduce       sum, prod, mean, min, max, any, all over a set of dims
///   Cast         MATLAB class conversion double(x), int8(x), logical(x) ...
///   MatMul       2-D matrix product a*b
///   Transpose    2-D transpose a.' (or a' when conj)
///   Slice        affine slice: dim k takes start_k + j*step_k, start_k a Param or Constant
///   Diag         main diagonal of a 2-D m x n matrix: min(m,n) x 1, element k = x(k*(m+1))
enum class NodeKind : uint8_t {
#define MF_NODE_KIND(kind, name, cat, arity, attrs) kind,
#include "accel/capture/node_kinds.def"
#undef MF_NODE_KIND
};

/// Category used by the planner (DESIGN.md: elementwise, reduction, matmul, generator, movement,
/// cast); Leaf for Input, Constant and Param.
enum class Category : uint8_t { Leaf, Elementwise, Reduction, MatMul, Generator, Movement, Cast };

/// The Node fields that belong to a kind's identity (node_kinds.def's attributes column).
enum NodeAttr : uint32_t {
  kAttrNone = 0,
  kAttrTensor = 1u << 0,  ///< tensor (by storage identity and complexity)
  kAttrValue = 1u << 1,   ///< value (a Constant's, by bits)
  kAttrParam = 1u << 2,   ///< role, param_u64, and value or bits (the value not in shape_hash)
  kAttrOp = 1u << 3,      ///< op
  kAttrGen = 1u << 4,     ///< gen
  kAttrReduce = 1u << 5,  ///< reduce, reduce_mask, omitnan, out_type
  kAttrConj = 1u << 6,    ///< conj
  kAttrSteps = 1u << 7,   ///< steps
};

namespace node_detail {
struct KindInfo {
  std::string_view name;
  Category category;
  int arity;
  uint32_t attrs;
};
inline constexpr KindInfo kKindInfo[] = {
#define MF_NODE_KIND(kind, name, cat, arity, attrs) {name, Category::cat, arity, attrs},
#include "accel/capture/node_kinds.def"
#undef MF_NODE_KIND
};
}  // namespace node_detail

/// The planner category of every node of kind k.
constexpr Category kind_category(NodeKind k) {
  return node_detail::kKindInfo[static_cast<int>(k)].category;
}
/// Number of inputs of kind k, or -1 when it varies.
constexpr int kind_arity(NodeKind k) { return node_detail::kKindInfo[static_cast<int>(k)].arity; }
/// Whether attribute a belongs to the identity of kind k.
constexpr bool kind_has(NodeKind k, NodeAttr a) {
  return (node_detail::kKindInfo[static_cast<int>(k)].attrs & a) != 0;
}

enum class GenKind : uint8_t { Rand, Randn, Zeros, Ones, Eye, Linspace, Colon };
enum class ReduceKind : uint8_t { Sum, Prod, Mean, Min, Max, Any, All };
/// Output type option of sum/prod/mean ('default', 'double', 'native').
enum class ReduceOut : uint8_t { Default, Double, Native };
/// What a Param stands for (part of its identity; used for labels and the `loop` fusion_kind).
enum class ParamRole : uint8_t { Scalar, LoopIndex, RngKey, RngOffset };

struct Node;
using NodeRef = std::shared_ptr<const Node>;

/// The value of a forced node, kept beside the node's identity (lazy.h): written once by
/// force_nodes, never hashed or compared, so an interned node is never rewritten and its hash
/// never goes stale. Copying a node (a prototype before interning) copies no value.
class ForcedSlot {
public:
  ForcedSlot() = default;
  ForcedSlot(const ForcedSlot&) {}
  ForcedSlot& operator=(const ForcedSlot&) { return *this; }
  /// Whether the value is set (acquire: the value is then safe to read).
  bool has() const { return set_.load(std::memory_order_acquire); }
  /// The value; only when has().
  const Tensor& get() const { return value_; }
  /// Sets the value; a second call keeps the first value (the same result computed again).
  void set(const Tensor& v) const;

private:
  mutable std::atomic<bool> set_{false};
  mutable Tensor value_;
};

struct Node {
  NodeKind kind = NodeKind::Constant;
  Category category = Category::Leaf;
  ClassId cls = ClassId::Double;
  bool complex = false;  ///< known to be complex (see the contract)
  Dims dims;
  std::vector<NodeRef> inputs;

  // ---- attributes (meaning depends on kind) ----
  OpId op{};                        ///< Elementwise
  GenKind gen{};                    ///< Generator
  ReduceKind reduce{};              ///< Reduce
  uint32_t reduce_mask = 0;         ///< Reduce: bit k set = 0-based dim k reduced (k < ndims)
  bool omitnan = false;             ///< Reduce: 'omitnan' (sum/prod/mean) / not 'includenan'
  ReduceOut out_type{};             ///< Reduce
  ParamRole role{};                 ///< Param
  bool param_u64 = false;           ///< Param: holds a 64-bit unsigned value (RNG key/offset)
  double value = 0;                 ///< Constant, Param (double)
  uint64_t bits = 0;                ///< Param (u64)
  bool conj = false;                ///< Transpose: a' rather than a.'
  std::vector<int64_t> steps;       ///< Slice: step per dimension (starts are inputs[1..])
  Tensor tensor;                    ///< Input
  ForcedSlot forced;                ///< the value once forced (not part of the identity)

  uint64_t iteration = 0;  ///< loop iteration the node was created in (0: none); not hashed
  size_t hash = 0;        ///< structural hash (Param values included)
  size_t shape_hash = 0;  ///< structural hash with Param values lifted out
  uint64_t serial = 0;    ///< creation order (deterministic tie-breaks)

  int64_t numel() const { return dims.numel(); }
  bool is_leaf() const { return category == Category::Leaf; }
  /// Whether the value is known without computing: an Input, or a forced node.
  bool has_value() const { return kind == NodeKind::Input || forced.has(); }
  /// The value of an Input or a forced node (has_value() must hold).
  const Tensor& value_tensor() const { return kind == NodeKind::Input ? tensor : forced.get(); }
  /// One-line description: "%serial = sin(%3) : 1024x1 single".
  std::string str() const;
};

// ---- creation (all may raise the eager operation's MatlabError) -----------------------------

/// Materialised tensor (any class; complex allowed).
NodeRef input(const Tensor& t);
/// Scalar constant of class cls (value converted with saturate_cast).
NodeRef constant(double v, ClassId cls = ClassId::Double);
/// Per-trace double scalar (class double).
NodeRef param(double v, ParamRole role = ParamRole::Scalar);
/// Per-trace 64-bit unsigned scalar (RNG key or counter offset); class double in shape terms.
NodeRef param_u64(uint64_t v, ParamRole role);

/// op(a); op must be unary.
NodeRef unary(OpId op, const NodeRef& a);
/// op(a, b) with implicit expansion; op must be binary.
NodeRef binary(OpId op, const NodeRef& a, const NodeRef& b);
/// MATLAB class conversion. MATLAB:nologicalcomplex for complex to logical.
NodeRef cast(const NodeRef& a, ClassId cls);
/// Reduction over 0-based dims (duplicates and negative dims raise the MATLAB errors; dims past
/// ndims are singletons). Classes as in builtins/reduce.h. nanflag: omitnan for
/// sum/prod/mean means 'omitnan'; for min/max omitnan=false means 'includenan'.
NodeRef reduce(ReduceKind kind, const NodeRef& x, const std::vector<int>& dims,
               bool omitnan = false, ReduceOut out = ReduceOut::Default);
/// Matrix product of 2-D a (m x k) and b (k x n); MATLAB:innerdim on mismatch. Classes double,
/// single, logical, char (integer classes raise MATLAB:mtimes:integerNotSupported).
NodeRef matmul(const NodeRef& a, const NodeRef& b);
/// a.' (conj = false) or a' (2-D only).
NodeRef transpose(const NodeRef& a, bool conj = false);
/// diag(a) of a 2-D matrix a (m x n, m > 1 and n > 1): the min(m,n) x 1 main diagonal, element
/// k = a(k*(m+1)) (0-based linear index). Vectors (diag builds a matrix), other diagonals and N-D
/// values are not graph nodes (the eager builtin handles them); MF_ASSERT on such an a.
NodeRef diag(const NodeRef& a);
/// x(start_1 + (0:count_1-1)*step_1, ..., start_n + ...): starts are scalar Param or Constant
/// nodes holding 1-based indices, one per dimension of x (x.dims().ndims() of them). Bounds are
/// checked at creation (MATLAB:badsubscript).
NodeRef slice(const NodeRef& x, const std::vector<NodeRef>& starts,
              const std::vector<int64_t>& steps, const std::vector<int64_t>& counts);

/// rand(dims, cls) of the stream (key, offset): element i = mf_rand_{d,f}(key, offset + i).
NodeRef rand(const Dims& dims, ClassId cls, uint64_t key, uint64_t offset);
/// randn(dims, cls): element i = mf_randn_{d,f}(key, offset + i).
NodeRef randn(const Dims& dims, ClassId cls, uint64_t key, uint64_t offset);
NodeRef zeros(const Dims& dims, ClassId cls = ClassId::Double);
NodeRef ones(const Dims& dims, ClassId cls = ClassId::Double);
/// eye(m, n, cls).
NodeRef eye(int64_t m, int64_t n, ClassId cls = ClassId::Double);
/// linspace(a, b, n) as the eager builtin computes it (exact endpoints; single rounds a and b
/// to single first, computes in double, rounds the result); cls double or single; n >= 1.
NodeRef linspace(double a, double b, int64_t n, ClassId cls = ClassId::Double);
/// Colon range of n elements (1 x n): element k = a + k*d in the class precision (double or
/// single), the last element replaced by `last` (the caller computes n and the snapped last
/// element with colon's rules, builtins/colon.cc).
NodeRef colon_range(double a, double d, int64_t n, double last, ClassId cls = ClassId::Double);

/// A node equal to n but reading `inputs` (same count, each with the dims and class of the one
/// it replaces): how a graph is rebuilt on the stored values of forced nodes (lazy.cc).
NodeRef with_inputs(const Node& n, std::vector<NodeRef> inputs);

// ---- loop iterations (decision 8) ----------------------------------------------------------

/// The interpreter opens one LoopIteration per iteration of a for/while body; nodes created
/// meanwhile record a fresh iteration number (Node::iteration), so the planner can label a
/// group whose members span several iterations `loop` whatever the body computes.
class LoopIteration {
public:
  LoopIteration();
  ~LoopIteration();
  LoopIteration(const LoopIteration&) = delete;
  LoopIteration& operator=(const LoopIteration&) = delete;

private:
  uint64_t prev_;
};

// ---- inspection ------------------------------------------------------------------------------

/// Whether every element of n's value is >= 0 or NaN (never negative), proved from its
/// structure: rand/zeros/ones, abs, exp, sqrt, squares and even powers, sums and products of
/// such values, x'*x of a column x (a sum of squares) ... Such operands keep sqrt/log/power real.
/// Conservative: false when unsure. param_values: whether a Param's current value may be used
/// (at capture, per trace; never in kernel lowering, whose text must not depend on it).
bool known_nonnegative(const Node* n, bool param_values, int depth = 0);

/// All nodes reachable from roots, producers before consumers (deterministic order).
std::vector<const Node*> topo_order(std::span<const NodeRef> roots);
/// Text of the graph of roots, one node per line (MATFUSE_DUMP and --graph).
std::string dump_graph(std::span<const NodeRef> roots);
/// Number of live interned nodes (tests).
size_t interned_node_count();

/// Whether the fused kernels compute op on complex operands (their real and imaginary parts
/// as two real values, accel/emit/lower.cc): the ops flagged kComplexFused in ops.def, today
/// + - .* == ~= < <= > >= (ordering compares real parts; complex division stays eager: the
/// eager engine's std::complex quotient has special cases a kernel without selects cannot
/// follow bit for bit), uminus, uplus, conj, real, imag, abs, angle, exp, floor, ceil, round,
/// fix, isnan, isinf, isfinite.
bool complex_fusable(OpId op);

std::string_view node_kind_name(NodeKind k);
std::string_view reduce_kind_name(ReduceKind k);
std::string_view gen_kind_name(GenKind k);

}  // namespace matfuse::accel
