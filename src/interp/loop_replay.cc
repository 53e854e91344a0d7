// Loop replay in the interpreter (see loop_replay.h).
#include "interp/loop_replay.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "accel/capture/lazy.h"
#include "accel/plan/plan.h"
#include "interp/interp.h"
#include "interp/liveness.h"
#include "runtime/interrupt.h"
#include "runtime/ops.h"

namespace matfuse {
namespace {

using namespace ast;

/// Builtins without side effects whose results depend only on their arguments (and, for
/// rand/randn, on the RNG stream, whose use replay accounts for): the ops flagged kReplayable
/// in runtime/ops.def, and these.
bool pure_builtin(std::string_view name) {
  static const std::unordered_set<std::string_view> s = {
      "single", "double", "logical", "rand", "randn", "zeros", "ones", "sum",   "mean",
      "prod",   "pi",     "eps",     "Inf",  "inf",   "NaN",   "nan",  "true", "false"};
  if (s.count(name)) return true;
  const std::optional<OpId> op = op_from_name(name);
  return op && op_has(*op, kReplayable);
}

/// Static eligibility of a loop body (see loop_replay.h).
class BodyCheck {
public:
  BodyCheck(Interpreter& in, int var_slot) : in_(in), var_(var_slot) {}

  bool block(const Block& b) {
    for (const StmtPtr& sp : b) {
      if (sp->kind != StmtKind::Assign || sp->print) return false;
      const auto& a = static_cast<const AssignStmt&>(*sp);
      if (a.multi || a.targets.size() != 1 || !a.targets[0] ||
          a.targets[0]->kind != ExprKind::Ident)
        return false;
      const int slot = static_cast<const IdentExpr&>(*a.targets[0]).slot;
      if (slot < 0 || slot == var_) return false;
      if (std::find(assigned.begin(), assigned.end(), slot) == assigned.end())
        assigned.push_back(slot);
    }
    for (const StmtPtr& sp : b)
      if (!expr(*static_cast<const AssignStmt&>(*sp).rhs)) return false;
    // Loop-carried: assigned variables read before the body assigns them.
    std::vector<int> written;
    for (const StmtPtr& sp : b) {
      const auto& a = static_cast<const AssignStmt&>(*sp);
      std::vector<int> rd;
      reads(*a.rhs, rd);
      for (int r : rd)
        if (is_assigned(r) && std::find(written.begin(), written.end(), r) == written.end() &&
            std::find(carried.begin(), carried.end(), r) == carried.end())
          carried.push_back(r);
      written.push_back(static_cast<const IdentExpr&>(*a.targets[0]).slot);
      for (int r : rd)
        if (r >= 0 && r != var_ && !is_assigned(r) &&
            std::find(invariant.begin(), invariant.end(), r) == invariant.end())
          invariant.push_back(r);
    }
    return !carried.empty();
  }

  std::vector<int> assigned;  ///< every variable the body assigns
  std::vector<int> carried;   ///< those read before being assigned (values cross iterations)
  std::vector<int> invariant; ///< variables read but not assigned (besides the loop variable)

private:
  bool is_variable(const IdentExpr& id) const {
    return id.slot >= 0 && (in_.slot_value(id.slot) != nullptr || is_assigned(id.slot));
  }
  bool is_assigned(int slot) const {
    return std::find(assigned.begin(), assigned.end(), slot) != assigned.end();
  }

  bool expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Number:
      case ExprKind::String:
      case ExprKind::Colon:
      case ExprKind::End: return true;
      case ExprKind::Ident: {
        const auto& id = static_cast<const IdentExpr&>(e);
        return is_variable(id) || pure_call(id.name);
      }
      case ExprKind::Unary: return expr(*static_cast<const UnaryExpr&>(e).operand);
      case ExprKind::Postfix: return expr(*static_cast<const PostfixExpr&>(e).operand);
      case ExprKind::Binary: {
        const auto& b = static_cast<const BinaryExpr&>(e);
        if (b.op == BinOp::AndAnd || b.op == BinOp::OrOr) return false;
        return expr(*b.lhs) && expr(*b.rhs);
      }
      case ExprKind::Range: {
        const auto& r = static_cast<const RangeExpr&>(e);
        return expr(*r.start) && (!r.step || expr(*r.step)) && expr(*r.stop);
      }
      case ExprKind::Index: {
        const auto& x = static_cast<const IndexExpr&>(e);
        if (x.is_brace || x.base->kind != ExprKind::Ident) return false;
        const auto& id = static_cast<const IdentExpr&>(*x.base);
        if (is_variable(id)) {
          for (const ExprPtr& a : x.args)
            if (!affine(*a)) return false;
          return true;
        }
        if (!pure_call(id.name)) return false;
        for (const ExprPtr& a : x.args)
          if (!expr(*a)) return false;
        return true;
      }
      default: return false;
    }
  }

  /// Slots of the identifiers in e.
  static void reads(const Expr& e, std::vector<int>& out) {
    for_each_read(&e, [&](int slot) { out.push_back(slot); });
  }

  /// Whether e mentions the loop variable or a variable the body assigns.
  bool varies(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::Ident: {
        const int s = static_cast<const IdentExpr&>(e).slot;
        return s == var_ || is_assigned(s);
      }
      case ExprKind::Unary: return varies(*static_cast<const UnaryExpr&>(e).operand);
      case ExprKind::Binary: {
        const auto& b = static_cast<const BinaryExpr&>(e);
        return varies(*b.lhs) || varies(*b.rhs);
      }
      default: return false;
    }
  }

  /// A subscript affine in the loop variable (see loop_replay.h).
  bool affine(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::Number:
      case ExprKind::Colon:
      case ExprKind::End: return true;
      case ExprKind::Ident: {
        const auto& id = static_cast<const IdentExpr&>(e);
        return id.slot == var_ || (is_variable(id) && !is_assigned(id.slot));
      }
      case ExprKind::Unary: {
        const auto& u = static_cast<const UnaryExpr&>(e);
        return u.op != UnOp::Not && affine(*u.operand);
      }
      case ExprKind::Binary: {
        const auto& b = static_cast<const BinaryExpr&>(e);
        if (b.op == BinOp::Add || b.op == BinOp::Sub) return affine(*b.lhs) && affine(*b.rhs);
        if (b.op == BinOp::Mul || b.op == BinOp::EMul)
          return affine(*b.lhs) && affine(*b.rhs) && !(varies(*b.lhs) && varies(*b.rhs));
        return false;
      }
      case ExprKind::Range: {
        const auto& r = static_cast<const RangeExpr&>(e);
        return affine(*r.start) && (!r.step || !varies(*r.step)) && affine(*r.stop);
      }
      default: return false;
    }
  }

  /// A pure builtin that the name really resolves to here (a function file on the path may
  /// shadow it).
  bool pure_call(const std::string& name) {
    if (!pure_builtin(name)) return false;
    const Frame* f = in_.current_frame();
    return in_.resolve_function(name, f ? f->unit : nullptr).kind == ResolvedFn::Kind::Builtin;
  }

  Interpreter& in_;
  int var_;
};

/// Whether a block may assign `slot` (assignment targets, loop variables, catch variables;
/// declarations and command syntax count as assigning anything).
bool may_assign(const Block& b, int slot) {
  auto root_slot = [](const Expr* e) {
    const IdentExpr* id = assignment_root(e);
    return id ? id->slot : -1;
  };
  for (const StmtPtr& sp : b) {
    switch (sp->kind) {
      case StmtKind::Assign:
        for (const ExprPtr& t : static_cast<const AssignStmt&>(*sp).targets)
          if (root_slot(t.get()) == slot) return true;
        break;
      case StmtKind::If:
        for (const auto& c : static_cast<const IfStmt&>(*sp).clauses)
          if (may_assign(c.body, slot)) return true;
        break;
      case StmtKind::For: {
        const auto& f = static_cast<const ForStmt&>(*sp);
        if (root_slot(f.var.get()) == slot || may_assign(f.body, slot)) return true;
        break;
      }
      case StmtKind::While:
        if (may_assign(static_cast<const WhileStmt&>(*sp).body, slot)) return true;
        break;
      case StmtKind::Switch:
        for (const auto& c : static_cast<const SwitchStmt&>(*sp).cases)
          if (may_assign(c.body, slot)) return true;
        break;
      case StmtKind::Try: {
        const auto& t = static_cast<const TryStmt&>(*sp);
        if (t.catch_slot == slot || may_assign(t.body, slot) || may_assign(t.handler, slot))
          return true;
        break;
      }
      case StmtKind::Global:
      case StmtKind::Persistent:
      case StmtKind::Spmd:
      case StmtKind::Command: return true;
      default: break;
    }
  }
  return false;
}

thread_local LoopReplayer* t_innermost = nullptr;

}  // namespace

LoopReplayer::~LoopReplayer() { t_innermost = outer_; }

bool LoopReplayer::enclosing_loop_rereads(int slot) const {
  for (const LoopReplayer* o = outer_; o; o = o->outer_)
    if (o->frame_ == frame_ && *o->k_ + 1 < o->n_ && !may_assign(o->stmt_.body, slot))
      return true;
  return false;
}

LoopReplayer::LoopReplayer(Interpreter& in, const ast::ForStmt& f, int var_slot, int64_t n,
                           double x0, double dx, const int64_t* k)
    : in_(in), stmt_(f), frame_(in.current_frame()), k_(k), outer_(t_innermost),
      var_slot_(var_slot), n_(n), x0_(x0), dx_(dx) {
  t_innermost = this;
  // Worth it only when a few chunks remain after the probes.
  const accel::LazyConfig& c = accel::lazy_config();
  if (!c.loop_replay || !c.enabled || n < 16) return;
  if (in.session_.rng.twister) {
    // Twister draws are host arrays made per call, not stream positions a kernel recomputes.
    accel::note_rejection(nullptr, accel::Decision::no("loop_replay",
                                                       "the random stream is the Mersenne "
                                                       "Twister (drawn on the host)"));
    return;
  }
  BodyCheck check(in, var_slot);
  if (!check.block(f.body)) {
    accel::note_rejection(nullptr, accel::Decision::no("loop_replay",
                                                       "the loop body is not pure array code"));
    return;
  }
  assigned_ = std::move(check.carried);
  invariant_ = std::move(check.invariant);
  phase_ = Phase::Probe;
}

bool LoopReplayer::collect_roots(std::vector<accel::NodeRef>& roots) const {
  roots.clear();
  for (int s : assigned_) {
    const Value* v = in_.slot_value(s);
    if (!v || v->kind() != Value::Kind::Array) return false;
    const Tensor t = v->tensor();
    if (!t.is_lazy()) return false;
    accel::NodeRef n = t.node();
    if (std::find(roots.begin(), roots.end(), n) == roots.end()) roots.push_back(std::move(n));
  }
  return true;
}

std::optional<accel::ChunkRun> LoopReplayer::force_chunk(bool record) {
  std::vector<accel::NodeRef> roots;
  if (!collect_roots(roots)) return std::nullopt;
  if (!record) add_invariants(roots);
  // The node of each assigned variable (before forcing: materialised values drop it).
  std::vector<const accel::Node*> slot_node;
  for (int s : assigned_) slot_node.push_back(in_.slot_value(s)->tensor().node().get());
  std::optional<accel::ChunkRun> run;
  {
    accel::ChunkRecorder rec;
    accel::force_nodes(roots, accel::SinkReason::LoopChunk, &rec);
    if (record) run = rec.take();
  }
  serial_ = accel::evaluation_serial();
  if (!record) align_nodes_ = slot_node;
  if (record && run) {
    // Every assigned variable's value must be an output of the kernel.
    slot_out_.clear();
    for (const accel::Node* n : slot_node) {
      const auto it = std::find(run->output_nodes.begin(), run->output_nodes.end(), n);
      if (it == run->output_nodes.end()) return std::nullopt;
      slot_out_.push_back(static_cast<int>(it - run->output_nodes.begin()));
    }
  }
  return run;
}

void LoopReplayer::add_invariants(std::vector<accel::NodeRef>& roots) const {
  for (int s : invariant_) {
    const Value* v = in_.slot_value(s);
    if (!v || v->kind() != Value::Kind::Array) continue;
    const Tensor t = v->tensor();
    if (!t.is_lazy()) continue;
    accel::NodeRef n = t.node();
    if (n->kind == accel::NodeKind::Input) continue;
    if (n->kind == accel::NodeKind::Generator) {
      // Inlined generators are recomputed at every read. A rand/randn array (Philox and the
      // normal transform cost several times a load) is stored when an enclosing loop will run
      // this loop again over the same array, if it fits comfortably.
      const bool rng = n->gen == accel::GenKind::Rand || n->gen == accel::GenKind::Randn;
      const double bytes = static_cast<double>(t.numel()) * t.elem_bytes();
      if (!rng || bytes > Tensor::max_array_bytes() / 4 || !enclosing_loop_rereads(s))
        continue;
    }
    if (std::find(roots.begin(), roots.end(), n) == roots.end()) roots.push_back(std::move(n));
  }
}

int64_t LoopReplayer::after_iteration(int64_t k) {
  const char* why = nullptr;
  std::string match_why;
  std::vector<accel::NodeRef> roots;
  switch (phase_) {
    case Phase::Off: return 0;
    case Phase::Probe: {
      int count = 0, depth = 0;
      if (!collect_roots(roots)) {
        why = "an assigned variable does not hold a lazy array";
        break;
      }
      accel::trace_size(roots, count, depth);
      if (k == 0) {
        size1_count_ = count;
        size1_depth_ = depth;
        serial_ = accel::evaluation_serial();
        return 0;
      }
      const int gn = count - size1_count_, gd = depth - size1_depth_;
      if (accel::evaluation_serial() != serial_) {
        why = "a value was forced inside the first iterations";
        break;
      }
      if (gn <= 0 || gd <= 0) {
        why = "the trace does not grow per iteration";
        break;
      }
      const accel::LazyConfig& c = accel::lazy_config();
      k_len_ = std::min<int64_t>(c.node_limit / gn, c.depth_limit / gd) - 1;
      if (k_len_ < 2 || n_ - (k + 1) < 3 * k_len_) {
        why = "too few iterations for the chunk length";
        break;
      }
      force_chunk(false);  // align the chunks with iteration boundaries
      rng_[0] = in_.session_.rng.offset;
      uint64_t rng_step = 0;
      if (std::optional<accel::ReplaySpec> spec = reuse_untraced(&rng_step)) {
        const int64_t done = fast_forward(*spec, k, rng_step);
        phase_ = Phase::Off;
        return done;
      }
      in_chunk_ = 0;
      phase_ = Phase::ChunkA;
      return 0;
    }
    case Phase::ChunkA:
    case Phase::ChunkB: {
      if (accel::evaluation_serial() != serial_) {
        why = "a value was forced inside a chunk";
        break;
      }
      if (++in_chunk_ < k_len_) return 0;
      in_chunk_ = 0;
      std::optional<accel::ChunkRun> run = force_chunk(true);
      if (!run) {
        why = "a chunk did not run as one kernel";
        break;
      }
      if (phase_ == Phase::ChunkA) {
        rng_[1] = in_.session_.rng.offset;
        if (std::optional<accel::ReplaySpec> spec = reuse_spec(*run)) {
          const int64_t done = fast_forward(*spec, k, rng_[1] - rng_[0]);
          phase_ = Phase::Off;
          return done;
        }
        run_a_ = std::move(run);
        phase_ = Phase::ChunkB;
        return 0;
      }
      rng_[2] = in_.session_.rng.offset;
      if (rng_[2] - rng_[1] != rng_[1] - rng_[0]) {
        why = "the chunks draw different amounts of random numbers";
        break;
      }
      std::optional<accel::ReplaySpec> spec = accel::match_chunks(*run_a_, *run, &match_why);
      run_a_.reset();
      if (!spec) {
        why = match_why.c_str();
        break;
      }
      keep_spec(*spec);
      const int64_t done = fast_forward(*spec, k, rng_[2] - rng_[1]);
      phase_ = Phase::Off;  // the rest (a partial chunk) is interpreted
      return done;
    }
  }
  phase_ = Phase::Off;
  run_a_.reset();
  if (why) accel::note_rejection(nullptr, accel::Decision::no("loop_replay", why));
  return 0;
}

namespace {

/// The materialised value of a variable holding an array (a forced lazy value is its node's
/// tensor), or nullopt (no array, or a value still pending).
std::optional<Tensor> materialised(const Value* v) {
  if (!v || !v->is_tensor()) return std::nullopt;
  Tensor t = v->tensor();
  if (!t.is_lazy()) return t;
  const accel::NodeRef n = t.node();
  if (n->kind != accel::NodeKind::Input) return std::nullopt;
  return n->tensor;
}

/// What the trace of a loop body can see of a loop-invariant variable: its class and size, and
/// its values (small host arrays, compared by value) or its identity (the stored array, or the
/// pending node; nodes are immutable and interned). A kept signature holds its stored array
/// (`pinned`) up to kPinMaxBytes, so that copy-on-write gives a written array new storage (the
/// trace may have read its values: an evenly spaced subscript vector becomes a slice); a larger
/// one is held weakly, and keep_spec then requires it to be a kernel input (read when the
/// kernel runs) that is not a double vector (not a possible subscript).
struct InvariantSig {
  enum class Mode : uint8_t { None, Absent, Bytes, Storage, Node } mode = Mode::None;
  ClassId cls = ClassId::Double;
  Dims dims;
  bool complex = false;
  std::vector<unsigned char> bytes;
  std::shared_ptr<Storage> pinned;
  std::weak_ptr<Storage> storage;
  size_t offset = 0;
  std::weak_ptr<const accel::Node> node;
};

constexpr int64_t kSigBytesMaxNumel = 16;
constexpr int64_t kPinMaxBytes = int64_t{1} << 20;

InvariantSig signature(const Value* v) {
  InvariantSig s;
  if (!v) s.mode = InvariantSig::Mode::Absent;  // a function name
  if (!v || !v->is_tensor()) return s;
  const Tensor t = v->tensor();
  s.cls = t.cls();
  s.dims = t.dims();
  if (t.is_lazy() && t.node()->kind != accel::NodeKind::Input) {
    if (t.maybe_complex()) return s;
    s.mode = InvariantSig::Mode::Node;
    s.node = t.node();
    return s;
  }
  const Tensor m = *materialised(v);
  s.complex = m.is_complex();
  if (m.numel() <= kSigBytesMaxNumel && !m.device_only()) {
    const auto* p = static_cast<const unsigned char*>(m.raw());
    s.bytes.assign(p, p + m.numel() * m.elem_bytes());
    s.mode = InvariantSig::Mode::Bytes;
  } else {
    s.pinned = m.storage();
    s.storage = s.pinned;
    s.offset = m.storage_offset();
    s.mode = InvariantSig::Mode::Storage;
  }
  return s;
}

/// Whether `cur` (a live value's signature) equals `kept` (an earlier one, whose referents may
/// have died since: then they differ).
bool same_signature(const InvariantSig& kept, const InvariantSig& cur) {
  using Mode = InvariantSig::Mode;
  if (kept.mode == Mode::None || kept.mode != cur.mode || kept.cls != cur.cls ||
      kept.dims != cur.dims || kept.complex != cur.complex)
    return false;
  switch (kept.mode) {
    case Mode::Absent: return true;
    case Mode::Bytes: return kept.bytes == cur.bytes;
    case Mode::Storage: {
      const std::shared_ptr<Storage> k = kept.pinned ? kept.pinned : kept.storage.lock();
      return k && k == cur.pinned && kept.offset == cur.offset;
    }
    case Mode::Node: {
      const accel::NodeRef k = kept.node.lock();
      return k && k == cur.node.lock();
    }
    default: return false;
  }
}

/// What an execution of a loop statement matched, for its later executions (reuse_spec,
/// reuse_untraced).
struct KeptSpec {
  std::string text;
  std::string provider;  ///< the provider that ran the kernel
  int64_t k_len = 0;
  double x0 = 0, dx = 0;
  uint64_t rng_step = 0;
  std::vector<int> carried_from;
  std::vector<ParamValue> step;
  std::vector<accel::ParamRole> roles;
  std::vector<bool> u64;
  // For reuse_untraced (untraced false when the matched chunks do not allow it):
  bool untraced = false;
  accel::Kernel kernel;
  std::string fusion_kind;
  std::vector<ParamValue> params_a;   ///< parameters of the first chunk after the alignment
  uint64_t rng_a = 0;                 ///< RNG offset at its start
  uint64_t rng_key = 0;               ///< the RNG key of every RngKey parameter
  std::vector<int> slot_out;          ///< per carried variable: its kernel output
  std::vector<int> input_invariant;   ///< per kernel input: its invariant variable, or -1
  std::vector<InvariantSig> invariants;  ///< per invariant variable
  std::vector<std::pair<ClassId, Dims>> out_shapes;  ///< per kernel output
};

/// By ForStmt::id.
std::unordered_map<uint64_t, KeptSpec>& kept_specs() {
  static std::unordered_map<uint64_t, KeptSpec> m;
  return m;
}

}  // namespace

void LoopReplayer::keep_spec(const accel::ReplaySpec& spec) const {
  const accel::ChunkRun& b = spec.last;
  KeptSpec& e = kept_specs()[stmt_.id];
  e = KeptSpec{};
  e.text = b.text;
  e.provider = b.provider;
  e.k_len = k_len_;
  e.x0 = x0_;
  e.dx = dx_;
  e.rng_step = rng_[2] - rng_[1];
  e.carried_from = spec.carried_from;
  e.step = spec.step;
  e.roles = b.roles;
  e.u64 = b.u64;
  // Untraced reuse: every per-chunk scalar must be derivable from the loop range and the RNG
  // state (loop indices and body RNG offsets step; a fixed offset would belong to a generator
  // made before the loop), and every non-carried input must be an invariant variable's array.
  e.untraced = slot_out_.size() == assigned_.size();
  e.rng_key = in_.session_.rng.key;
  for (size_t p = 0; p < b.params.size() && e.untraced; ++p) {
    ParamValue a = b.params[p];
    const bool fixed = b.u64[p] ? spec.step[p].u == 0 : spec.step[p].f == 0;
    if (b.u64[p]) a.u -= spec.step[p].u;
    else a.f -= spec.step[p].f;
    e.params_a.push_back(a);
    const accel::ParamRole r = b.roles[p];
    if ((r == accel::ParamRole::LoopIndex || r == accel::ParamRole::RngOffset) && fixed)
      e.untraced = false;
    if (r == accel::ParamRole::RngOffset && !b.u64[p]) e.untraced = false;
    if (r == accel::ParamRole::RngKey && (!b.u64[p] || b.params[p].u != e.rng_key))
      e.untraced = false;
  }
  for (int s : invariant_) e.invariants.push_back(signature(in_.slot_value(s)));
  for (size_t i = 0; i < b.inputs.size() && e.untraced; ++i) {
    int inv = -1;
    if (spec.carried_from[i] < 0) {
      const Tensor& x = b.inputs[i];
      for (size_t v = 0; v < invariant_.size() && inv < 0; ++v) {
        const std::optional<Tensor> m = materialised(in_.slot_value(invariant_[v]));
        if (m && m->storage() == x.storage() && m->storage_offset() == x.storage_offset() &&
            m->cls() == x.cls() && m->dims() == x.dims())
          inv = static_cast<int>(v);
      }
      if (inv < 0) e.untraced = false;
    }
    e.input_invariant.push_back(inv);
  }
  for (size_t v = 0; v < e.invariants.size(); ++v) {
    InvariantSig& sig = e.invariants[v];
    if (sig.mode != InvariantSig::Mode::Storage ||
        sig.dims.numel() * element_size(sig.cls) * (sig.complex ? 2 : 1) <= kPinMaxBytes)
      continue;
    sig.pinned.reset();
    const bool input = std::find(e.input_invariant.begin(), e.input_invariant.end(),
                                 static_cast<int>(v)) != e.input_invariant.end();
    if (!input || (sig.cls == ClassId::Double && sig.dims.is_vector())) e.untraced = false;
  }
  e.rng_a = rng_[0];
  e.slot_out = slot_out_;
  e.kernel = b.kernel;
  e.fusion_kind = b.fusion_kind;
  for (const Tensor& o : b.outputs) e.out_shapes.emplace_back(o.cls(), o.dims());
}

std::optional<accel::ReplaySpec> LoopReplayer::reuse_untraced(uint64_t* rng_step) {
  const auto it = kept_specs().find(stmt_.id);
  if (it == kept_specs().end() || !it->second.untraced) return std::nullopt;
  const KeptSpec& e = it->second;
  if (e.k_len != k_len_ || e.x0 != x0_ || e.dx != dx_ ||
      e.invariants.size() != invariant_.size() || e.slot_out.size() != assigned_.size())
    return std::nullopt;
  for (size_t v = 0; v < invariant_.size(); ++v)
    if (!same_signature(e.invariants[v], signature(in_.slot_value(invariant_[v]))))
      return std::nullopt;
  // The carried variables' values now are the chunk-start values of the kernel's outputs.
  std::vector<std::optional<Tensor>> start(e.out_shapes.size());
  for (size_t v = 0; v < assigned_.size(); ++v) {
    const std::optional<Tensor> t = materialised(in_.slot_value(assigned_[v]));
    const size_t o = static_cast<size_t>(e.slot_out[v]);
    if (!t || t->is_complex() || t->cls() != e.out_shapes[o].first ||
        t->dims() != e.out_shapes[o].second)
      return std::nullopt;
    if (start[o] && (start[o]->storage() != t->storage() ||
                     start[o]->storage_offset() != t->storage_offset()))
      return std::nullopt;
    start[o] = t;
  }
  accel::ReplaySpec s;
  accel::ChunkRun& last = s.last;  // the virtual chunk before the first one replayed
  for (const std::optional<Tensor>& t : start) {
    if (!t) return std::nullopt;
    last.outputs.push_back(*t);
  }
  for (size_t i = 0; i < e.input_invariant.size(); ++i) {
    const int v = e.input_invariant[i];
    if (v < 0) {
      last.inputs.push_back(last.outputs[static_cast<size_t>(e.carried_from[i])]);
      continue;
    }
    const std::optional<Tensor> m =
        materialised(in_.slot_value(invariant_[static_cast<size_t>(v)]));
    if (!m) return std::nullopt;
    last.inputs.push_back(*m);
  }
  const uint64_t key = in_.session_.rng.key, shift = rng_[0] - e.rng_a;
  for (size_t p = 0; p < e.params_a.size(); ++p) {
    ParamValue x = e.params_a[p];
    if (e.roles[p] == accel::ParamRole::RngOffset) x.u += shift;
    if (e.roles[p] == accel::ParamRole::RngKey) x.u = key;
    if (e.u64[p]) x.u -= e.step[p].u;
    else x.f -= e.step[p].f;
    last.params.push_back(x);
  }
  last.kernel = e.kernel;
  last.text = e.text;
  last.fusion_kind = e.fusion_kind;
  last.provider = e.provider;
  last.roles = e.roles;
  last.u64 = e.u64;
  s.carried_from = e.carried_from;
  s.step = e.step;
  slot_out_ = e.slot_out;
  *rng_step = e.rng_step;
  return s;
}

std::optional<accel::ReplaySpec> LoopReplayer::reuse_spec(const accel::ChunkRun& a) const {
  const auto it = kept_specs().find(stmt_.id);
  if (it == kept_specs().end()) return std::nullopt;
  const KeptSpec& e = it->second;
  if (e.text != a.text || e.provider != a.provider || e.k_len != k_len_ || e.x0 != x0_ ||
      e.dx != dx_ || e.rng_step != rng_[1] - rng_[0] || e.roles != a.roles || e.u64 != a.u64 ||
      e.carried_from.size() != a.inputs.size() || e.step.size() != a.params.size() ||
      e.out_shapes.size() != a.outputs.size() || align_nodes_.size() != slot_out_.size())
    return std::nullopt;
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    // The carried variable whose chunk-start value input i is, if any.
    int var = -1;
    for (size_t v = 0; v < align_nodes_.size(); ++v)
      if (align_nodes_[v] == a.input_nodes[i]) var = static_cast<int>(v);
    const int from = e.carried_from[i];
    if (from < 0) {
      if (var >= 0) return std::nullopt;  // carried here, invariant there
      continue;
    }
    if (var < 0 || slot_out_[static_cast<size_t>(var)] != from) return std::nullopt;
    const Tensor& o = a.outputs[static_cast<size_t>(from)];
    if (o.cls() != a.inputs[i].cls() || o.dims() != a.inputs[i].dims()) return std::nullopt;
  }
  accel::ReplaySpec s;
  s.last = a;
  s.carried_from = e.carried_from;
  s.step = e.step;
  return s;
}

int64_t LoopReplayer::fast_forward(const accel::ReplaySpec& spec, int64_t k, uint64_t rng_step) {
  // At least one iteration is left to the interpreter: it assigns the variables that are not
  // carried (written before read in the body), which the chunk kernel does not output.
  const int64_t chunks = (n_ - 2 - k) / k_len_;
  std::vector<Tensor> prev = spec.last.outputs, outs;
  int64_t done = 0;
  for (int64_t j = 1; j <= chunks; ++j) {
    // Ctrl-C: the loop's variables keep their values from before the chunks replayed here.
    if (interrupt_pending()) [[unlikely]]
      check_interrupt_at(in_.cur_->file.empty() ? std::string() : in_.cur_->name, in_.cur_->line);
    if (!accel::replay_chunk(spec, j, prev, outs)) break;  // resume by interpretation
    prev.swap(outs);
    ++done;
  }
  if (done == 0) return 0;
  for (size_t i = 0; i < assigned_.size(); ++i)
    in_.set_slot(assigned_[i], Value(prev[static_cast<size_t>(slot_out_[i])]));
  in_.session_.rng.offset += static_cast<uint64_t>(done) * rng_step;
  const int64_t skipped = done * k_len_;
  in_.set_slot_scalar(var_slot_, x0_ + static_cast<double>(k + skipped) * dx_);
  return skipped;
}

}  // namespace matfuse
