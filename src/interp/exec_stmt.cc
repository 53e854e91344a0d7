// Statement execution: assignment (plain, indexed chains, multiple), control flow, global and
// persistent declarations, try/catch, command syntax, and display of unsuppressed results.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <new>
#include <optional>

#include "builtins/operators.h"
#include "interp/display.h"
#include "interp/indexing.h"
#include "interp/interp.h"
#include "interp/loop_replay.h"
#include "runtime/interrupt.h"
#include "accel/capture/graph.h"
#include "accel/capture/lazy.h"
#include "builtins/table.h"
#include "runtime/object_index.h"

namespace matfuse {

using namespace ast;

namespace {

struct EndGuard {
  std::vector<Interpreter::EndCtx>& st;
  ~EndGuard() { st.pop_back(); }
};

/// One accessor of an assignment target, with its arguments evaluated up front.
struct Level {
  const Expr* e;
  enum class K : uint8_t { Paren, Brace, Field } k;
  std::vector<Value> idx;
  std::string field;
};

/// Linear index when every subscript is an in-range real scalar; false otherwise.
bool scalar_linear_index(const Dims& d, const std::vector<Value>& idx, int64_t& lin) {
  size_t n = idx.size();
  if (n == 0) return false;
  int64_t stride = 1;
  lin = 0;
  for (size_t k = 0; k < n; ++k) {
    if (!idx[k].is_scalar_double()) return false;
    double x = idx[k].scalar();
    int64_t i = static_cast<int64_t>(x);
    if (static_cast<double>(i) != x || i < 1) return false;
    int64_t extent;
    if (n == 1) {
      extent = d.numel();
    } else if (k + 1 < n) {
      extent = d[static_cast<int>(k)];
    } else {
      extent = 1;
      for (int j = static_cast<int>(k); j < d.ndims(); ++j) extent *= d[j];
    }
    if (i > extent) return false;
    lin += (i - 1) * stride;
    stride *= extent;
  }
  return true;
}

bool is_deletion_rhs(const Value& v) {
  return v.kind() == Value::Kind::Array && v.cls() == ClassId::Double && v.dims().ndims() == 2 &&
         v.dims().rows() == 0 && v.dims().cols() == 0;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

/// Applies rhs at chain level i of cur (recursive get -> modify -> set).
static void set_level(Value& cur, bool defined, std::vector<Level>& levels, size_t i,
                      const Value& rhs) {
  Level& L = levels[i];
  bool last = i + 1 == levels.size();
  if (last) {
    switch (L.k) {
      case Level::K::Paren:
        if (defined && is_deletion_rhs(rhs))
          delete_elements(cur, L.idx);
        else
          assign_paren(cur, defined, L.idx, rhs);
        return;
      case Level::K::Brace:
        assign_brace(cur, defined, L.idx, rhs);
        return;
      case Level::K::Field:
        set_field(cur, defined, L.field, rhs);
        return;
    }
  }
  switch (L.k) {
    case Level::K::Field: {
      if (defined && cur.is_struct() && cur.numel() == 1) {
        int fi = cur.struct_array().field_index(L.field);
        if (fi >= 0) {
          // Move the field value out so that the nested write does not copy it.
          Value sub = std::move(cur.struct_array().at(0, fi));
          try {
            set_level(sub, true, levels, i + 1, rhs);
          } catch (...) {
            cur.struct_array().at(0, fi) = std::move(sub);
            throw;
          }
          cur.struct_array().at(0, fi) = std::move(sub);
          return;
        }
      }
      Value sub;
      bool sd = false;
      if (defined && cur.is_object()) {  // obj.P(k) = v: read P, modify, write it back
        std::vector<Value> got;
        try {
          got = get_field(cur, L.field);
        } catch (const MatlabError&) {
          // A property the object creates on assignment (a new table variable) starts unset;
          // set_field below reports a name the object refuses.
          if (!as_table(cur)) throw;
        }
        if (got.size() == 1) {
          sub = std::move(got[0]);
          sd = true;
        }
      }
      set_level(sub, sd, levels, i + 1, rhs);
      set_field(cur, defined, L.field, sub);
      return;
    }
    case Level::K::Brace: {
      int64_t lin;
      if (defined && cur.is_cell() && scalar_linear_index(cur.dims(), L.idx, lin)) {
        Value sub = std::move(cur.cell().at(lin));
        try {
          set_level(sub, true, levels, i + 1, rhs);
        } catch (...) {
          cur.cell().at(lin) = std::move(sub);
          throw;
        }
        cur.cell().at(lin) = std::move(sub);
        return;
      }
      Value sub;
      bool sd = false;
      if (defined && cur.is_cell()) {
        try {
          std::vector<Value> got = index_brace(cur, L.idx);
          if (got.size() == 1) {
            sub = std::move(got[0]);
            sd = true;
          }
        } catch (const MatlabError&) {
        }
      }
      set_level(sub, sd, levels, i + 1, rhs);
      assign_brace(cur, defined, L.idx, sub);
      return;
    }
    case Level::K::Paren: {
      Value sub;
      bool sd = false;
      if (defined) {
        try {
          sub = index_paren(cur, L.idx);
          sd = true;
        } catch (const MatlabError&) {
        }
      }
      if (!sd && defined && cur.is_struct()) {
        // s(k).f = v beyond the end: start from an element with s's fields.
        StructArray e(Dims(1, 1));
        for (const auto& f : cur.struct_array().fields()) e.add_field(f);
        sub = Value(std::move(e));
        sd = true;
      }
      set_level(sub, sd, levels, i + 1, rhs);
      if (defined && cur.is_struct() && sub.is_struct()) {
        // New fields created through the element appear in the whole array.
        for (const auto& f : sub.struct_array().fields()) cur.struct_array().add_field(f);
        for (const auto& f : cur.struct_array().fields()) sub.struct_array().add_field(f);
        sub.struct_array().set_field_order(cur.struct_array().fields());
      }
      assign_paren(cur, defined, L.idx, sub);
      return;
    }
  }
}

/// Assigns rhs to an Ident or an indexing chain rooted at an Ident. Returns the root name.
static const std::string& assign_target(Interpreter& in, const Expr& target, const Value& rhs) {
  if (target.kind == ExprKind::Ident) {
    const auto& id = static_cast<const IdentExpr&>(target);
    in.set_slot(id.slot, rhs);
    return id.name;
  }
  std::vector<const Expr*> chain;
  const Expr* root = &target;
  while (root->kind == ExprKind::Index || root->kind == ExprKind::Field) {
    chain.push_back(root);
    root = root->kind == ExprKind::Index ? static_cast<const IndexExpr*>(root)->base.get()
                                         : static_cast<const FieldExpr*>(root)->base.get();
  }
  if (root->kind != ExprKind::Ident)
    throw_error("MATLAB:syntax", "Invalid assignment target.");
  std::reverse(chain.begin(), chain.end());
  const auto& id = static_cast<const IdentExpr&>(*root);

  // Phase 1: evaluate every level's subscripts (they may read the variable itself and use
  // `end` of the intermediate values), holding no reference to the data afterwards.
  std::vector<Level> levels;
  levels.reserve(chain.size());
  {
    std::optional<Value> cur;
    if (const Value* v = in.slot_value(id.slot)) cur = *v;
    for (size_t i = 0; i < chain.size(); ++i) {
      const Expr* acc = chain[i];
      Level L{acc, Level::K::Field, {}, {}};
      if (acc->kind == ExprKind::Field) {
        const auto& f = static_cast<const FieldExpr&>(*acc);
        L.field = f.dynamic ? in.eval(*f.dynamic).to_text("dynamic field name") : f.name;
        if (i + 1 < chain.size()) {
          std::optional<Value> next;
          if (cur && cur->is_struct() && cur->numel() == 1 &&
              cur->struct_array().field_index(L.field) >= 0)
            next = cur->struct_array().get(0, cur->struct_array().field_index(L.field));
          else if (cur && cur->is_object()) {
            // obj.P(end) = v: `end` counts in the property's value.
            try {
              std::vector<Value> got = get_field(*cur, L.field);
              if (got.size() == 1) next = std::move(got[0]);
            } catch (const MatlabError&) {
            }
          }
          cur = std::move(next);
        }
      } else {
        const auto& ix = static_cast<const IndexExpr&>(*acc);
        L.k = ix.is_brace ? Level::K::Brace : Level::K::Paren;
        Dims d = cur ? cur->dims() : Dims(0, 0);
        int n = static_cast<int>(ix.args.size());
        for (int k = 0; k < n; ++k) {
          const Expr& a = *ix.args[static_cast<size_t>(k)];
          if (a.kind == ExprKind::Colon) {
            L.idx.push_back(Value::from_chars(":"));
            continue;
          }
          in.end_stack_.push_back({d, k, n});
          EndGuard g{in.end_stack_};
          in.eval_multi(a, L.idx);
        }
        if (i + 1 < chain.size()) {
          std::optional<Value> next;
          if (cur) {
            try {
              if (ix.is_brace) {
                std::vector<Value> got = index_brace(*cur, L.idx);
                if (got.size() == 1) next = std::move(got[0]);
              } else if (!cur->is_function()) {
                next = index_paren(*cur, L.idx);
              }
            } catch (const MatlabError&) {
            }
          }
          cur = std::move(next);
        }
      }
      levels.push_back(std::move(L));
    }
  }

  // Phase 2: move the variable out of its slot, modify in place, move it back.
  Slot& s = in.cur_->slots[static_cast<size_t>(id.slot)];
  Value* storage = s.ref ? s.ref : &s.v;
  bool defined = s.ref || s.set;
  Value root_v;
  if (defined) {
    // The slot holds [] meanwhile, never a moved-from value: a force of a lazy operand during the
    // assignment walks every slot (liveness hook), and a moved-from cell or struct is not a
    // valid value to walk.
    root_v = std::move(*storage);
    *storage = Value();
  }
  try {
    set_level(root_v, defined, levels, 0, rhs);
  } catch (...) {
    Slot& s2 = in.cur_->slots[static_cast<size_t>(id.slot)];
    if (defined) *(s2.ref ? s2.ref : &s2.v) = std::move(root_v);
    throw;
  }
  in.set_slot(id.slot, std::move(root_v));
  return id.name;
}

namespace {

/// A multi-assignment target that may stand for several outputs: c{idx} (one numeric or ':'
/// subscript) or s.f of a struct array.
struct ListTarget {
  size_t count = 1;
  int kind = 0;  ///< 0 ordinary, 1 brace list, 2 struct field list
  std::vector<double> idx;  ///< brace: linear indices (1-based)
};

ListTarget list_target(Interpreter& in, const Expr& t) {
  ListTarget L;
  if (t.kind == ExprKind::Index) {
    const auto& ix = static_cast<const IndexExpr&>(t);
    if (!ix.is_brace || ix.args.size() != 1 || ix.base->kind != ExprKind::Ident) return L;
    const Value* v = in.slot_value(static_cast<const IdentExpr&>(*ix.base).slot);
    Dims d = v ? v->dims() : Dims(0, 0);
    const Expr& a = *ix.args[0];
    Value sub(0.0);
    if (a.kind == ExprKind::Colon) {
      Tensor t2 = Tensor::uninit(ClassId::Double, Dims(1, d.numel()));
      for (int64_t k = 0; k < d.numel(); ++k) t2.set_double(k, static_cast<double>(k + 1));
      sub = Value(std::move(t2));
    } else {
      in.end_stack_.push_back({d, 0, 1});
      EndGuard g{in.end_stack_};
      sub = in.eval(a);
    }
    if (!sub.is_tensor() || sub.is_logical() || sub.is_char()) return L;
    Tensor ti = sub.tensor();
    L.kind = 1;
    L.count = static_cast<size_t>(ti.numel());
    for (int64_t k = 0; k < ti.numel(); ++k) L.idx.push_back(ti.get_double(k));
    return L;
  }
  if (t.kind == ExprKind::Field) {
    const auto& f = static_cast<const FieldExpr&>(t);
    if (f.dynamic || f.base->kind != ExprKind::Ident) return L;
    const Value* v = in.slot_value(static_cast<const IdentExpr&>(*f.base).slot);
    if (!v || !v->is_struct() || v->numel() == 1) return L;
    L.kind = 2;
    L.count = static_cast<size_t>(v->numel());
  }
  return L;
}

const std::string& assign_list_target(Interpreter& in, const Expr& t, const ListTarget& L,
                                      std::vector<Value>& vals, size_t& p) {
  if (L.kind == 0) return assign_target(in, t, vals[p++]);
  const Expr* base = t.kind == ExprKind::Index ? static_cast<const IndexExpr&>(t).base.get()
                                               : static_cast<const FieldExpr&>(t).base.get();
  const auto& id = static_cast<const IdentExpr&>(*base);
  const Value* cur = in.slot_value(id.slot);
  bool defined = cur != nullptr;
  Value v = defined ? *cur : Value();
  if (L.kind == 1) {
    for (double k : L.idx) {
      Value idx(k);
      assign_brace(v, defined, std::span<const Value>(&idx, 1), vals[p++]);
      defined = true;
    }
  } else {
    const std::string& field = static_cast<const FieldExpr&>(t).name;
    StructArray sa = v.struct_array();
    int fi = sa.add_field(field);
    for (size_t k = 0; k < L.count; ++k) sa.at(static_cast<int64_t>(k), fi) = vals[p++];
    v = Value(std::move(sa));
  }
  in.set_slot(id.slot, std::move(v));
  return id.name;
}

}  // namespace

void Interpreter::display_assigned(const std::string& name, const Value& v) {
  if (v.is_object() && object_display(v, name)) return;
  display_value(*session_.out, v, name, session_);
}

static bool switch_matches(const Value& subject, const Value& c) {
  if (c.is_cell()) {
    for (const auto& e : c.cell().elems())
      if (switch_matches(subject, e)) return true;
    return false;
  }
  bool st = subject.is_text() || subject.is_string();
  bool ct = c.is_text() || c.is_string();
  if (st || ct) {
    if (!(st && ct)) return false;
    if (subject.numel() != 1 && subject.is_string()) return false;
    return subject.to_text() == c.to_text();
  }
  if (subject.is_scalar_double() && c.is_scalar_double()) return subject.scalar() == c.scalar();
  if (!subject.is_tensor() || !c.is_tensor()) return false;
  if (subject.is_empty() || c.is_empty()) return false;
  if (c.numel() != 1 && subject.numel() != 1) return false;
  const Value eq = binary_op(BinOp::Eq, c, subject);
  accel::SinkScope sink(accel::SinkReason::Branch);
  return eq.truthy();
}

/// Iterates a for loop over the columns of a value.
static Flow for_over_value(Interpreter& in, const ForStmt& f, const Value& v) {
  auto assign = [&](Value x) {
    if (f.var->kind == ExprKind::Ident)
      in.set_slot(static_cast<const IdentExpr&>(*f.var).slot, std::move(x));
    else
      assign_target(in, *f.var, x);
  };
  Dims d = v.dims();
  int64_t rows = d.rows();
  int64_t ncols = 1;
  for (int k = 1; k < d.ndims(); ++k) ncols *= d[k];
  if (v.is_scalar_double() || v.is_function() || v.is_object()) ncols = 1;
  if (ncols == 0 || (d.numel() == 0 && rows == 0 && d.cols() == 0)) {
    assign(Value());
    return Flow::Normal;
  }
  for (int64_t c = 0; c < ncols; ++c) {
    if (interrupt_pending()) [[unlikely]]
      check_interrupt_at(in.cur_->file.empty() ? std::string() : in.cur_->name, f.loc.line);
    if (v.is_scalar_double() || v.is_function() || v.is_object()) {
      assign(v);
    } else if (v.kind() == Value::Kind::Array) {
      const Tensor t = v.tensor();
      if (rows == 1 && t.cls() == ClassId::Double && !t.is_complex()) {
        assign(Value(t.get_double(c)));
      } else {
        Tensor col = Tensor::uninit(t.cls(), Dims(rows, 1), t.is_complex());
        size_t eb = static_cast<size_t>(t.elem_bytes());
        if (rows > 0)
          std::memcpy(col.mutable_raw(), static_cast<const char*>(t.raw()) + eb * rows * c,
                      eb * static_cast<size_t>(rows));
        assign(Value(std::move(col)));
      }
    } else if (v.is_cell()) {
      CellArray col(Dims(rows, 1));
      for (int64_t r = 0; r < rows; ++r) col.at(r) = v.cell()[c * rows + r];
      assign(Value(std::move(col)));
    } else {
      Value idx[2] = {Value::from_chars(":"), Value(static_cast<double>(c + 1))};
      assign(index_paren(v, idx));
    }
    accel::LoopIteration iteration;
    Flow fl = in.exec_block(f.body);
    if (fl == Flow::Break) break;
    if (fl == Flow::Return) return fl;
  }
  return Flow::Normal;
}

static Flow exec_for(Interpreter& in, const ForStmt& f);

Flow Interpreter::exec_for_loop(const ForStmt& f) { return exec_for(*this, f); }

static Flow exec_for(Interpreter& in, const ForStmt& f) {
  if (f.range->kind == ExprKind::Range && f.var->kind == ExprKind::Ident) {
    const auto& r = static_cast<const RangeExpr&>(*f.range);
    Value a = in.eval(*r.start);
    Value st = r.step ? in.eval(*r.step) : Value(1.0);
    Value b = in.eval(*r.stop);
    if (a.is_scalar_double() && st.is_scalar_double() && b.is_scalar_double() &&
        std::isfinite(a.scalar()) && std::isfinite(st.scalar()) && std::isfinite(b.scalar())) {
      double x0 = a.scalar(), dx = st.scalar(), x1 = b.scalar();
      int slot = static_cast<const IdentExpr&>(*f.var).slot;
      int64_t n = 0;
      if (dx != 0 && !((dx > 0 && x1 < x0) || (dx < 0 && x1 > x0))) {
        double q = (x1 - x0) / dx;
        n = static_cast<int64_t>(std::floor(q + 4 * 2.220446049250313e-16 * std::fabs(q))) + 1;
      }
      if (n <= 0) {
        in.set_slot(slot, Value(Tensor::zeros(ClassId::Double, Dims(1, 0))));
        return Flow::Normal;
      }
      int64_t k = 0;
      LoopReplayer replay(in, f, slot, n, x0, dx, &k);
      for (; k < n; ++k) {
        if (interrupt_pending()) [[unlikely]]
          check_interrupt_at(in.cur_->file.empty() ? std::string() : in.cur_->name, f.loc.line);
        in.set_slot_scalar(slot, x0 + static_cast<double>(k) * dx);
        {
          accel::LoopIteration iteration;
          Flow fl = in.exec_block(f.body);
          if (fl == Flow::Break) break;
          if (fl == Flow::Return) return fl;
        }
        if (replay.active()) k += replay.after_iteration(k);
      }
      return Flow::Normal;
    }
    Value range = colon_op(a, r.step ? &st : nullptr, b);
    return for_over_value(in, f, range);
  }
  Value v = in.eval(*f.range);
  return for_over_value(in, f, v);
}

static void exec_command(Interpreter& in, const CommandStmt& c) {
  Session& s = in.session_;
  const std::string& n = c.name;
  if (n == "clear" || n == "clearvars") {
    std::vector<std::string> names;
    bool all = c.args.empty();
    for (const auto& a : c.args) {
      if (a == "all" || a == "-all" || a == "variables" || a == "-variables") {
        all = true;
        if (a == "all" || a == "-all") {
          in.clear_functions();
          in.clear_persistents();
        }
      } else if (a == "functions" || a == "-functions") {
        in.clear_functions();
        in.clear_persistents();
      } else if (a == "global" || a == "-global") {
        in.clear_globals();
      } else if (!a.empty() && a[0] != '-') {
        names.push_back(a);
      }
    }
    if (all) names.clear();
    if (all || !names.empty()) in.clear_vars(names);
    return;
  }
  std::vector<Value> args;
  for (const auto& a : c.args) args.push_back(Value::from_chars(a));
  Outputs r = in.call_named(n, args, 0);
  if (!r.empty()) {
    Layout* L = in.cur_->layout;
    in.set_slot(L->ans_slot, r[0]);
    if (c.print) {
      if (!(r[0].is_object() && in.object_display(r[0], "ans")))
        display_value(*in.session_.out, r[0], "ans", in.session_);
    }
  }
}

Flow Interpreter::exec_block(const Block& b) {
  for (const auto& s : b) {
    Flow f = exec_stmt(*s);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

/// Throws Interrupted naming the running file and line when Ctrl-C is pending.
static inline void poll_interrupt(const Frame* f, int line) {
  if (interrupt_pending()) [[unlikely]]
    check_interrupt_at(f->file.empty() ? std::string() : f->name, line);
}

Flow Interpreter::exec_stmt(const Stmt& s) {
  cur_->line = s.loc.line;
  cur_->stmt = &s;
  poll_interrupt(cur_, s.loc.line);
  if (statement_limit_ >= 0 && statement_limit_-- == 0) {
    statement_limit_ = 0;
    throw_error("matfuse:statementLimit", "Statement limit reached.");
  }
  switch (s.kind) {
    case StmtKind::Assign: {
      const auto& a = static_cast<const AssignStmt&>(s);
      if (a.targets.size() == 1 && !a.multi) {
        const Expr& t = *a.targets[0];
        if (t.kind == ExprKind::Ident) {
          const auto& id = static_cast<const IdentExpr&>(t);
          if (!reduction_first_.empty()) {
            auto it = reduction_first_.find(&s);
            if (it != reduction_first_.end() && !slot_value(it->second.slot)) {
              set_slot(id.slot, eval(*it->second.other));
              if (s.print) display_assigned(id.name, *slot_value(id.slot));
              return Flow::Normal;
            }
          }
          double d;
          if (eval_scalar(*a.rhs, d))
            set_slot_scalar(id.slot, d);
          else
            set_slot(id.slot, eval(*a.rhs));
          if (s.print) display_assigned(id.name, *slot_value(id.slot));
          return Flow::Normal;
        }
        Value rhs = eval(*a.rhs);
        const std::string& name = assign_target(*this, t, rhs);
        if (s.print) display_assigned(name, *slot_value(cur_->layout->find(name)));
        return Flow::Normal;
      }
      // Multiple assignment: [a, ~, c] = f(...) or = c{:}; [c{1:2}] = ... and [s.f] = ...
      // targets stand for several outputs each.
      size_t nt = a.targets.size();
      std::vector<ListTarget> lists(nt);
      size_t nout = 0;
      for (size_t i = 0; i < nt; ++i) {
        if (a.targets[i]) lists[i] = list_target(*this, *a.targets[i]);
        nout += lists[i].count;
      }
      std::vector<Value> vals;
      const Expr& r = *a.rhs;
      if (r.kind == ExprKind::Index || r.kind == ExprKind::Field || r.kind == ExprKind::Ident)
        eval_chain(r, static_cast<int>(nout), vals);
      else
        vals.push_back(eval(r));
      size_t needed = 0, pos = 0;
      for (size_t i = 0; i < nt; ++i) {
        pos += lists[i].count;
        if (a.targets[i]) needed = pos;
      }
      if (nout != nt) {
        if (vals.size() < needed)
          throw_error("MATLAB:needMoreRhsOutputs",
                      "Insufficient number of outputs from right hand side of equal sign to "
                      "satisfy assignment.");
        size_t p = 0;
        for (size_t i = 0; i < nt; ++i) {
          if (!a.targets[i]) {
            p += 1;
            continue;
          }
          const std::string& name = assign_list_target(*this, *a.targets[i], lists[i], vals, p);
          if (s.print) display_assigned(name, *slot_value(cur_->layout->find(name)));
        }
        return Flow::Normal;
      }
      if (vals.size() < needed) {
        if (r.kind == ExprKind::Index || r.kind == ExprKind::Field || r.kind == ExprKind::Ident)
          throw_error("MATLAB:needMoreRhsOutputs",
                      "Insufficient number of outputs from right hand side of equal sign to "
                      "satisfy assignment.");
        throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
      }
      for (size_t i = 0; i < nt; ++i) {
        if (!a.targets[i]) continue;
        const std::string& name = assign_target(*this, *a.targets[i], vals[i]);
        if (s.print) display_assigned(name, *slot_value(cur_->layout->find(name)));
      }
      return Flow::Normal;
    }
    case StmtKind::Expr: {
      const Expr& e = *static_cast<const ExprStmt&>(s).expr;
      if (e.kind == ExprKind::Ident) {
        const auto& id = static_cast<const IdentExpr&>(e);
        if (const Value* v = slot_value(id.slot)) {
          if (s.print) display_assigned(id.name, *v);
          return Flow::Normal;
        }
      }
      std::vector<Value> vals;
      if (e.kind == ExprKind::Ident || e.kind == ExprKind::Index || e.kind == ExprKind::Field)
        eval_chain(e, 0, vals);
      else
        vals.push_back(eval(e));
      int ans = cur_->layout->ans_slot;
      if (ans < 0) ans = cur_->layout->ans_slot = cur_->layout->get_or_add("ans");
      if (cur_->slots.size() < cur_->layout->names.size()) cur_->slots.resize(cur_->layout->names.size());
      for (auto& v : vals) {
        set_slot(ans, std::move(v));
        if (s.print) display_assigned("ans", *slot_value(ans));
      }
      return Flow::Normal;
    }
    case StmtKind::If: {
      for (const auto& c : static_cast<const IfStmt&>(s).clauses)
        if (!c.cond || eval_cond(*c.cond)) return exec_block(c.body);
      return Flow::Normal;
    }
    case StmtKind::For:
      try {
        const auto& f = static_cast<const ForStmt&>(s);
        if (f.parfor && parallel_) return parallel_->run_parfor(*this, f);
        return exec_for(*this, f);
      } catch (Interrupted& e) {
        // Raised below any statement (loop replay, a kernel wait): name the loop.
        if (e.where.empty() && !cur_->file.empty())
          e.where = cur_->name + " (line " + std::to_string(cur_->line) + ")";
        throw;
      }
    case StmtKind::While: {
      const auto& w = static_cast<const WhileStmt&>(s);
      while (eval_cond(*w.cond)) {
        poll_interrupt(cur_, s.loc.line);
        accel::LoopIteration iteration;
        Flow f = exec_block(w.body);
        if (f == Flow::Break) break;
        if (f == Flow::Return) return f;
        cur_->line = s.loc.line;
        cur_->stmt = &s;
      }
      return Flow::Normal;
    }
    case StmtKind::Switch: {
      const auto& sw = static_cast<const SwitchStmt&>(s);
      Value subject = eval(*sw.subject);
      // MATLAB: the switch expression must be a scalar or a character vector.
      if (!(subject.is_text() || (subject.is_tensor() && subject.numel() == 1) ||
            (subject.is_string() && subject.numel() == 1) || subject.is_object()))
        throw_error("MATLAB:switch:exprNotScalarOrChar",
                    "SWITCH expression must be a scalar or a character vector.");
      for (const auto& c : sw.cases) {
        if (!c.value) return exec_block(c.body);
        if (switch_matches(subject, eval(*c.value))) return exec_block(c.body);
      }
      return Flow::Normal;
    }
    case StmtKind::Try: {
      const auto& t = static_cast<const TryStmt&>(s);
      std::optional<MatlabError> caught;
      Frame* frame = cur_;
      size_t end_depth = end_stack_.size();
      try {
        return exec_block(t.body);
      } catch (const MatlabError& e) {
        caught = e;
      } catch (const std::bad_alloc&) {
        caught = MatlabError("MATLAB:nomem", "Out of memory.");
      }
      cur_ = frame;
      end_stack_.resize(end_depth, EndCtx{Dims(), 0, 0});
      session_.last_error_id = caught->identifier();
      session_.last_error_msg = caught->message();
      if (t.catch_slot >= 0) {
        std::vector<StackFrame> extra;
        for (Frame* f = cur_; f; f = f->caller)
          if (!f->file.empty() || !f->name.empty()) extra.push_back({f->file, f->name, f->line, 0});
        set_slot(t.catch_slot, error_to_value(*caught, extra));
      }
      return exec_block(t.handler);
    }
    case StmtKind::Break:
      return Flow::Break;
    case StmtKind::Continue:
      return Flow::Continue;
    case StmtKind::Return:
      return Flow::Return;
    case StmtKind::Global: {
      const auto& d = static_cast<const DeclStmt&>(s);
      for (size_t i = 0; i < d.names.size(); ++i) {
        auto it = globals_.try_emplace(d.names[i]).first;
        Slot& sl = cur_->slots[static_cast<size_t>(d.slots[i])];
        sl.ref = &it->second;
        sl.set = true;
      }
      return Flow::Normal;
    }
    case StmtKind::Persistent: {
      const auto& d = static_cast<const DeclStmt&>(s);
      auto& store = persistents_[cur_->file + ">" + (cur_->def ? cur_->def->name : cur_->name)];
      for (size_t i = 0; i < d.names.size(); ++i) {
        auto it = store.try_emplace(d.names[i]).first;
        Slot& sl = cur_->slots[static_cast<size_t>(d.slots[i])];
        sl.ref = &it->second;
        sl.set = true;
      }
      return Flow::Normal;
    }
    case StmtKind::Command:
      exec_command(*this, static_cast<const CommandStmt&>(s));
      return Flow::Normal;
    case StmtKind::Spmd: {
      const auto& sp = static_cast<const SpmdStmt&>(s);
      if (parallel_) return parallel_->run_spmd(*this, sp);
      return exec_block(sp.body);
    }
  }
  return Flow::Normal;
}

}  // namespace matfuse
