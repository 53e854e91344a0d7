// spmd blocks, Composites and the spmd communication functions (spmd.h).
#include "parallel/spmd.h"

#include <cmath>
#include <deque>
#include <set>

#include "builtins/registry.h"
#include "parallel/parfor.h"

namespace matfuse::parallel {

using namespace ast;

namespace {

thread_local SpmdChannel* t_channel = nullptr;

/// The channel of a client with no pool (or a worker outside an spmd block): one worker that
/// can send messages to itself.
class SelfChannel : public SpmdChannel {
public:
  int index() const override { return 1; }
  int size() const override { return 1; }
  void send(int dest, int tag, const std::string& bytes) override {
    (void)dest;
    queue_.push_back({tag, bytes});
  }
  std::string receive(int src, int tag, int* from, int* got_tag) override {
    (void)src;
    for (auto it = queue_.begin(); it != queue_.end(); ++it)
      if (tag < 0 || it->first == tag) {
        std::string b = std::move(it->second);
        if (from) *from = 1;
        if (got_tag) *got_tag = it->first;
        queue_.erase(it);
        return b;
      }
    throw_error("MATLAB:spmd:NoMessage",
                "spmdReceive would wait forever: no message from worker %d is pending and "
                "there are no other workers.",
                src <= 0 ? 1 : src);
  }
  bool probe(int src, int tag) override {
    (void)src;
    for (const auto& m : queue_)
      if (tag < 0 || m.first == tag) return true;
    return false;
  }
  void barrier() override {}

private:
  std::deque<std::pair<int, std::string>> queue_;
};

SelfChannel& self_channel() {
  static thread_local SelfChannel c;
  return c;
}

SpmdChannel& channel() { return t_channel ? *t_channel : self_channel(); }

/// Names a block reads and names it assigns (roots of assignment targets).
struct BlockNames {
  std::set<std::string> reads, assigns;

  void expr(const Expr* e, const std::vector<std::string>& masked) {
    if (!e) return;
    if (e->kind == ExprKind::Ident) {
      const auto& n = static_cast<const IdentExpr*>(e)->name;
      if (std::find(masked.begin(), masked.end(), n) == masked.end()) reads.insert(n);
    } else if (e->kind == ExprKind::AnonFn) {
      // The parameters are not the block's variables.
      const auto* a = static_cast<const AnonFnExpr*>(e);
      std::vector<std::string> inner = masked;
      inner.insert(inner.end(), a->params.begin(), a->params.end());
      expr(a->body.get(), inner);
    } else {
      ast::for_each_child(*e, [&](const Expr* c) { expr(c, masked); });
    }
  }

  void target(const Expr* t) {
    const Expr* cur = t;
    while (cur && (cur->kind == ExprKind::Index || cur->kind == ExprKind::Field)) {
      if (cur->kind == ExprKind::Index) {
        for (const auto& a : static_cast<const IndexExpr*>(cur)->args) expr(a.get(), {});
        cur = static_cast<const IndexExpr*>(cur)->base.get();
      } else {
        expr(static_cast<const FieldExpr*>(cur)->dynamic.get(), {});
        cur = static_cast<const FieldExpr*>(cur)->base.get();
      }
    }
    if (cur && cur->kind == ExprKind::Ident) {
      const auto& n = static_cast<const IdentExpr*>(cur)->name;
      assigns.insert(n);
      if (cur != t) reads.insert(n);  // an indexed assignment reads the old value
    }
  }

  void block(const Block& b) {
    for (const auto& s : b) stmt(*s);
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Expr: expr(static_cast<const ExprStmt&>(s).expr.get(), {}); return;
      case StmtKind::Assign: {
        const auto& a = static_cast<const AssignStmt&>(s);
        for (const auto& t : a.targets)
          if (t) target(t.get());
        expr(a.rhs.get(), {});
        return;
      }
      case StmtKind::If:
        for (const auto& c : static_cast<const IfStmt&>(s).clauses) {
          expr(c.cond.get(), {});
          block(c.body);
        }
        return;
      case StmtKind::For: {
        const auto& f = static_cast<const ForStmt&>(s);
        target(f.var.get());
        expr(f.range.get(), {});
        block(f.body);
        return;
      }
      case StmtKind::While:
        expr(static_cast<const WhileStmt&>(s).cond.get(), {});
        block(static_cast<const WhileStmt&>(s).body);
        return;
      case StmtKind::Switch: {
        const auto& sw = static_cast<const SwitchStmt&>(s);
        expr(sw.subject.get(), {});
        for (const auto& c : sw.cases) {
          expr(c.value.get(), {});
          block(c.body);
        }
        return;
      }
      case StmtKind::Try: {
        const auto& t = static_cast<const TryStmt&>(s);
        block(t.body);
        if (!t.catch_var.empty()) assigns.insert(t.catch_var);
        block(t.handler);
        return;
      }
      case StmtKind::Spmd:
        throw_error("MATLAB:spmd:NestedSPMD",
                    "SPMD blocks cannot be nested, and cannot run inside a parfor-loop or on a "
                    "worker.");
      default:
        return;
    }
  }
};

const Value* client_value(Interpreter& in, const std::string& name) {
  Frame& fr = *in.cur_;
  const int s = fr.layout->find(name);
  if (s < 0 || static_cast<size_t>(s) >= fr.slots.size()) return nullptr;
  return in.slot_value(s);
}

Composite* as_composite(const Value& v) {
  return v.is_object() ? dynamic_cast<Composite*>(v.object().get()) : nullptr;
}

std::string composite_get(const Pool& pool_c, const std::string& key, int k, Value& out,
                          bool* present) {
  auto& pool = const_cast<Pool&>(pool_c);
  ValueWriter w;
  w.u8(kGetVariable);
  w.str(key);
  std::vector<std::string> req(static_cast<size_t>(pool.size()));
  req[static_cast<size_t>(k - 1)] = w.take();
  std::vector<std::string> rep = pool.exchange(req);
  ValueReader r(rep[static_cast<size_t>(k - 1)]);
  Session dummy;
  std::ostringstream sink;
  dummy.out = &sink;
  read_reply_head(r, dummy);
  *present = r.u8() != 0;
  if (*present) out = r.value();
  return sink.str();
}

}  // namespace

SpmdChannel* current_channel() { return t_channel; }

// ---------------------------------------------------------------- client

Flow run_spmd(Interpreter& in, const SpmdStmt& s, const std::shared_ptr<Pool>& pool) {
  if (s.min_workers) (void)in.eval(*s.min_workers);
  int64_t max_workers = -1;
  if (s.max_workers) max_workers = static_cast<int64_t>(in.eval(*s.max_workers).to_double());
  if (!pool || max_workers == 0) return in.exec_block(s.body);
  if (max_workers > 0 && max_workers != pool->size())
    throw_error("MATLAB:spmd:WrongNumWorkers",
                "spmd (%lld) asks for %lld workers but the pool has %d.",
                static_cast<long long>(max_workers), static_cast<long long>(max_workers),
                pool->size());
  BlockNames names;
  names.block(s.body);
  Frame& fr = *in.cur_;
  const CodeUnit* code = fr.code ? fr.code : fr.unit;
  if (!code)
    throw_error("matfuse:parallel:noSource", "An spmd block here has no program text to send.");
  InterpFunctionCodec codec(in);
  ValueWriter w(&codec);
  w.u8(kSpmdBlock);
  w.str(code->file ? code->file->path : "");
  w.str(code->source);
  w.u32(static_cast<uint32_t>(s.loc.line));
  w.u32(static_cast<uint32_t>(s.loc.column));
  std::vector<std::pair<std::string, const Value*>> sent;
  std::vector<std::pair<std::string, std::string>> aliases;
  for (const auto& n : names.reads) {
    const Value* v = client_value(in, n);
    if (!v) continue;
    if (Composite* c = as_composite(*v); c && c->pool() == pool) {
      if (c->key() != n) aliases.emplace_back(n, c->key());
      continue;
    }
    sent.emplace_back(n, v);
  }
  w.u32(static_cast<uint32_t>(sent.size()));
  for (const auto& [n, v] : sent) {
    w.str(n);
    w.value(*v);
  }
  w.u32(static_cast<uint32_t>(aliases.size()));
  for (const auto& [n, k] : aliases) {
    w.str(n);
    w.str(k);
  }
  w.u32(static_cast<uint32_t>(names.assigns.size()));
  for (const auto& n : names.assigns) w.str(n);
  const std::string req = w.take();
  std::vector<std::string> replies =
      pool->exchange(std::vector<std::string>(static_cast<size_t>(pool->size()), req));
  std::vector<std::vector<bool>> defined(names.assigns.size());
  for (int k = 0; k < pool->size(); ++k) {
    ValueReader r(replies[static_cast<size_t>(k)], &codec);
    read_reply_head(r, in.session());
    const uint32_t n = r.u32();
    if (n != names.assigns.size())
      throw_corrupt("spmd reply");
    for (uint32_t j = 0; j < n; ++j) defined[j].push_back(r.u8() != 0);
  }
  size_t j = 0;
  for (const auto& n : names.assigns) {
    auto c = std::make_shared<Composite>(pool, n, defined[j++]);
    int slot = fr.layout->get_or_add(n);
    if (in.cur_->slots.size() < fr.layout->names.size())
      in.cur_->slots.resize(fr.layout->names.size());
    in.set_slot(slot, Value(std::shared_ptr<Object>(std::move(c))));
  }
  return Flow::Normal;
}

// ---------------------------------------------------------------- worker

void run_spmd_block(WorkerState& w, ValueReader& req, ValueWriter& out) {
  Interpreter& in = w.in;
  const std::string path = req.str();
  const std::string source = req.str();
  const int line = static_cast<int>(req.u32());
  const int column = static_cast<int>(req.u32());
  // A separate parse of the unit: spmd bodies resolve into the worker's base workspace, where
  // their variables persist between blocks (the parfor copy resolves into its own frames).
  const std::string key = "spmd" + std::string(1, '\0') + path + std::string(1, '\0') + source;
  auto it = w.units.find(key);
  if (it == w.units.end()) it = w.units.emplace(key, in.unit_from_text(source, path)).first;
  CodeUnit& unit = *it->second;
  const SpmdStmt* found = nullptr;
  std::function<void(Block&)> search = [&](Block& b) {
    for (auto& st : b) {
      if (found) return;
      if (st->kind == StmtKind::Spmd && st->loc.line == line && st->loc.column == column) {
        found = static_cast<const SpmdStmt*>(st.get());
        return;
      }
      switch (st->kind) {
        case StmtKind::If:
          for (auto& c : static_cast<IfStmt&>(*st).clauses) search(c.body);
          break;
        case StmtKind::For: search(static_cast<ForStmt&>(*st).body); break;
        case StmtKind::While: search(static_cast<WhileStmt&>(*st).body); break;
        case StmtKind::Switch:
          for (auto& c : static_cast<SwitchStmt&>(*st).cases) search(c.body);
          break;
        case StmtKind::Try:
          search(static_cast<TryStmt&>(*st).body);
          search(static_cast<TryStmt&>(*st).handler);
          break;
        default: break;
      }
    }
  };
  search(unit.file->script_body);
  std::function<void(std::vector<std::unique_ptr<FunctionDef>>&)> defs =
      [&](std::vector<std::unique_ptr<FunctionDef>>& ds) {
        for (auto& d : ds) {
          search(d->body);
          defs(d->nested);
        }
      };
  if (!found) defs(unit.file->functions);
  if (!found)
    throw_error("matfuse:parallel:noSource",
                "The worker could not find the spmd block at line %d of the program text.", line);
  auto& body = const_cast<Block&>(found->body);
  Frame& base = *in.base_frame();
  in.resolve_block_into(unit, body, *base.layout);
  if (base.slots.size() < base.layout->names.size()) base.slots.resize(base.layout->names.size());
  Frame* saved = in.cur_;
  in.cur_ = &base;
  base.unit = &unit;
  base.code = &unit;
  base.file = path;
  base.name = unit.file->name;
  auto set_var = [&](const std::string& n, Value v) {
    const int s = base.layout->get_or_add(n);
    if (base.slots.size() < base.layout->names.size()) base.slots.resize(base.layout->names.size());
    in.set_slot(s, std::move(v));
  };
  const uint32_t nb = req.u32();
  for (uint32_t k = 0; k < nb; ++k) {
    std::string n = req.str();
    set_var(n, req.value());
  }
  const uint32_t na = req.u32();
  for (uint32_t k = 0; k < na; ++k) {
    std::string n = req.str();
    std::string from = req.str();
    const int s = base.layout->find(from);
    const Value* v = s >= 0 && static_cast<size_t>(s) < base.slots.size() ? in.slot_value(s) : nullptr;
    if (v) set_var(n, *v);
  }
  std::vector<std::string> assigned;
  const uint32_t nas = req.u32();
  for (uint32_t k = 0; k < nas; ++k) assigned.push_back(req.str());
  req.expect_end();
  struct Restore {
    Interpreter& in;
    Frame* saved;
    SpmdChannel* ch;
    ~Restore() {
      in.cur_ = saved;
      t_channel = ch;
    }
  } restore{in, saved, t_channel};
  t_channel = w.channel;
  in.exec_block(body);
  out.u8(0);
  out.str(w.out.str());
  out.u32(static_cast<uint32_t>(assigned.size()));
  for (const auto& n : assigned) {
    const int s = base.layout->find(n);
    out.u8(s >= 0 && static_cast<size_t>(s) < base.slots.size() && in.slot_value(s) ? 1 : 0);
  }
}

void composite_request(WorkerState& w, uint8_t kind, ValueReader& req, ValueWriter& out) {
  Interpreter& in = w.in;
  const std::string key = req.str();
  Frame& base = *in.base_frame();
  if (kind == kGetVariable) {
    req.expect_end();
    const int s = base.layout->find(key);
    const Value* v = s >= 0 && static_cast<size_t>(s) < base.slots.size() ? in.slot_value(s) : nullptr;
    out.u8(0);
    out.str("");
    out.u8(v ? 1 : 0);
    if (v) out.value(*v);
    return;
  }
  if (kind == kSetVariable) {
    Value v = req.value();
    req.expect_end();
    in.set_base_var(key, std::move(v));
  } else {
    req.expect_end();
    const int s = base.layout->find(key);
    if (s >= 0 && static_cast<size_t>(s) < base.slots.size() && !base.slots[static_cast<size_t>(s)].ref)
      base.slots[static_cast<size_t>(s)].set = false;
  }
  out.u8(0);
  out.str("");
}

// ---------------------------------------------------------------- Composite

int Composite::worker_index(std::span<const Value> idx) const {
  if (idx.size() != 1 || !idx[0].is_tensor() || idx[0].numel() != 1)
    throw_error("MATLAB:Composite:InvalidIndex",
                "A Composite is indexed with one worker index: c{k}.");
  const double k = idx[0].to_double();
  if (k != std::floor(k) || k < 1 || k > static_cast<double>(defined_.size()))
    throw_error("MATLAB:Composite:InvalidIndex",
                "Index exceeds the number of workers of the Composite (%zu).", defined_.size());
  return static_cast<int>(k);
}

bool Composite::paren_read(std::span<const Value> idx, Value& out) const {
  (void)idx, (void)out;
  return false;
}

bool Composite::paren_assign(std::span<const Value> idx, const Value& rhs, Value& self) {
  (void)idx, (void)rhs, (void)self;
  return false;
}

bool Composite::brace_read(std::span<const Value> idx, std::vector<Value>& out) const {
  const int k = worker_index(idx);
  Value v;
  bool present = false;
  composite_get(*pool_, key_, k, v, &present);
  if (!present)
    throw_error("MATLAB:Composite:NoValue",
                "The Composite has no value on worker %d.", k);
  out.push_back(std::move(v));
  return true;
}

bool Composite::brace_assign(std::span<const Value> idx, const Value& rhs, Value& self) {
  (void)self;
  const int k = worker_index(idx);
  ValueWriter w;
  w.u8(kSetVariable);
  w.str(key_);
  w.value(rhs);
  std::vector<std::string> req(static_cast<size_t>(pool_->size()));
  req[static_cast<size_t>(k - 1)] = w.take();
  std::vector<std::string> rep = pool_->exchange(req);
  ValueReader r(rep[static_cast<size_t>(k - 1)]);
  Session dummy;
  std::ostringstream sink;
  dummy.out = &sink;
  read_reply_head(r, dummy);
  defined_[static_cast<size_t>(k - 1)] = true;
  return true;
}

bool Composite::display_lines(std::vector<std::string>& lines) const {
  for (size_t k = 1; k <= defined_.size(); ++k) {
    std::string line = "   Worker " + std::to_string(k) + ": ";
    if (!defined_[k - 1]) {
      lines.push_back(line + "No value");
      continue;
    }
    Value v;
    bool present = false;
    composite_get(*pool_, key_, static_cast<int>(k), v, &present);
    if (!present) {
      lines.push_back(line + "No value");
      continue;
    }
    std::string size;
    const Dims d = v.dims();
    for (int i = 0; i < d.ndims(); ++i) size += (i ? "x" : "") + std::to_string(d[i]);
    lines.push_back(line + "class = " + v.class_name() + ", size = [" + size + "]");
  }
  lines.push_back("");
  return true;
}

// ---------------------------------------------------------------- builtins

namespace {

Interpreter& interp_of(CallContext& ctx) {
  auto* in = dynamic_cast<Interpreter*>(&ctx);
  if (!in) throw_error("matfuse:notAvailable", "spmd functions need the interpreter.");
  return *in;
}

int worker_arg(const Value& v, const char* what) {
  const double d = v.to_double(what);
  const int n = channel().size();
  if (d != std::floor(d) || d < 1 || d > n)
    throw_error("MATLAB:spmd:InvalidWorker",
                "The %s must be a worker index between 1 and spmdSize (%d).", what, n);
  return static_cast<int>(d);
}

int tag_arg(const Value& v) {
  const double d = v.to_double("tag");
  if (d != std::floor(d) || d < 0 || d >= 32000)
    throw_error("MATLAB:spmd:InvalidTag",
                "The tag must be an integer from 0 to 31999.");
  return static_cast<int>(d);
}

constexpr int kTagBroadcast = 32001, kTagReduce = 32002, kTagCat = 32003;

std::string pack(CallContext& ctx, const Value& v) {
  InterpFunctionCodec codec(interp_of(ctx));
  return serialize_value(v, &codec);
}

Value unpack(CallContext& ctx, const std::string& b) {
  InterpFunctionCodec codec(interp_of(ctx));
  return deserialize_value(b, &codec);
}

Outputs bi_spmd_index(CallContext&, Args args, int) {
  check_nargin(args, 0, 0);
  return {Value(static_cast<double>(channel().index()))};
}

Outputs bi_spmd_size(CallContext&, Args args, int) {
  check_nargin(args, 0, 0);
  return {Value(static_cast<double>(channel().size()))};
}

Outputs bi_spmd_send(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 0);
  const int tag = args.size() > 2 ? tag_arg(args[2]) : 0;
  const std::string bytes = pack(ctx, args[0]);
  const Tensor dests = args[1].tensor();
  for (int64_t k = 0; k < dests.numel(); ++k)
    channel().send(worker_arg(Value(dests.get_double(k)), "destination"), tag, bytes);
  return {};
}

Outputs bi_spmd_receive(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 2);
  check_nargout(nargout, 3);
  int src = 0, tag = -1;
  if (!args.empty() && !args[0].is_empty() && !(args[0].is_text() && args[0].to_text() == "any"))
    src = worker_arg(args[0], "source");
  if (args.size() > 1) tag = tag_arg(args[1]);
  int from = 0, got = 0;
  std::string b = channel().receive(src, tag, &from, &got);
  return {unpack(ctx, b), Value(static_cast<double>(from)), Value(static_cast<double>(got))};
}

Outputs bi_spmd_probe(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 2);
  check_nargout(nargout, 1);
  int src = 0, tag = -1;
  if (!args.empty() && !args[0].is_empty() && !(args[0].is_text() && args[0].to_text() == "any"))
    src = worker_arg(args[0], "source");
  if (args.size() > 1) tag = tag_arg(args[1]);
  return {Value::logical(channel().probe(src, tag))};
}

Outputs bi_spmd_barrier(CallContext&, Args args, int nargout) {
  check_nargin(args, 0, 0);
  check_nargout(nargout, 0);
  channel().barrier();
  return {};
}

Outputs bi_spmd_broadcast(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  SpmdChannel& ch = channel();
  const int src = worker_arg(args[0], "source");
  if (ch.index() == src) {
    if (args.size() < 2)
      throw_error("MATLAB:minrhs", "Not enough input arguments.");
    const std::string b = pack(ctx, args[1]);
    for (int k = 1; k <= ch.size(); ++k)
      if (k != src) ch.send(k, kTagBroadcast, b);
    return {args[1]};
  }
  return {unpack(ctx, ch.receive(src, kTagBroadcast, nullptr, nullptr))};
}

/// Gathers every worker's value on worker 1 (in spmdIndex order), lets `combine` make the
/// result there, and sends it to `dest` (0: every worker; others get []).
Value gather_combine(CallContext& ctx, const Value& mine, int tag, int dest,
                     const std::function<Value(std::vector<Value>&)>& combine) {
  SpmdChannel& ch = channel();
  Value result;
  if (ch.index() == 1) {
    std::vector<Value> all{mine};
    for (int k = 2; k <= ch.size(); ++k) all.push_back(unpack(ctx, ch.receive(k, tag, nullptr, nullptr)));
    result = combine(all);
    const std::string b = pack(ctx, result);
    for (int k = 2; k <= ch.size(); ++k)
      if (dest == 0 || dest == k) ch.send(k, tag, b);
    if (dest != 0 && dest != 1) return Value();
    return result;
  }
  ch.send(1, tag, pack(ctx, mine));
  if (dest == 0 || dest == ch.index()) return unpack(ctx, ch.receive(1, tag, nullptr, nullptr));
  return Value();
}

Outputs bi_spmd_reduce(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 1);
  const int dest = args.size() > 2 ? worker_arg(args[2], "destination") : 0;
  const Value fn = args[0];
  Value r = gather_combine(ctx, args[1], kTagReduce, dest, [&](std::vector<Value>& all) {
    Value acc = all[0];
    for (size_t k = 1; k < all.size(); ++k) {
      Value two[2] = {acc, all[k]};
      Outputs o = fn.is_text() ? ctx.call_named(fn.to_text(), Args(two, 2), 1)
                               : ctx.call(fn, Args(two, 2), 1);
      acc = o.empty() ? Value() : o[0];
    }
    return acc;
  });
  return {r};
}

Outputs bi_spmd_cat(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 3);
  check_nargout(nargout, 1);
  const Value dim = args.size() > 1 ? args[1] : Value(2.0);
  const int dest = args.size() > 2 ? worker_arg(args[2], "destination") : 0;
  Value r = gather_combine(ctx, args[0], kTagCat, dest, [&](std::vector<Value>& all) {
    std::vector<Value> cat_args{dim};
    cat_args.insert(cat_args.end(), all.begin(), all.end());
    Outputs o = ctx.call_named("cat", Args(cat_args.data(), cat_args.size()), 1);
    return o.empty() ? Value() : o[0];
  });
  return {r};
}

}  // namespace

void register_spmd_builtins(Registry& r) {
  r.add("spmdIndex", bi_spmd_index);
  r.add("spmdSize", bi_spmd_size);
  r.add("labindex", bi_spmd_index);
  r.add("numlabs", bi_spmd_size);
  r.add("spmdSend", bi_spmd_send);
  r.add("spmdReceive", bi_spmd_receive);
  r.add("spmdProbe", bi_spmd_probe);
  r.add("spmdBarrier", bi_spmd_barrier);
  r.add("spmdBroadcast", bi_spmd_broadcast);
  r.add("spmdReduce", bi_spmd_reduce);
  r.add("spmdCat", bi_spmd_cat);
}

}  // namespace matfuse::parallel
