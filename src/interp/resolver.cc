// Resolver: gives every identifier of a function, script or anonymous function a frame slot.
//
// Every identifier gets a slot, whether or not it is assigned: at run time an unset slot means
// "not a variable", and the name is then looked up as a function (cached per slot in the
// Layout). Variables created dynamically (eval, assignin, load) are appended to the layout by
// name, so code resolved later still finds them by slot.
//
// Anonymous functions get their own Layout: parameters first, then every other name used in
// the body (these are the captured names); capture_outer_slots maps each captured name to its
// slot in the enclosing layout, whose value is copied when the @(...) expression is evaluated.
#include "interp/interp.h"

namespace matfuse {

int Layout::get_or_add(const std::string& name) {
  auto it = index.find(name);
  if (it != index.end()) return it->second;
  int k = static_cast<int>(names.size());
  names.push_back(name);
  index.emplace(name, k);
  fn_cache.emplace_back();
  return k;
}

int Layout::find(const std::string& name) const {
  auto it = index.find(name);
  return it == index.end() ? -1 : it->second;
}

namespace {

using namespace ast;

struct Walker {
  CodeUnit& unit;
  Layout* L;

  void expr(Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case ExprKind::Number:
      case ExprKind::String:
      case ExprKind::Colon:
      case ExprKind::End:
      case ExprKind::FuncHandle:
        return;
      case ExprKind::Ident: {
        auto* id = static_cast<IdentExpr*>(e);
        id->slot = L->get_or_add(id->name);
        return;
      }
      case ExprKind::Unary:
        expr(static_cast<UnaryExpr*>(e)->operand.get());
        return;
      case ExprKind::Postfix:
        expr(static_cast<PostfixExpr*>(e)->operand.get());
        return;
      case ExprKind::Binary: {
        auto* b = static_cast<BinaryExpr*>(e);
        expr(b->lhs.get());
        expr(b->rhs.get());
        return;
      }
      case ExprKind::Range: {
        auto* r = static_cast<RangeExpr*>(e);
        expr(r->start.get());
        expr(r->step.get());
        expr(r->stop.get());
        return;
      }
      case ExprKind::Index: {
        auto* x = static_cast<IndexExpr*>(e);
        expr(x->base.get());
        for (auto& a : x->args) expr(a.get());
        return;
      }
      case ExprKind::Field: {
        auto* f = static_cast<FieldExpr*>(e);
        expr(f->base.get());
        expr(f->dynamic.get());
        return;
      }
      case ExprKind::Matrix:
      case ExprKind::CellLit: {
        auto* m = static_cast<MatrixExpr*>(e);
        for (auto& row : m->rows)
          for (auto& x : row) expr(x.get());
        return;
      }
      case ExprKind::AnonFn:
        anon(static_cast<AnonFnExpr*>(e));
        return;
    }
  }

  void anon(AnonFnExpr* a) {
    auto& slot = unit.layouts[a];
    if (!slot) {
      slot = std::make_unique<Layout>();
      int k = 0;
      for (const auto& p : a->params) {
        // "~" parameters get a placeholder name that no identifier can spell.
        slot->get_or_add(p == "~" ? "~" + std::to_string(k) : p);
        ++k;
      }
    }
    Layout* inner = slot.get();
    Walker w{unit, inner};
    w.expr(a->body.get());
    a->frame_names = inner->names;
    a->capture_outer_slots.clear();
    for (size_t i = a->params.size(); i < inner->names.size(); ++i)
      a->capture_outer_slots.push_back(L->get_or_add(inner->names[i]));
  }

  void block(Block& b) {
    for (auto& s : b) stmt(s.get());
  }

  void stmt(Stmt* s) {
    switch (s->kind) {
      case StmtKind::Expr:
        expr(static_cast<ExprStmt*>(s)->expr.get());
        return;
      case StmtKind::Assign: {
        auto* a = static_cast<AssignStmt*>(s);
        for (auto& t : a->targets) expr(t.get());
        expr(a->rhs.get());
        return;
      }
      case StmtKind::If:
        for (auto& c : static_cast<IfStmt*>(s)->clauses) {
          expr(c.cond.get());
          block(c.body);
        }
        return;
      case StmtKind::For: {
        auto* f = static_cast<ForStmt*>(s);
        expr(f->var.get());
        expr(f->range.get());
        expr(f->max_workers.get());
        block(f->body);
        return;
      }
      case StmtKind::Spmd: {
        auto* sp = static_cast<SpmdStmt*>(s);
        expr(sp->min_workers.get());
        expr(sp->max_workers.get());
        block(sp->body);
        return;
      }
      case StmtKind::While: {
        auto* w = static_cast<WhileStmt*>(s);
        expr(w->cond.get());
        block(w->body);
        return;
      }
      case StmtKind::Switch: {
        auto* sw = static_cast<SwitchStmt*>(s);
        expr(sw->subject.get());
        for (auto& c : sw->cases) {
          expr(c.value.get());
          block(c.body);
        }
        return;
      }
      case StmtKind::Try: {
        auto* t = static_cast<TryStmt*>(s);
        block(t->body);
        t->catch_slot = t->catch_var.empty() ? -1 : L->get_or_add(t->catch_var);
        block(t->handler);
        return;
      }
      case StmtKind::Global:
      case StmtKind::Persistent: {
        auto* d = static_cast<DeclStmt*>(s);
        d->slots.clear();
        for (const auto& n : d->names) d->slots.push_back(L->get_or_add(n));
        for (auto& i : d->inits) expr(i.get());
        return;
      }
      case StmtKind::Command: {
        // `clear x` and friends name variables; give them slots so lookups stay consistent.
        return;
      }
      case StmtKind::Break:
      case StmtKind::Continue:
      case StmtKind::Return:
        return;
    }
  }
};

}  // namespace

Layout* Interpreter::resolve_function_def(CodeUnit& unit, ast::FunctionDef& def) {
  auto& slot = unit.layouts[&def];
  if (slot && def.resolved) return slot.get();
  slot = std::make_unique<Layout>();
  Layout* L = slot.get();
  for (const auto& p : def.params)
    if (p != "~") L->get_or_add(p);
  for (const auto& o : def.outputs) L->get_or_add(o);
  L->ans_slot = L->get_or_add("ans");
  Walker w{unit, L};
  w.block(def.body);
  def.frame_names = L->names;
  def.resolved = true;
  return L;
}

void Interpreter::resolve_block_into(CodeUnit& unit, ast::Block& block, Layout& layout) {
  if (layout.ans_slot < 0) layout.ans_slot = layout.get_or_add("ans");
  Walker w{unit, &layout};
  w.block(block);
}

void Interpreter::resolve_script_into(CodeUnit& unit, Layout& layout) {
  resolve_block_into(unit, unit.file->script_body, layout);
  unit.file->script_frame_names = layout.names;
  unit.script_resolved_into = &layout;
}

}  // namespace matfuse
