// Pass label_patterns: the linear-algebra and statistics fusion kinds, recognised from the
// graph's structure (never from a script's text) on every equivalent form (see passes.h).
#include <unordered_set>

#include "accel/plan/passes/passes.h"

namespace matfuse::accel {
namespace {

bool is_op(const Node* n, OpId op) { return n->kind == NodeKind::Elementwise && n->op == op; }

/// A uniform scalar (a constant or per-trace parameter, e.g. eps or a divisor n - 1).
bool is_scalar_leaf(const Node* n) {
  return (n->kind == NodeKind::Constant || n->kind == NodeKind::Param) && n->numel() == 1;
}

/// n without class conversions (double(x), single(x)).
const Node* uncast(const Node* n) {
  while (n->kind == NodeKind::Cast) n = n->inputs[0].get();
  return n;
}

/// x + eps or eps + x with a scalar eps: x; else n.
const Node* strip_eps(const Node* n) {
  if (is_op(n, OpId::Add)) {
    if (is_scalar_leaf(n->inputs[1].get())) return n->inputs[0].get();
    if (is_scalar_leaf(n->inputs[0].get())) return n->inputs[1].get();
  }
  return n;
}

/// Whether n is y.^2 or y.*y of w (through casts).
bool is_square_of(const Node* n, const Node* w) {
  if (is_op(n, OpId::Pow)) {
    const Node* e = n->inputs[1].get();
    return uncast(n->inputs[0].get()) == w && is_scalar_leaf(e) && e->value == 2;
  }
  if (is_op(n, OpId::Mul))
    return uncast(n->inputs[0].get()) == w && uncast(n->inputs[1].get()) == w;
  return false;
}

/// Whether t is the sum of squares of w over all its elements or over its columns: sum(w.^2),
/// sum(w.*w, 1), w'*w of a column w, w*w' of a row w.
bool is_sum_of_squares(const Node* t, const Node* w) {
  t = uncast(t);
  if (t->kind == NodeKind::Reduce && t->reduce == ReduceKind::Sum)
    return (t->reduce_mask & 1u) && is_square_of(t->inputs[0].get(), w);
  if (t->kind == NodeKind::MatMul && t->numel() == 1) {
    const Node* a = t->inputs[0].get();
    const Node* b = t->inputs[1].get();
    return (a->kind == NodeKind::Transpose && a->inputs[0].get() == w && b == w) ||
           (b->kind == NodeKind::Transpose && b->inputs[0].get() == w && a == w);
  }
  return false;
}

/// Whether s is the 2-norm of w (all of it, or per column), with an optional scalar added
/// inside or outside the root: sqrt(t [+ eps]) [+ eps] with t a sum of squares of w; norm(w)
/// and vecnorm(w) as capture_norm2 builds them (single: single(sqrt(sum(double(w).^2)));
/// double: max(m .* sqrt(sum((w ./ max(m, realmin)).^2)), inf-term) with m = max(abs(w))).
bool is_norm_of(const Node* s, const Node* w) {
  s = uncast(strip_eps(uncast(s)));
  if (is_op(s, OpId::Max)) {  // double norm2: the scaled form and its Inf term
    const Node* scaled = s->inputs[0].get();
    if (!is_op(scaled, OpId::Mul)) return false;
    const Node* m = scaled->inputs[0].get();
    const Node* r = scaled->inputs[1].get();
    if (!(m->kind == NodeKind::Reduce && m->reduce == ReduceKind::Max &&
          is_op(m->inputs[0].get(), OpId::Abs) && m->inputs[0]->inputs[0].get() == w))
      return false;
    if (!is_op(r, OpId::Sqrt)) return false;
    const Node* t = r->inputs[0].get();
    if (t->kind != NodeKind::Reduce || t->reduce != ReduceKind::Sum) return false;
    const Node* sq = t->inputs[0].get();
    return is_op(sq, OpId::Pow) && is_op(sq->inputs[0].get(), OpId::Div) &&
           sq->inputs[0]->inputs[0].get() == w;
  }
  if (!is_op(s, OpId::Sqrt)) return false;
  return is_sum_of_squares(strip_eps(uncast(s->inputs[0].get())), w);
}

/// Whether mu is the column mean of x (mean(x), mean(x, 1), sum(x)/n, sum(x, 1)/n).
bool is_column_mean(const Node* mu, const Node* x) {
  mu = uncast(mu);
  if (mu->kind == NodeKind::Reduce && mu->reduce_mask == 1u && mu->inputs[0].get() == x)
    return mu->reduce == ReduceKind::Mean;
  if (is_op(mu, OpId::Div) && is_scalar_leaf(mu->inputs[1].get())) {
    const Node* s = mu->inputs[0].get();
    return s->kind == NodeKind::Reduce && s->reduce == ReduceKind::Sum && s->reduce_mask == 1u &&
           s->inputs[0].get() == x;
  }
  return false;
}

/// Whether c is x - mean(x) (columns centred), through casts.
bool is_centred(const Node* c) {
  c = uncast(c);
  if (!is_op(c, OpId::Sub)) return false;
  const Node* x = c->inputs[0].get();
  const Node* mu = c->inputs[1].get();
  return x->dims.ndims() == 2 && x->dims == c->dims && mu->dims.rows() == 1 &&
         is_column_mean(mu, x);
}

/// centered_gram: Xc' * Xc with Xc = X - mean(X) (any of the forms above).
bool is_centered_gram(const Node* mm) {
  if (mm->kind != NodeKind::MatMul) return false;
  const Node* a = mm->inputs[0].get();
  const Node* b = mm->inputs[1].get();
  return a->kind == NodeKind::Transpose && a->inputs[0].get() == b && is_centred(b);
}

/// explained_variance: diag(A*B) as column sums of elementwise products: sum(A.' .* B, 1) (or
/// B .* A.', or with a product operand: sum((G*Q) .* Q)), the form capture_diag gives a
/// product, and the same sums written by hand.
bool is_explained_variance(const Node* r) {
  if (r->kind != NodeKind::Reduce || r->reduce != ReduceKind::Sum || r->reduce_mask != 1u)
    return false;
  const Node* p = r->inputs[0].get();
  if (!is_op(p, OpId::Mul) || p->dims.ndims() != 2) return false;
  const Node* a = p->inputs[0].get();
  const Node* b = p->inputs[1].get();
  const bool ta = a->kind == NodeKind::Transpose, tb = b->kind == NodeKind::Transpose;
  const bool ma = a->kind == NodeKind::MatMul, mb = b->kind == NodeKind::MatMul;
  return (ta != tb || ma || mb) && a->dims == b->dims && a->dims.rows() > 1;
}

/// image_normalize: (X - mu) ./ s with per-slice statistics of an N-D X (ndims >= 3) over
/// dims that leave dim 1 alone (mean(X, [2 3]) of B x H x W).
bool is_slice_mean(const Node* mu, const Node* x) {
  mu = uncast(mu);
  return mu->kind == NodeKind::Reduce && mu->reduce == ReduceKind::Mean &&
         mu->inputs[0].get() == x && x->dims.ndims() >= 3 && !(mu->reduce_mask & 1u) &&
         mu->reduce_mask != 0;
}
bool is_slice_centred(const Node* c) {
  c = uncast(c);
  return is_op(c, OpId::Sub) && is_slice_mean(c->inputs[1].get(), c->inputs[0].get());
}
bool is_image_normalize(const Node* n) {
  if (is_op(n, OpId::Div) && is_slice_centred(n->inputs[0].get())) return true;
  // The variance of the slices: mean((X - mu).^2, dims) with mu = mean(X, dims).
  if (n->kind == NodeKind::Reduce && n->reduce == ReduceKind::Mean) {
    const Node* sq = n->inputs[0].get();
    if (!is_op(sq, OpId::Pow) && !is_op(sq, OpId::Mul)) return false;
    const Node* c = uncast(sq->inputs[0].get());
    return is_slice_centred(c) && uncast(c->inputs[1].get())->reduce_mask == n->reduce_mask;
  }
  return false;
}

}  // namespace

void label_patterns(Plan& p) {
  for (FusionGroup& G : p.groups) G.label = G.kind;
  auto label = [&](const Node* n, FusionKind k) {
    if (!p.info.count(n)) return;
    const int g = p.group_of(n);
    if (g >= 0) p.groups[g].label = k;
  };
  for (const Node* n : p.order) {
    if (is_centered_gram(n)) {
      label(n, FusionKind::CenteredGram);
      continue;
    }
    if (is_explained_variance(n)) {
      label(n, FusionKind::ExplainedVariance);
      continue;
    }
    if (is_image_normalize(n)) {
      label(n, FusionKind::ImageNormalize);
      continue;
    }
    // power_step_normalize: w ./ s, w a product and s its 2-norm (whole or per column). The
    // product's group, the norm's and the division's carry the label.
    if (is_op(n, OpId::Div) || is_op(n, OpId::Mul)) {
      const Node* w = n->inputs[0].get();
      const Node* s = n->inputs[1].get();
      if (w->kind != NodeKind::MatMul) continue;
      const bool div = is_op(n, OpId::Div);
      // w .* (1 ./ s) multiplies by the reciprocal of the norm.
      if (!div) {
        if (!is_op(s, OpId::Div) || !is_scalar_leaf(s->inputs[0].get()) ||
            s->inputs[0]->value != 1)
          continue;
        s = s->inputs[1].get();
      }
      if (!(s->numel() == 1 || (s->dims.rows() == 1 && s->dims.cols() == w->dims.cols())))
        continue;
      if (!is_norm_of(s, w)) continue;
      label(n, FusionKind::PowerStepNormalize);
      label(w, FusionKind::PowerStepNormalize);
      // The groups computing the norm (its reductions).
      std::vector<const Node*> stack{s};
      std::unordered_set<const Node*> seen;
      while (!stack.empty()) {
        const Node* x = stack.back();
        stack.pop_back();
        if (x == w || !seen.insert(x).second) continue;
        if (x->kind == NodeKind::Reduce || x->kind == NodeKind::MatMul)
          label(x, FusionKind::PowerStepNormalize);
        for (const NodeRef& i : x->inputs) stack.push_back(i.get());
      }
    }
  }
}

}  // namespace matfuse::accel
