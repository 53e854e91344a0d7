// Liveness analysis (backward dataflow over the structured AST) and the accel liveness hook.
#include "interp/liveness.h"

#include <algorithm>
#include <unordered_set>

#include "accel/capture/lazy.h"
#include "interp/interp.h"

namespace matfuse {

using namespace ast;

bool SlotSet::merge(const SlotSet& o) {
  bool grew = false;
  for (size_t i = 0; i < words.size() && i < o.words.size(); ++i) {
    const uint64_t w = words[i] | o.words[i];
    grew |= w != words[i];
    words[i] = w;
  }
  return grew;
}

bool Liveness::is_live(const Stmt* stmt, int slot) const {
  if (unknown || slot < 0 || static_cast<size_t>(slot) >= nslots) return true;
  auto it = live_in.find(stmt);
  return it == live_in.end() || it->second.test(slot);
}

namespace {

/// Names that read or write the workspace by name: a body using one is `unknown`.
bool touches_workspace(const std::string& n) {
  static const std::unordered_set<std::string> names = {
      "eval",  "evalin", "assignin", "exist",     "who",   "whos",  "save",     "load",
      "clear", "clearvars", "inputname", "evalc", "run",   "input", "keyboard", "builtin"};
  return names.count(n) != 0;
}

struct Analyzer {
  size_t n;
  const LivenessInput& in;
  Liveness& out;
  std::unordered_set<std::string> used;      ///< names read or called
  std::unordered_set<std::string> assigned;  ///< names assigned somewhere (variables)

  /// Where break, continue and return go, and what a try body may jump to from anywhere.
  struct Ctx {
    const SlotSet* brk = nullptr;
    const SlotSet* cont = nullptr;
    const SlotSet* ret = nullptr;
    const SlotSet* extra = nullptr;
  };

  SlotSet once{n}, twice{n};  ///< slots read at least once / twice by the current statement

  void add(SlotSet& r, int slot) {
    if (slot < 0 || static_cast<size_t>(slot) >= n) return;
    r.set(slot);
    if (once.test(slot)) twice.set(slot);
    once.set(slot);
  }

  /// Starts counting the reads of one simple statement.
  void begin_simple() {
    std::fill(once.words.begin(), once.words.end(), 0);
    std::fill(twice.words.begin(), twice.words.end(), 0);
  }

  /// Records a simple statement: what may be read after a force inside it is what is live
  /// after it (and not overwritten by it) plus what it reads more than once; a single read
  /// has been taken (or is taken) by the evaluation that forces. Returns its live-in.
  SlotSet record_simple(const Stmt& s, SlotSet live_in, SlotSet at_force, const Ctx& c) {
    at_force.merge(twice);
    if (c.extra) {
      at_force.merge(*c.extra);
      live_in.merge(*c.extra);
    }
    out.live_in[&s] = std::move(at_force);
    return live_in;
  }

  /// Adds every slot read by e to r (and records the names used).
  void reads(const Expr* e, SlotSet& r) {
    for_each_read(e, [&](int slot) { add(r, slot); },
                  [&](const std::string& name) { used.insert(name); });
  }

  SlotSet record(const Stmt& s, SlotSet live, const Ctx& c) {
    if (c.extra) live.merge(*c.extra);
    out.live_in[&s] = live;
    return live;
  }

  SlotSet block(const Block& b, const SlotSet& live_out, const Ctx& c) {
    SlotSet live = live_out;
    for (auto it = b.rbegin(); it != b.rend(); ++it) live = stmt(**it, live, c);
    return live;
  }

  SlotSet stmt(const Stmt& s, const SlotSet& after, const Ctx& c) {
    switch (s.kind) {
      case StmtKind::Expr: {
        begin_simple();
        SlotSet live = after;
        reads(static_cast<const ExprStmt&>(s).expr.get(), live);
        return record_simple(s, live, after, c);
      }
      case StmtKind::Assign: {
        const auto& a = static_cast<const AssignStmt&>(s);
        begin_simple();
        SlotSet live = after;
        for (const auto& t : a.targets) {
          if (!t) continue;
          if (const IdentExpr* root = assignment_root(t.get())) assigned.insert(root->name);
          if (t->kind == ExprKind::Ident) {
            const int k = static_cast<const IdentExpr&>(*t).slot;
            if (k >= 0 && static_cast<size_t>(k) < n) live.reset(k);
          }
        }
        const SlotSet at_force = live;
        for (const auto& t : a.targets)
          if (t && t->kind != ExprKind::Ident) reads(t.get(), live);
        reads(a.rhs.get(), live);
        return record_simple(s, live, at_force, c);
      }
      case StmtKind::If: {
        const auto& f = static_cast<const IfStmt&>(s);
        SlotSet live(n);
        bool has_else = false;
        for (const auto& cl : f.clauses) {
          if (!cl.cond) has_else = true;
          reads(cl.cond.get(), live);
          live.merge(block(cl.body, after, c));
        }
        if (!has_else) live.merge(after);
        return record(s, live, c);
      }
      case StmtKind::Spmd: {
        // The body runs once (on the client or on the workers, whose results come back as
        // Composites named like the body's variables).
        const auto& sp = static_cast<const SpmdStmt&>(s);
        SlotSet live = block(sp.body, after, c);
        live.merge(after);
        reads(sp.min_workers.get(), live);
        reads(sp.max_workers.get(), live);
        return record(s, live, c);
      }
      case StmtKind::Switch: {
        const auto& sw = static_cast<const SwitchStmt&>(s);
        SlotSet live(n);
        bool has_otherwise = false;
        reads(sw.subject.get(), live);
        for (const auto& cs : sw.cases) {
          if (!cs.value) has_otherwise = true;
          reads(cs.value.get(), live);
          live.merge(block(cs.body, after, c));
        }
        if (!has_otherwise) live.merge(after);
        return record(s, live, c);
      }
      case StmtKind::For: {
        const auto& f = static_cast<const ForStmt&>(s);
        const int var = f.var && f.var->kind == ExprKind::Ident
                            ? static_cast<const IdentExpr&>(*f.var).slot
                            : -1;
        if (const IdentExpr* root = assignment_root(f.var.get())) assigned.insert(root->name);
        SlotSet head = after;  // live before each iteration's test
        for (;;) {
          Ctx inner{&after, &head, c.ret, c.extra};
          SlotSet next = block(f.body, head, inner);
          if (var >= 0 && static_cast<size_t>(var) < n) next.reset(var);
          else if (var < 0) reads(f.var.get(), next);
          next.merge(after);
          if (next == head) break;
          head = std::move(next);
        }
        SlotSet live = head;
        reads(f.range.get(), live);
        reads(f.max_workers.get(), live);
        return record(s, live, c);
      }
      case StmtKind::While: {
        const auto& w = static_cast<const WhileStmt&>(s);
        SlotSet head = after;
        reads(w.cond.get(), head);
        for (;;) {
          Ctx inner{&after, &head, c.ret, c.extra};
          SlotSet next = block(w.body, head, inner);
          next.merge(after);
          reads(w.cond.get(), next);
          if (next == head) break;
          head = std::move(next);
        }
        return record(s, head, c);
      }
      case StmtKind::Try: {
        const auto& t = static_cast<const TryStmt&>(s);
        if (!t.catch_var.empty()) assigned.insert(t.catch_var);
        SlotSet handler = block(t.handler, after, c);
        if (t.catch_slot >= 0 && static_cast<size_t>(t.catch_slot) < n) handler.reset(t.catch_slot);
        SlotSet extra = handler;
        if (c.extra) extra.merge(*c.extra);
        Ctx inner{c.brk, c.cont, c.ret, &extra};
        SlotSet live = block(t.body, after, inner);
        live.merge(handler);
        return record(s, live, c);
      }
      case StmtKind::Break:
        return record(s, c.brk ? *c.brk : after, c);
      case StmtKind::Continue:
        return record(s, c.cont ? *c.cont : after, c);
      case StmtKind::Return:
        return record(s, c.ret ? *c.ret : after, c);
      case StmtKind::Global:
      case StmtKind::Persistent: {
        const auto& d = static_cast<const DeclStmt&>(s);
        SlotSet live = after;
        for (const auto& name : d.names) assigned.insert(name);
        for (int k : d.slots) add(live, k);
        for (const auto& i : d.inits) reads(i.get(), live);
        return record(s, live, c);  // nothing is forced by a declaration
      }
      case StmtKind::Command: {
        const auto& cmd = static_cast<const CommandStmt&>(s);
        SlotSet live = after;
        used.insert(cmd.name);
        if (in.layout) {
          add(live, in.layout->find(cmd.name));
          for (const auto& w : cmd.args) add(live, in.layout->find(w));
        }
        return record(s, live, c);
      }
    }
    return record(s, after, c);
  }
};

}  // namespace

std::unique_ptr<Liveness> analyze_liveness(const Block& body, const LivenessInput& in,
                                           bool has_nested_functions) {
  auto L = std::make_unique<Liveness>();
  L->layout = in.layout;
  L->nslots = in.nslots;
  Analyzer a{in.nslots, in, *L, {}, {}};
  SlotSet exit(in.nslots);
  if (in.all_live_at_exit) {
    for (size_t k = 0; k < in.nslots; ++k) exit.set(static_cast<int>(k));
  } else {
    for (int k : in.live_at_exit) a.add(exit, k);
  }
  Analyzer::Ctx top{nullptr, nullptr, &exit, nullptr};
  a.block(body, exit, top);
  bool unknown = has_nested_functions;
  for (const std::string& name : a.used) {
    if (unknown) break;
    if (touches_workspace(name)) unknown = true;
    else if (!a.assigned.count(name) && in.is_script && in.is_script(name)) unknown = true;
  }
  if (unknown) {
    L->unknown = true;
    L->live_in.clear();
  }
  return L;
}

namespace {

/// is_script callback resolving names from unit (a file that fails to parse is not a script).
std::function<bool(const std::string&)> script_lookup(Interpreter& in, CodeUnit& unit) {
  return [&in, &unit](const std::string& name) {
    try {
      return in.resolve_function(name, &unit).kind == ResolvedFn::Kind::Script;
    } catch (...) {
      return false;
    }
  };
}

const Liveness* cached(Interpreter& in, CodeUnit& unit, const void* key, const Layout& layout,
                       const std::function<std::unique_ptr<Liveness>()>& make) {
  auto& slot = unit.liveness[key];
  if (!slot || slot->layout != &layout || slot->generation != in.generation_) {
    std::unique_ptr<Liveness> L = make();
    L->generation = in.generation_;
    slot = std::move(L);
  }
  return slot.get();
}

}  // namespace

const Liveness* function_liveness(Interpreter& in, CodeUnit& unit, const FunctionDef& def,
                                  const Layout& layout) {
  return cached(in, unit, &def, layout, [&] {
    LivenessInput li;
    li.nslots = layout.names.size();
    li.layout = &layout;
    for (const auto& o : def.outputs) li.live_at_exit.push_back(layout.find(o));
    li.is_script = script_lookup(in, unit);
    return analyze_liveness(def.body, li, !def.nested.empty());
  });
}

const Liveness* program_script_liveness(Interpreter& in, CodeUnit& unit, const Layout& layout) {
  return cached(in, unit, &unit.file->script_body, layout, [&] {
    LivenessInput li;
    li.nslots = layout.names.size();
    li.layout = &layout;
    li.is_script = script_lookup(in, unit);
    return analyze_liveness(unit.file->script_body, li);
  });
}

// ---- the accel hook ---------------------------------------------------------------------------

namespace {

thread_local Interpreter* t_active = nullptr;

/// Adds the lazy nodes inside v to out; false when the walk grew too large (budget spent).
bool collect(const Value& v, std::unordered_set<const accel::Node*>& out, int64_t& budget) {
  if (--budget < 0) return false;
  switch (v.kind()) {
    case Value::Kind::Array: {
      const Tensor t = v.tensor();
      if (t.is_lazy()) out.insert(t.node().get());
      return true;
    }
    case Value::Kind::Cell: {
      const CellArray& c = v.cell();
      for (int64_t i = 0; i < c.numel(); ++i)
        if (!collect(c[i], out, budget)) return false;
      return true;
    }
    case Value::Kind::Struct: {
      const StructArray& s = v.struct_array();
      const int nf = static_cast<int>(s.fields().size());
      for (int64_t e = 0; e < s.numel(); ++e)
        for (int f = 0; f < nf; ++f)
          if (!collect(s.get(e, f), out, budget)) return false;
      return true;
    }
    case Value::Kind::Function: {
      if (auto* a = dynamic_cast<const AnonFunction*>(v.function().get()))
        for (const Slot& s : a->captured())
          if (s.set && !s.ref && !collect(s.v, out, budget)) return false;
      return true;
    }
    default:
      return true;
  }
}

bool hook(std::unordered_set<const accel::Node*>& dead) {
  return collect_dead_lazy_values(dead);
}

}  // namespace

bool collect_dead_lazy_values(std::unordered_set<const accel::Node*>& dead) {
  Interpreter* in = t_active;
  if (!in) return false;
  std::unordered_set<const accel::Node*> live, maybe_dead;
  int64_t budget = 1 << 16;
  bool saw_base = false;
  auto walk = [&](const Frame& f) {
    const SlotSet* ls = nullptr;
    if (f.liveness && !f.liveness->unknown && f.stmt) {
      auto it = f.liveness->live_in.find(f.stmt);
      if (it != f.liveness->live_in.end()) ls = &it->second;
    }
    for (size_t k = 0; k < f.slots.size(); ++k) {
      const Slot& s = f.slots[k];
      if (s.ref || !s.set) continue;
      const bool is_live = !ls || k >= f.liveness->nslots || ls->test(static_cast<int>(k));
      if (!collect(s.v, is_live ? live : maybe_dead, budget)) return false;
    }
    return true;
  };
  for (const Frame* f = in->cur_; f; f = f->caller) {
    saw_base |= f == &in->base_;
    if (!walk(*f)) return false;
  }
  if (!saw_base && !walk(in->base_)) return false;
  for (const auto& [name, v] : in->globals_)
    if (!collect(v, live, budget)) return false;
  for (const auto& [key, vars] : in->persistents_)
    for (const auto& [name, v] : vars)
      if (!collect(v, live, budget)) return false;
  for (const accel::Node* n : maybe_dead)
    if (!live.count(n)) dead.insert(n);
  return true;
}

ActiveInterpreterScope::ActiveInterpreterScope(Interpreter& in) : prev_(t_active) {
  static const bool installed = [] {
    accel::set_live_values_hook(&hook);
    return true;
  }();
  (void)installed;
  t_active = &in;
}

ActiveInterpreterScope::~ActiveInterpreterScope() { t_active = prev_; }

void for_each_read(const ast::Expr* e, const std::function<void(int)>& slot,
                   const std::function<void(const std::string&)>& name) {
  using namespace ast;
  if (!e) return;
  auto rec = [&](const Expr* x) { for_each_read(x, slot, name); };
  switch (e->kind) {
    case ExprKind::Number:
    case ExprKind::String:
    case ExprKind::Colon:
    case ExprKind::End: return;
    case ExprKind::FuncHandle:
      if (name) name(static_cast<const FuncHandleExpr*>(e)->name);
      return;
    case ExprKind::Ident: {
      auto* id = static_cast<const IdentExpr*>(e);
      if (name) name(id->name);
      slot(id->slot);
      return;
    }
    case ExprKind::Unary: rec(static_cast<const UnaryExpr*>(e)->operand.get()); return;
    case ExprKind::Postfix: rec(static_cast<const PostfixExpr*>(e)->operand.get()); return;
    case ExprKind::Binary: {
      auto* b = static_cast<const BinaryExpr*>(e);
      rec(b->lhs.get());
      rec(b->rhs.get());
      return;
    }
    case ExprKind::Range: {
      auto* g = static_cast<const RangeExpr*>(e);
      rec(g->start.get());
      rec(g->step.get());
      rec(g->stop.get());
      return;
    }
    case ExprKind::Index: {
      auto* x = static_cast<const IndexExpr*>(e);
      rec(x->base.get());
      for (const auto& a : x->args) rec(a.get());
      return;
    }
    case ExprKind::Field: {
      auto* f = static_cast<const FieldExpr*>(e);
      rec(f->base.get());
      rec(f->dynamic.get());
      return;
    }
    case ExprKind::Matrix:
    case ExprKind::CellLit:
      for (const auto& row : static_cast<const MatrixExpr*>(e)->rows)
        for (const auto& x : row) rec(x.get());
      return;
    case ExprKind::AnonFn: {
      auto* a = static_cast<const AnonFnExpr*>(e);
      for (int k : a->capture_outer_slots) slot(k);
      if (name)
        for (size_t i = a->params.size(); i < a->frame_names.size(); ++i) name(a->frame_names[i]);
      return;
    }
  }
}

const ast::IdentExpr* assignment_root(const ast::Expr* t) {
  using namespace ast;
  while (t) {
    if (t->kind == ExprKind::Ident) return static_cast<const IdentExpr*>(t);
    if (t->kind == ExprKind::Index) t = static_cast<const IndexExpr*>(t)->base.get();
    else if (t->kind == ExprKind::Field) t = static_cast<const FieldExpr*>(t)->base.get();
    else return nullptr;
  }
  return nullptr;
}

}  // namespace matfuse
