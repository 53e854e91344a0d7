// Node creation, shape/class inference and interning (see graph.h for the contract).
#include "accel/capture/graph.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "runtime/reduce_layout.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

/// Identity of a materialised tensor's values: its storage object and byte offset. Unlike the
/// data pointer this never gathers a device-resident tensor to the host. Copy-on-write makes it
/// a value identity: a write to a shared storage goes to a fresh one.
const void* storage_identity(const Tensor& t) {
  return static_cast<const char*>(static_cast<const void*>(t.storage().get())) + t.storage_offset();
}

// ---- hashing --------------------------------------------------------------------------------

inline void mix(size_t& h, uint64_t v) {
  v *= 0x9E3779B97F4A7C15ull;
  v ^= v >> 29;
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
}
inline uint64_t dbits(double v) {
  uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

/// Hash of the fields every node has and of its kind's attributes (node_kinds.def), except
/// Param values and input identities.
size_t attr_hash(const Node& n) {
  size_t h = 0;
  mix(h, static_cast<uint64_t>(n.kind));
  mix(h, static_cast<uint64_t>(n.cls));
  mix(h, n.complex);
  for (int k = 0; k < n.dims.ndims(); ++k) mix(h, static_cast<uint64_t>(n.dims[k]));
  const NodeKind k = n.kind;
  if (kind_has(k, kAttrOp)) mix(h, static_cast<uint64_t>(n.op));
  if (kind_has(k, kAttrGen)) mix(h, static_cast<uint64_t>(n.gen));
  if (kind_has(k, kAttrReduce)) {
    mix(h, static_cast<uint64_t>(n.reduce));
    mix(h, n.reduce_mask);
    mix(h, n.omitnan);
    mix(h, static_cast<uint64_t>(n.out_type));
  }
  if (kind_has(k, kAttrParam)) {
    mix(h, static_cast<uint64_t>(n.role));
    mix(h, n.param_u64);
  }
  if (kind_has(k, kAttrConj)) mix(h, n.conj);
  if (kind_has(k, kAttrSteps))
    for (int64_t s : n.steps) mix(h, static_cast<uint64_t>(s));
  if (kind_has(k, kAttrValue)) mix(h, dbits(n.value));
  return h;
}

void compute_hashes(Node& n) {
  size_t h = attr_hash(n), sh = h;
  for (const NodeRef& in : n.inputs) {
    mix(h, in->hash);
    mix(sh, in->shape_hash);
  }
  // Identity that stays out of shape_hash: Param values, the stored tensor of an Input (inputs
  // with equal class and dims are interchangeable in kernel structure).
  if (kind_has(n.kind, kAttrParam)) mix(h, n.param_u64 ? n.bits : dbits(n.value));
  if (kind_has(n.kind, kAttrTensor))
    mix(h, reinterpret_cast<uintptr_t>(storage_identity(n.tensor)));
  n.hash = h;
  n.shape_hash = sh;
}

/// Structural equality: the fields every node has, the same input objects, and the attributes
/// of the kind (node_kinds.def).
bool same_structure(const Node& a, const Node& b) {
  if (a.kind != b.kind || a.cls != b.cls || a.complex != b.complex || a.dims != b.dims ||
      a.inputs.size() != b.inputs.size())
    return false;
  for (size_t i = 0; i < a.inputs.size(); ++i)
    if (a.inputs[i] != b.inputs[i]) return false;
  const NodeKind k = a.kind;
  if (kind_has(k, kAttrOp) && a.op != b.op) return false;
  if (kind_has(k, kAttrGen) && a.gen != b.gen) return false;
  if (kind_has(k, kAttrReduce) &&
      (a.reduce != b.reduce || a.reduce_mask != b.reduce_mask || a.omitnan != b.omitnan ||
       a.out_type != b.out_type))
    return false;
  if (kind_has(k, kAttrParam) &&
      (a.role != b.role || a.param_u64 != b.param_u64 ||
       (a.param_u64 ? a.bits != b.bits : dbits(a.value) != dbits(b.value))))
    return false;
  if (kind_has(k, kAttrConj) && a.conj != b.conj) return false;
  if (kind_has(k, kAttrSteps) && a.steps != b.steps) return false;
  if (kind_has(k, kAttrValue) && dbits(a.value) != dbits(b.value)) return false;
  if (kind_has(k, kAttrTensor) &&
      (storage_identity(a.tensor) != storage_identity(b.tensor) ||
       a.tensor.is_complex() != b.tensor.is_complex()))
    return false;
  return true;
}

// ---- intern table ---------------------------------------------------------------------------

std::mutex g_forced_mu;  // serialises ForcedSlot::set

struct InternTable {
  std::mutex mu;
  std::unordered_multimap<size_t, std::weak_ptr<const Node>> map;
};
InternTable& table() {
  static InternTable* t = new InternTable();  // never destroyed: nodes may outlive statics
  return *t;
}
std::atomic<uint64_t> g_serial{0};

/// Returns the interned node structurally equal to proto, creating it when absent.
NodeRef intern(Node&& proto) {
  MF_ASSERT(proto.category == kind_category(proto.kind), "node category differs from its kind's");
  MF_ASSERT(kind_arity(proto.kind) < 0 ||
                static_cast<int>(proto.inputs.size()) == kind_arity(proto.kind),
            "node input count differs from its kind's arity");
  compute_hashes(proto);
  InternTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto range = t.map.equal_range(proto.hash);
  for (auto it = range.first; it != range.second; ++it) {
    if (NodeRef hit = it->second.lock()) {
      if (same_structure(*hit, proto)) return hit;
    }
  }
  proto.serial = g_serial.fetch_add(1);
  const size_t h = proto.hash;
  Node* raw = new Node(std::move(proto));
  NodeRef ref(raw, [h](const Node* p) {
    {
      InternTable& tt = table();
      std::lock_guard<std::mutex> l(tt.mu);
      auto r = tt.map.equal_range(h);
      for (auto it = r.first; it != r.second; ++it) {
        // An expired entry whose control block is ours: compare by owner-less address check.
        if (it->second.expired()) {
          // Several expired entries may share the hash; erase one at a time is fine because
          // each deleter removes exactly one expired entry.
          tt.map.erase(it);
          break;
        }
      }
    }
    delete p;  // drops input references outside the lock
  });
  t.map.emplace(h, ref);
  return ref;
}

[[noreturn]] void throw_undefined(OpId op, ClassId c) {
  throw_error("MATLAB:UndefinedFunction",
              "Undefined function '%s' for input arguments of type '%s'.",
              std::string(op_name(op)).c_str(), std::string(class_name(c)).c_str());
}


thread_local uint64_t t_iteration = 0;
std::atomic<uint64_t> g_iterations{0};

Node make(NodeKind k, ClassId cls, const Dims& d) {
  Node n;
  n.iteration = t_iteration;
  n.kind = k;
  n.category = kind_category(k);
  n.cls = cls;
  n.dims = d;
  n.dims.normalize();
  return n;
}

}  // namespace

// ---- leaves -----------------------------------------------------------------------------------

void ForcedSlot::set(const Tensor& v) const {
  std::lock_guard<std::mutex> l(g_forced_mu);
  if (set_.load(std::memory_order_relaxed)) return;
  value_ = v;
  set_.store(true, std::memory_order_release);
}

NodeRef with_inputs(const Node& n, std::vector<NodeRef> inputs) {
  MF_ASSERT(inputs.size() == n.inputs.size(), "with_inputs: input count differs");
  Node p = n;  // every attribute; the forced value is not copied (ForcedSlot)
  p.inputs = std::move(inputs);
  return intern(std::move(p));
}

NodeRef input(const Tensor& t) {
  Node n = make(NodeKind::Input, t.cls(), t.dims());
  n.complex = t.is_complex();
  n.tensor = t;
  return intern(std::move(n));
}

NodeRef constant(double v, ClassId cls) {
  Node n = make(NodeKind::Constant, cls, Dims::scalar());
  // Store the value as the class holds it.
  n.value = dispatch_class(cls, [&](auto tag) { return static_cast<double>(saturate_cast<decltype(tag)>(v)); });
  return intern(std::move(n));
}

NodeRef param(double v, ParamRole role) {
  Node n = make(NodeKind::Param, ClassId::Double, Dims::scalar());
  n.value = v;
  n.role = role;
  return intern(std::move(n));
}

NodeRef param_u64(uint64_t v, ParamRole role) {
  Node n = make(NodeKind::Param, ClassId::Double, Dims::scalar());
  n.bits = v;
  n.value = static_cast<double>(v);
  n.param_u64 = true;
  n.role = role;
  return intern(std::move(n));
}

// ---- elementwise ------------------------------------------------------------------------------

NodeRef unary(OpId op, const NodeRef& a) {
  MF_ASSERT(op_arity(op) == 1, "accel::unary needs a unary op");
  const OpCategory cat = op_category(op);
  ClassId rc;
  bool cx = false;
  if (cat == OpCategory::Predicate || cat == OpCategory::Logical) {
    rc = ClassId::Logical;
  } else {
    const ClassId in = a->cls;
    rc = (in == ClassId::Logical || in == ClassId::Char) ? ClassId::Double : in;
    if (is_integer_class(rc) && !op_has(op, kIntOk)) throw_undefined(op, in);
    if (a->complex && is_integer_class(rc))
      throw_error("matfuse:notAvailable", "Complex integer arithmetic is not supported ('%s').",
                  std::string(op_name(op)).c_str());
    cx = a->complex && !op_has(op, kRealOut);
  }
  if (cat == OpCategory::Logical && a->complex)
    cx = false;  // not(complex) is logical
  Node n = make(NodeKind::Elementwise, rc, a->dims);
  n.op = op;
  n.complex = cx;
  n.inputs = {a};
  return intern(std::move(n));
}

NodeRef binary(OpId op, const NodeRef& a, const NodeRef& b) {
  MF_ASSERT(op_arity(op) == 2, "accel::binary needs a binary op");
  const OpCategory cat = op_category(op);
  ClassId rc;
  bool cx = false;
  Dims out;
  if (cat == OpCategory::Compare || cat == OpCategory::Logical) {
    out = broadcast_dims(a->dims, b->dims);
    rc = ClassId::Logical;
  } else {
    rc = class_of_binary(a->cls, b->cls);  // class errors come before size errors
    out = broadcast_dims(a->dims, b->dims);
    cx = a->complex || b->complex;
    if (is_integer_class(rc) && !op_has(op, kIntOk))
      throw_undefined(op, is_integer_class(a->cls) ? a->cls : b->cls);
    if (cx && !op_has(op, kComplexOk))
      throw_error("MATLAB:realInputsRequired", "Inputs to '%s' must be real.",
                  std::string(op_name(op)).c_str());
    if (cx && is_integer_class(rc))
      throw_error("matfuse:notAvailable", "Complex integer arithmetic is not supported ('%s').",
                  std::string(op_name(op)).c_str());
  }
  Node n = make(NodeKind::Elementwise, rc, out);
  n.op = op;
  n.complex = cx;
  n.inputs = {a, b};
  return intern(std::move(n));
}

NodeRef cast(const NodeRef& a, ClassId cls) {
  if (cls == ClassId::Logical && a->complex)
    throw_error("MATLAB:nologicalcomplex", "Complex values cannot be converted to logicals.");
  if (cls == a->cls) return a;
  Node n = make(NodeKind::Cast, cls, a->dims);
  n.complex = a->complex && (is_float_class(cls) || is_integer_class(cls));
  n.inputs = {a};
  return intern(std::move(n));
}

// ---- reductions -------------------------------------------------------------------------------

NodeRef reduce(ReduceKind kind, const NodeRef& x, const std::vector<int>& dims, bool omitnan,
               ReduceOut out) {
  const std::vector<int> sorted = reduce_detail::sorted_reduce_dims(dims);
  const ClassId c = x->cls;
  ClassId rc = c;
  switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Prod:
      // The eager rule itself (ReduceOut and builtins' OutType list the same options in the
      // same order).
      rc = reduce_detail::sum_result_class(c, static_cast<int>(out));
      break;
    case ReduceKind::Mean:
      if (out == ReduceOut::Native && (c == ClassId::Logical || c == ClassId::Char))
        throw_error("MATLAB:mean:nativeType",
                    "Option 'native' is not supported for inputs of type '%s'.",
                    std::string(class_name(c)).c_str());
      if (out == ReduceOut::Double) rc = ClassId::Double;
      else if (out == ReduceOut::Native) rc = c;
      else rc = c == ClassId::Single ? ClassId::Single : ClassId::Double;
      break;
    case ReduceKind::Min:
    case ReduceKind::Max: rc = c == ClassId::Char ? ClassId::Double : c; break;
    case ReduceKind::Any:
    case ReduceKind::All: rc = ClassId::Logical; break;
  }
  Dims od = x->dims;
  uint32_t mask = 0;
  for (int d : sorted) {
    if (d >= x->dims.ndims()) continue;
    mask |= 1u << d;
    const bool keep_zero = (kind == ReduceKind::Min || kind == ReduceKind::Max) && x->dims[d] == 0;
    if (!keep_zero) od.set(d, 1);
  }
  Node n = make(NodeKind::Reduce, rc, od);
  n.reduce = kind;
  n.reduce_mask = mask;
  n.omitnan = omitnan;
  n.out_type = out;
  n.complex = x->complex && kind != ReduceKind::Any && kind != ReduceKind::All;
  n.inputs = {x};
  return intern(std::move(n));
}

// ---- linear algebra and movement --------------------------------------------------------------

NodeRef matmul(const NodeRef& a, const NodeRef& b) {
  if (is_integer_class(a->cls) || is_integer_class(b->cls))
    throw_error("MATLAB:mtimes:integerNotSupported",
                "MTIMES (*) is not fully supported for integer classes. At least one argument "
                "must be scalar.");
  if (!a->dims.is_matrix() || !b->dims.is_matrix())
    throw_error("MATLAB:mtimes:inputsMustBe2D", "Arguments must be 2-D, or at least one argument "
                                                "must be scalar. Use TIMES (.*) for elementwise "
                                                "multiplication.");
  if (a->dims.cols() != b->dims.rows())
    throw_error("MATLAB:innerdim",
                "Incorrect dimensions for matrix multiplication. Check that the number of "
                "columns in the first matrix matches the number of rows in the second matrix. "
                "To operate on each element of the matrix individually, use TIMES (.*) for "
                "elementwise multiplication.");
  const ClassId rc = class_of_binary(a->cls, b->cls);
  Node n = make(NodeKind::MatMul, rc, Dims(a->dims.rows(), b->dims.cols()));
  n.complex = a->complex || b->complex;
  n.inputs = {a, b};
  return intern(std::move(n));
}

NodeRef transpose(const NodeRef& a, bool conj) {
  if (!a->dims.is_matrix())
    throw_error("MATLAB:transpose:NDArray", "Transpose on ND array is not defined. Use PERMUTE "
                                            "instead.");
  Node n = make(NodeKind::Transpose, a->cls, Dims(a->dims.cols(), a->dims.rows()));
  n.complex = a->complex;
  n.conj = conj && a->complex;
  n.inputs = {a};
  return intern(std::move(n));
}

NodeRef diag(const NodeRef& a) {
  MF_ASSERT(a->dims.is_matrix() && a->dims.rows() > 1 && a->dims.cols() > 1,
            "accel::diag needs a 2-D matrix with more than one row and column");
  Node n = make(NodeKind::Diag, a->cls,
                Dims(std::min(a->dims.rows(), a->dims.cols()), 1));
  n.complex = a->complex;
  n.inputs = {a};
  return intern(std::move(n));
}

NodeRef slice(const NodeRef& x, const std::vector<NodeRef>& starts,
              const std::vector<int64_t>& steps, const std::vector<int64_t>& counts) {
  const int nd = x->dims.ndims();
  MF_ASSERT(static_cast<int>(starts.size()) == nd && static_cast<int>(steps.size()) == nd &&
                static_cast<int>(counts.size()) == nd,
            "accel::slice needs one start, step and count per dimension");
  Dims od;
  for (int k = 0; k < nd; ++k) {
    const Node& s = *starts[k];
    MF_ASSERT((s.kind == NodeKind::Param || s.kind == NodeKind::Constant) && !s.param_u64,
              "slice starts must be scalar Param or Constant nodes");
    const double st = s.value;
    const int64_t cnt = counts[k];
    MF_ASSERT(cnt >= 0, "negative slice count");
    if (cnt > 0) {
      const double last = st + static_cast<double>((cnt - 1) * steps[k]);
      const double lo = std::min(st, last), hi = std::max(st, last);
      if (lo < 1 || st != std::floor(st))
        throw_error("MATLAB:badsubscript",
                    "Index in position %d is invalid. Array indices must be positive integers "
                    "or logical values.", k + 1);
      if (hi > static_cast<double>(x->dims[k]))
        throw_error("MATLAB:badsubscript",
                    "Index in position %d exceeds array bounds (must not exceed %lld).", k + 1,
                    static_cast<long long>(x->dims[k]));
    }
    od.set(k, cnt);
  }
  Node n = make(NodeKind::Slice, x->cls, od);
  n.complex = x->complex;
  n.steps = steps;
  n.inputs.push_back(x);
  for (const NodeRef& s : starts) n.inputs.push_back(s);
  return intern(std::move(n));
}

// ---- generators -------------------------------------------------------------------------------

namespace {
NodeRef generator(GenKind g, const Dims& d, ClassId cls, std::vector<NodeRef> inputs) {
  Node n = make(NodeKind::Generator, cls, d);
  n.gen = g;
  n.inputs = std::move(inputs);
  return intern(std::move(n));
}
void check_float(ClassId cls, const char* name) {
  if (!is_float_class(cls))
    throw_error("MATLAB:rand:invalidOutputType", "Invalid data type. The %s function supports "
                                                 "only 'double' or 'single'.", name);
}
}  // namespace

NodeRef rand(const Dims& dims, ClassId cls, uint64_t key, uint64_t offset) {
  check_float(cls, "rand");
  return generator(GenKind::Rand, dims, cls,
                   {param_u64(key, ParamRole::RngKey), param_u64(offset, ParamRole::RngOffset)});
}
NodeRef randn(const Dims& dims, ClassId cls, uint64_t key, uint64_t offset) {
  check_float(cls, "randn");
  return generator(GenKind::Randn, dims, cls,
                   {param_u64(key, ParamRole::RngKey), param_u64(offset, ParamRole::RngOffset)});
}
NodeRef zeros(const Dims& dims, ClassId cls) { return generator(GenKind::Zeros, dims, cls, {}); }
NodeRef ones(const Dims& dims, ClassId cls) { return generator(GenKind::Ones, dims, cls, {}); }
NodeRef eye(int64_t m, int64_t n, ClassId cls) {
  return generator(GenKind::Eye, Dims(m, n), cls, {});
}
NodeRef linspace(double a, double b, int64_t n, ClassId cls) {
  check_float(cls, "linspace");
  MF_ASSERT(n >= 1, "linspace generator needs n >= 1");
  if (cls == ClassId::Single) {
    a = static_cast<float>(a);
    b = static_cast<float>(b);
  }
  return generator(GenKind::Linspace, Dims(1, n), cls, {param(a), param(b)});
}
NodeRef colon_range(double a, double d, int64_t n, double last, ClassId cls) {
  check_float(cls, "colon");
  MF_ASSERT(n >= 1, "colon generator needs n >= 1");
  if (cls == ClassId::Single) {
    a = static_cast<float>(a);
    d = static_cast<float>(d);
    last = static_cast<float>(last);
  }
  return generator(GenKind::Colon, Dims(1, n), cls, {param(a), param(d), param(last)});
}

// ---- inspection -------------------------------------------------------------------------------

std::vector<const Node*> topo_order(std::span<const NodeRef> roots) {
  std::vector<const Node*> order;
  std::unordered_set<const Node*> seen;
  order.reserve(64);
  seen.reserve(64);
  // Iterative post-order DFS (inputs in order), so deep traces do not overflow the stack.
  std::vector<std::pair<const Node*, size_t>> stack;
  for (const NodeRef& r : roots) {
    if (!r || seen.count(r.get())) continue;
    stack.push_back({r.get(), 0});
    seen.insert(r.get());
    while (!stack.empty()) {
      auto& [n, i] = stack.back();
      if (i < n->inputs.size()) {
        const Node* c = n->inputs[i++].get();
        if (seen.insert(c).second) stack.push_back({c, 0});
      } else {
        order.push_back(n);
        stack.pop_back();
      }
    }
  }
  return order;
}

std::string_view node_kind_name(NodeKind k) { return node_detail::kKindInfo[int(k)].name; }
std::string_view reduce_kind_name(ReduceKind k) {
  static const char* names[] = {"sum", "prod", "mean", "min", "max", "any", "all"};
  return names[static_cast<int>(k)];
}
std::string_view gen_kind_name(GenKind k) {
  static const char* names[] = {"rand", "randn", "zeros", "ones", "eye", "linspace", "colon"};
  return names[static_cast<int>(k)];
}

std::string Node::str() const {
  // Plain appends (planner rejections format nodes on every evaluation); the text is the one
  // the stream operators gave (a Constant's value keeps the stream's default formatting).
  std::string os;
  os.reserve(64);
  os += '%';
  os += std::to_string(serial);
  os += " = ";
  switch (kind) {
    case NodeKind::Constant: {
      std::ostringstream v;
      v << value;
      os += "constant ";
      os += v.str();
      break;
    }
    case NodeKind::Param:
      os += "param";
      if (role == ParamRole::LoopIndex) os += ".loop";
      if (role == ParamRole::RngKey) os += ".key";
      if (role == ParamRole::RngOffset) os += ".offset";
      break;
    case NodeKind::Elementwise: os += op_name(op); break;
    case NodeKind::Generator: os += gen_kind_name(gen); break;
    case NodeKind::Reduce:
      os += reduce_kind_name(reduce);
      os += "[mask=";
      os += std::to_string(reduce_mask);
      os += omitnan ? ",omitnan]" : "]";
      break;
    case NodeKind::MatMul: os += "mtimes"; break;
    case NodeKind::Transpose: os += conj ? "ctranspose" : "transpose"; break;
    default: os += node_kind_name(kind); break;  // input, cast, slice, diag: their table names
  }
  os += '(';
  for (size_t i = 0; i < inputs.size(); ++i) {
    os += i ? ", %" : "%";
    os += std::to_string(inputs[i]->serial);
  }
  os += ") : ";
  os += dims.str();
  os += ' ';
  os += class_name(cls);
  if (complex) os += " complex";
  return os;
}

std::string dump_graph(std::span<const NodeRef> roots) {
  std::string s;
  for (const Node* n : topo_order(roots)) s += n->str() + "\n";
  return s;
}

size_t interned_node_count() {
  InternTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  size_t c = 0;
  for (auto& [h, w] : t.map) c += !w.expired();
  return c;
}

LoopIteration::LoopIteration() : prev_(t_iteration) { t_iteration = ++g_iterations; }
LoopIteration::~LoopIteration() { t_iteration = prev_; }

// Proof by structure (see graph.h).
bool known_nonnegative(const Node* n, bool param_values, int depth) {
  if (depth > 64) return false;
  auto nn = [&](int i) { return known_nonnegative(n->inputs[i].get(), param_values, depth + 1); };
  // Casts and movement nodes (transpose, slice, diag, ...) keep their operand's values.
  if (n->category == Category::Cast || n->category == Category::Movement)
    return !n->inputs.empty() && nn(0);
  switch (n->kind) {
    case NodeKind::Constant: return !(n->value < 0);
    case NodeKind::Param: return param_values && !(n->value < 0);
    case NodeKind::Generator:
      return n->gen == GenKind::Rand || n->gen == GenKind::Zeros || n->gen == GenKind::Ones ||
             n->gen == GenKind::Eye;
    case NodeKind::Reduce:
      return n->reduce == ReduceKind::Any || n->reduce == ReduceKind::All || nn(0);
    case NodeKind::MatMul: {
      // x'*x of a real column x, or x*x' of a real row x: a sum of squares (every term >= 0,
      // so the rounded sum is too); other products of one value with itself have negative
      // elements off the diagonal.
      const Node* a = n->inputs[0].get();
      const Node* b = n->inputs[1].get();
      if (n->numel() != 1) return false;
      if (a->kind == NodeKind::Transpose && a->inputs[0].get() == b) return true;
      if (b->kind == NodeKind::Transpose && b->inputs[0].get() == a) return true;
      return nn(0) && nn(1);
    }
    case NodeKind::Elementwise:
      // ops.def's sign column.
      switch (op_sign(n->op)) {
        case OpSign::Always: return true;
        case OpSign::Both: return nn(0) && nn(1);
        case OpSign::Either: return nn(0) || nn(1);
        case OpSign::Operand: return nn(0);  // monotone, zero at zero
        case OpSign::EvenPower: {
          if (nn(0)) return true;
          const Node* e = n->inputs[1].get();
          const bool scalar = e->kind == NodeKind::Constant ||
                              (param_values && e->kind == NodeKind::Param);
          return scalar && std::fmod(e->value, 2.0) == 0;  // even integer exponent
        }
        case OpSign::Any: return false;
      }
      return false;
    default: return false;
  }
}

bool complex_fusable(OpId op) { return op_has(op, kComplexFused); }

}  // namespace matfuse::accel
