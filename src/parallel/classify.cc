// parfor variable classification (rules in classify.h).
#include "parallel/classify.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "runtime/error.h"

namespace matfuse::parallel {

using namespace ast;

namespace {

[[noreturn]] void unclassified(const std::string& name, const std::string& why) {
  throw_error("MATLAB:parfor:UnclassifiedVariable",
              "The variable %s in a parfor cannot be classified.\n%s", name.c_str(), why.c_str());
}

/// One subscript list of an indexed use, as far as slicing is concerned.
struct IndexUse {
  bool uses_loop = false;  ///< the loop index appears in a subscript
  bool valid = false;      ///< a sliced form (one loop subscript, others allowed)
  std::string signature;   ///< canonical text of the subscript list, with the bracket
  SliceInfo slice;
  std::vector<std::string> names;  ///< broadcast names the subscripts use (offsets, others)
};

struct ReductionUse {
  ReductionKind kind;
  std::string function;
  ReductionSite site;
};

struct NameUses {
  bool whole_read = false;
  bool whole_assign = false;
  bool field_assign = false;
  std::vector<IndexUse> index_reads, index_assigns;
  std::vector<ReductionUse> reductions;
};

const IdentExpr* as_ident(const Expr* e) {
  return e && e->kind == ExprKind::Ident ? static_cast<const IdentExpr*>(e) : nullptr;
}

bool expr_uses(const Expr* e, const std::string& name);

bool block_uses_rows(const std::vector<std::vector<ExprPtr>>& rows, const std::string& name) {
  for (const auto& r : rows)
    for (const auto& x : r)
      if (expr_uses(x.get(), name)) return true;
  return false;
}

/// Whether expression e mentions identifier `name` (anywhere, anonymous bodies included).
bool expr_uses(const Expr* e, const std::string& name) {
  if (!e) return false;
  switch (e->kind) {
    case ExprKind::Ident:
      return static_cast<const IdentExpr*>(e)->name == name;
    case ExprKind::Unary:
      return expr_uses(static_cast<const UnaryExpr*>(e)->operand.get(), name);
    case ExprKind::Postfix:
      return expr_uses(static_cast<const PostfixExpr*>(e)->operand.get(), name);
    case ExprKind::Binary: {
      const auto* b = static_cast<const BinaryExpr*>(e);
      return expr_uses(b->lhs.get(), name) || expr_uses(b->rhs.get(), name);
    }
    case ExprKind::Range: {
      const auto* r = static_cast<const RangeExpr*>(e);
      return expr_uses(r->start.get(), name) || expr_uses(r->step.get(), name) ||
             expr_uses(r->stop.get(), name);
    }
    case ExprKind::Index: {
      const auto* x = static_cast<const IndexExpr*>(e);
      if (expr_uses(x->base.get(), name)) return true;
      for (const auto& a : x->args)
        if (expr_uses(a.get(), name)) return true;
      return false;
    }
    case ExprKind::Field: {
      const auto* f = static_cast<const FieldExpr*>(e);
      return expr_uses(f->base.get(), name) || expr_uses(f->dynamic.get(), name);
    }
    case ExprKind::Matrix:
    case ExprKind::CellLit:
      return block_uses_rows(static_cast<const MatrixExpr*>(e)->rows, name);
    case ExprKind::AnonFn: {
      const auto* a = static_cast<const AnonFnExpr*>(e);
      if (std::find(a->params.begin(), a->params.end(), name) != a->params.end()) return false;
      return expr_uses(a->body.get(), name);
    }
    default:
      return false;
  }
}

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

class Classifier {
public:
  Classifier(const ForStmt& loop, const std::function<bool(const std::string&)>& is_variable)
      : loop_(loop), is_variable_(is_variable) {
    const IdentExpr* v = as_ident(loop.var.get());
    if (!v)
      throw_error("MATLAB:parfor:InvalidLoopVariable",
                  "The loop variable of a parfor-loop must be a simple variable name.");
    loop_var_ = v->name;
  }

  ParforPlan run() {
    block(loop_.body, 0);
    return decide();
  }

private:
  // ------------------------------------------------------------ the walk

  void block(const Block& b, int loop_depth) {
    for (const auto& s : b) stmt(*s, loop_depth);
  }

  void stmt(const Stmt& s, int loop_depth) {
    switch (s.kind) {
      case StmtKind::Expr:
        expr(static_cast<const ExprStmt&>(s).expr.get(), {});
        return;
      case StmtKind::Assign: {
        const auto& a = static_cast<const AssignStmt&>(s);
        if (reduction_stmt(a)) return;
        for (const auto& t : a.targets)
          if (t) target(t.get());
        expr(a.rhs.get(), {});
        return;
      }
      case StmtKind::If:
        for (const auto& c : static_cast<const IfStmt&>(s).clauses) {
          expr(c.cond.get(), {});
          block(c.body, loop_depth);
        }
        return;
      case StmtKind::For: {
        const auto& f = static_cast<const ForStmt&>(s);
        if (const IdentExpr* v = as_ident(f.var.get())) {
          uses_[v->name].whole_assign = true;
          nested_loop_vars_.insert(v->name);
        } else {
          target(f.var.get());
        }
        expr(f.range.get(), {});
        block(f.body, loop_depth + 1);
        return;
      }
      case StmtKind::While: {
        const auto& w = static_cast<const WhileStmt&>(s);
        expr(w.cond.get(), {});
        block(w.body, loop_depth + 1);
        return;
      }
      case StmtKind::Switch: {
        const auto& sw = static_cast<const SwitchStmt&>(s);
        expr(sw.subject.get(), {});
        for (const auto& c : sw.cases) {
          expr(c.value.get(), {});
          block(c.body, loop_depth);
        }
        return;
      }
      case StmtKind::Try: {
        const auto& t = static_cast<const TryStmt&>(s);
        block(t.body, loop_depth);
        if (!t.catch_var.empty()) uses_[t.catch_var].whole_assign = true;
        block(t.handler, loop_depth);
        return;
      }
      case StmtKind::Break:
        if (loop_depth == 0)
          throw_error("MATLAB:parfor:IllegalStatement",
                      "A BREAK statement cannot be used in the body of a parfor-loop.");
        return;
      case StmtKind::Continue:
        return;
      case StmtKind::Return:
        throw_error("MATLAB:parfor:IllegalStatement",
                    "A RETURN statement cannot be used in the body of a parfor-loop.");
      case StmtKind::Global:
      case StmtKind::Persistent:
        throw_error("MATLAB:parfor:IllegalStatement",
                    "GLOBAL and PERSISTENT declarations cannot be used in the body of a "
                    "parfor-loop.");
      case StmtKind::Command: {
        const auto& c = static_cast<const CommandStmt&>(s);
        transparency(c.name);
        return;
      }
    }
  }

  void transparency(const std::string& fn) {
    static const std::set<std::string> kByName = {"eval",  "evalin", "evalc", "assignin",
                                                  "clear", "save",   "load",  "who",
                                                  "whos",  "clearvars"};
    if (kByName.count(fn) && !is_variable_(fn) && !assigned_anywhere(fn))
      throw_error("MATLAB:parfor:TransparencyViolation",
                  "Transparency violation error: %s cannot be used in the body of a "
                  "parfor-loop.",
                  fn.c_str());
  }

  bool assigned_anywhere(const std::string& name) {
    auto it = uses_.find(name);
    return it != uses_.end() && (it->second.whole_assign || !it->second.index_assigns.empty());
  }

  /// Reads in expression e; `masked` are anonymous-function parameters (not variables).
  void expr(const Expr* e, const std::vector<std::string>& masked) {
    if (!e) return;
    switch (e->kind) {
      case ExprKind::Ident: {
        const auto& id = static_cast<const IdentExpr&>(*e);
        if (std::find(masked.begin(), masked.end(), id.name) == masked.end())
          uses_[id.name].whole_read = true;
        return;
      }
      case ExprKind::Index:
      case ExprKind::Field:
        chain(e, false, masked);
        return;
      case ExprKind::AnonFn: {
        const auto* a = static_cast<const AnonFnExpr*>(e);
        std::vector<std::string> inner = masked;
        inner.insert(inner.end(), a->params.begin(), a->params.end());
        expr(a->body.get(), inner);
        return;
      }
      default:
        ast::for_each_child(*e, [&](const Expr* c) { expr(c, masked); });
        return;
    }
  }

  /// An Index/Field chain read (assign false) or assigned (assign true).
  void chain(const Expr* e, bool assign, const std::vector<std::string>& masked) {
    std::vector<const Expr*> nodes;
    const Expr* cur = e;
    while (cur->kind == ExprKind::Index || cur->kind == ExprKind::Field) {
      nodes.push_back(cur);
      cur = cur->kind == ExprKind::Index ? static_cast<const IndexExpr*>(cur)->base.get()
                                         : static_cast<const FieldExpr*>(cur)->base.get();
    }
    for (const Expr* n : nodes) {
      if (n->kind == ExprKind::Index) {
        for (const auto& a : static_cast<const IndexExpr*>(n)->args) expr(a.get(), masked);
      } else {
        expr(static_cast<const FieldExpr*>(n)->dynamic.get(), masked);
      }
    }
    const IdentExpr* root = as_ident(cur);
    if (!root) {
      expr(cur, masked);
      return;
    }
    if (std::find(masked.begin(), masked.end(), root->name) != masked.end()) return;
    if (!assign) {
      static const std::set<std::string> kTransparency = {"eval", "evalin", "evalc",
                                                          "assignin"};
      if (kTransparency.count(root->name)) transparency(root->name);
    }
    NameUses& u = uses_[root->name];
    const Expr* first = nodes.back();
    if (first->kind == ExprKind::Field) {
      if (assign) u.field_assign = true;
      else u.whole_read = true;
      return;
    }
    IndexUse iu = index_use(static_cast<const IndexExpr&>(*first));
    (assign ? u.index_assigns : u.index_reads).push_back(std::move(iu));
  }

  void target(const Expr* t) {
    if (const IdentExpr* id = as_ident(t)) {
      uses_[id->name].whole_assign = true;
      return;
    }
    if (t->kind == ExprKind::Index || t->kind == ExprKind::Field) chain(t, true, {});
  }

  /// The loop-index part of subscript a: offset when a is i, i+c, c+i, i-c, i+k, k+i, i-k.
  bool loop_subscript(const Expr* a, SliceInfo& s, std::vector<std::string>& names) {
    if (const IdentExpr* id = as_ident(a)) return id->name == loop_var_;
    if (a->kind != ExprKind::Binary) return false;
    const auto* b = static_cast<const BinaryExpr*>(a);
    if (b->op != BinOp::Add && b->op != BinOp::Sub) return false;
    const Expr* l = b->lhs.get();
    const Expr* r = b->rhs.get();
    const IdentExpr* li = as_ident(l);
    const IdentExpr* ri = as_ident(r);
    const bool l_loop = li && li->name == loop_var_;
    const bool r_loop = ri && ri->name == loop_var_;
    const Expr* other = nullptr;
    if (l_loop) other = r;
    else if (r_loop && b->op == BinOp::Add) other = l;
    else return false;
    const double sign = b->op == BinOp::Sub ? -1 : 1;
    if (other->kind == ExprKind::Number && !static_cast<const NumberExpr*>(other)->imaginary) {
      s.offset = sign * static_cast<const NumberExpr*>(other)->value;
      return true;
    }
    if (const IdentExpr* k = as_ident(other)) {
      if (k->name == loop_var_ || sign < 0) return false;
      s.offset_var = k->name;
      names.push_back(k->name);
      return true;
    }
    return false;
  }

  IndexUse index_use(const IndexExpr& x) {
    IndexUse u;
    u.slice.brace = x.is_brace;
    u.slice.nsubs = static_cast<int>(x.args.size());
    int loop_subs = 0;
    bool others_ok = true;
    std::string sig = x.is_brace ? "{" : "(";
    for (size_t k = 0; k < x.args.size(); ++k) {
      const Expr* a = x.args[k].get();
      if (expr_uses(a, loop_var_)) u.uses_loop = true;
      SliceInfo s;
      std::vector<std::string> names;
      if (expr_uses(a, loop_var_)) {
        if (loop_subscript(a, s, names)) {
          ++loop_subs;
          u.slice.position = static_cast<int>(k);
          u.slice.offset = s.offset;
          u.slice.offset_var = s.offset_var;
          u.names.insert(u.names.end(), names.begin(), names.end());
          sig += "I+" + (s.offset_var.empty() ? number_text(s.offset) : "$" + s.offset_var);
        } else {
          others_ok = false;
        }
      } else if (a->kind == ExprKind::Colon) {
        sig += ":";
      } else if (a->kind == ExprKind::End) {
        sig += "end";
      } else if (a->kind == ExprKind::Number) {
        sig += number_text(static_cast<const NumberExpr*>(a)->value);
      } else if (const IdentExpr* id = as_ident(a)) {
        sig += "$" + id->name;
        u.names.push_back(id->name);
      } else {
        others_ok = false;
      }
      sig += ",";
    }
    u.valid = loop_subs == 1 && others_ok;
    u.signature = sig;
    return u;
  }

  /// X = X op e ... forms; records them and the reads of e; false when s is no such form.
  bool reduction_stmt(const AssignStmt& a) {
    if (a.targets.size() != 1 || a.multi) return false;
    const IdentExpr* x = as_ident(a.targets[0].get());
    if (!x || x->name == loop_var_) return false;
    const std::string& X = x->name;
    const Expr* r = a.rhs.get();
    ReductionUse use{ReductionKind::Plus, "", {&a, nullptr}};
    std::vector<const Expr*> others;
    auto is_x = [&](const Expr* e) {
      const IdentExpr* i = as_ident(e);
      return i && i->name == X;
    };
    bool matched = false;
    if (r->kind == ExprKind::Binary) {
      const auto* b = static_cast<const BinaryExpr*>(r);
      if (b->op == BinOp::Add || b->op == BinOp::Sub) {
        // The left spine of a + / - chain starting at X: X + a - b + c.
        std::vector<const Expr*> rest;
        const Expr* cur = r;
        while (cur->kind == ExprKind::Binary) {
          const auto* cb = static_cast<const BinaryExpr*>(cur);
          if (cb->op != BinOp::Add && cb->op != BinOp::Sub) break;
          rest.push_back(cb->rhs.get());
          cur = cb->lhs.get();
        }
        if (is_x(cur)) {
          matched = true;
          others = rest;
          use.kind = ReductionKind::Plus;
        } else if (b->op == BinOp::Add && is_x(b->rhs.get())) {
          matched = true;
          others = {b->lhs.get()};
          use.kind = ReductionKind::Plus;
        }
      } else if (b->op == BinOp::Mul || b->op == BinOp::EMul || b->op == BinOp::And ||
                 b->op == BinOp::Or) {
        const bool left = is_x(b->lhs.get()), right = is_x(b->rhs.get());
        if (left != right) {
          matched = true;
          others = {left ? b->rhs.get() : b->lhs.get()};
          use.kind = b->op == BinOp::Mul    ? (left ? ReductionKind::Times : ReductionKind::TimesLeft)
                     : b->op == BinOp::EMul ? ReductionKind::ElemTimes
                     : b->op == BinOp::And  ? ReductionKind::And
                                            : ReductionKind::Or;
        }
      }
    } else if (r->kind == ExprKind::Matrix) {
      const auto& rows = static_cast<const MatrixExpr*>(r)->rows;
      if (rows.size() == 1 && rows[0].size() >= 2) {
        const auto& row = rows[0];
        if (is_x(row.front().get()) || is_x(row.back().get())) {
          matched = true;
          const bool right = is_x(row.front().get());
          use.kind = right ? ReductionKind::HorzRight : ReductionKind::HorzLeft;
          for (size_t i = right ? 1 : 0; i < (right ? row.size() : row.size() - 1); ++i)
            others.push_back(row[i].get());
        }
      } else if (rows.size() >= 2 &&
                 std::all_of(rows.begin(), rows.end(), [](const auto& rw) { return rw.size() == 1; })) {
        if (is_x(rows.front()[0].get()) || is_x(rows.back()[0].get())) {
          matched = true;
          const bool right = is_x(rows.front()[0].get());
          use.kind = right ? ReductionKind::VertRight : ReductionKind::VertLeft;
          for (size_t i = right ? 1 : 0; i < (right ? rows.size() : rows.size() - 1); ++i)
            others.push_back(rows[i][0].get());
        }
      }
    } else if (r->kind == ExprKind::Index) {
      const auto* call = static_cast<const IndexExpr*>(r);
      const IdentExpr* f = as_ident(call->base.get());
      if (f && !call->is_brace && call->args.size() == 2 && f->name != X &&
          !is_variable_(f->name)) {
        const bool left = is_x(call->args[0].get()), right = is_x(call->args[1].get());
        if (left != right) {
          matched = true;
          use.kind = left ? ReductionKind::FnRight : ReductionKind::FnLeft;
          use.function = f->name;
          use.site.other = left ? call->args[1].get() : call->args[0].get();
          others = {use.site.other};
          uses_[f->name].whole_read = true;  // a function name: dropped in decide()
        }
      }
    }
    if (!matched) return false;
    for (const Expr* o : others)
      if (expr_uses(o, X)) return false;  // X = X + X: not a reduction
    for (const Expr* o : others) expr(o, {});
    uses_[X].reductions.push_back(use);
    return true;
  }

  // ------------------------------------------------------------ the decision

  ParforPlan decide() {
    ParforPlan plan;
    plan.loop_var = loop_var_;
    plan.vars[loop_var_] = VarClass::Loop;
    auto assigned = [&](const std::string& n) {
      auto it = uses_.find(n);
      if (it == uses_.end()) return false;
      const NameUses& u = it->second;
      return u.whole_assign || u.field_assign || !u.index_assigns.empty() ||
             !u.reductions.empty();
    };
    for (auto& [name, u] : uses_) {
      if (name == loop_var_) {
        if (u.whole_assign || u.field_assign || !u.index_assigns.empty() || !u.reductions.empty())
          throw_error("MATLAB:parfor:LoopVariableAssigned",
                      "The loop variable '%s' cannot be assigned in the body of a parfor-loop.",
                      name.c_str());
        continue;
      }
      const bool any_assign = u.whole_assign || u.field_assign || !u.index_assigns.empty();
      if (!any_assign && u.reductions.empty() && !is_variable_(name)) continue;  // a function
      if (u.whole_assign) {
        plan.vars[name] = VarClass::Temporary;
        plan.temporaries.push_back(name);
        continue;
      }
      if (!u.reductions.empty()) {
        if (any_assign || u.whole_read || !u.index_reads.empty())
          unclassified(name, "A reduction variable is used outside its reduction statements.");
        const ReductionUse& r0 = u.reductions.front();
        ReductionInfo info{r0.kind, r0.function, {}};
        for (const ReductionUse& r : u.reductions) {
          if (r.kind != r0.kind || r.function != r0.function)
            unclassified(name, "Its reduction statements do not all use the same operation.");
          if (r.kind == ReductionKind::FnRight || r.kind == ReductionKind::FnLeft)
            info.sites.push_back(r.site);
        }
        plan.vars[name] = VarClass::Reduction;
        plan.reductions[name] = std::move(info);
        continue;
      }
      // Indexed uses: sliced when every one is the same sliced form.
      std::vector<const IndexUse*> all;
      for (const auto& x : u.index_reads) all.push_back(&x);
      for (const auto& x : u.index_assigns) all.push_back(&x);
      bool uniform = !all.empty() && !u.whole_read && !u.field_assign;
      for (const IndexUse* x : all)
        if (!x->valid || x->signature != all.front()->signature) uniform = false;
      if (uniform) {
        for (const std::string& n : all.front()->names)
          if (assigned(n) && !nested_loop_vars_.count(n)) uniform = false;
      }
      if (uniform) {
        SliceInfo s = all.front()->slice;
        s.input = !u.index_reads.empty();
        s.output = !u.index_assigns.empty();
        plan.vars[name] = VarClass::Sliced;
        plan.sliced[name] = s;
        continue;
      }
      if (any_assign) {
        unclassified(name, u.field_assign
                               ? "A field of it is assigned, but it is neither a temporary "
                                 "variable nor sliced by the loop index."
                               : "It is assigned with an index that does not slice it by the "
                                 "loop index in the same way at every use.");
      }
      plan.vars[name] = VarClass::Broadcast;
      plan.broadcast.push_back(name);
    }
    std::sort(plan.broadcast.begin(), plan.broadcast.end());
    std::sort(plan.temporaries.begin(), plan.temporaries.end());
    return plan;
  }

  const ForStmt& loop_;
  const std::function<bool(const std::string&)>& is_variable_;
  std::string loop_var_;
  std::map<std::string, NameUses> uses_;
  std::set<std::string> nested_loop_vars_;
};

}  // namespace

ParforPlan classify_parfor(const ForStmt& loop,
                           const std::function<bool(const std::string&)>& is_variable) {
  return Classifier(loop, is_variable).run();
}

void check_parfor_range(const std::vector<double>& values) {
  for (size_t k = 0; k < values.size(); ++k) {
    const double v = values[k];
    if (!std::isfinite(v) || v != std::floor(v) || (k > 0 && v != values[k - 1] + 1))
      throw_error("MATLAB:parfor:InvalidRange",
                  "The range of a parfor-loop must be increasing consecutive integers.");
  }
}

}  // namespace matfuse::parallel
