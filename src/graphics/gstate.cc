// The graphics state (see gstate.h).
#include "graphics/gstate.h"

#include <algorithm>
#include <cmath>

namespace matfuse::gfx {

namespace {

GPtr& root_slot() {
  static GPtr r;
  return r;
}

}  // namespace

GPtr root() {
  GPtr& r = root_slot();
  if (!r) {
    r = std::make_shared<GNode>("root");
    init_defaults(*r);
  }
  return r;
}

std::vector<GPtr> figures() {
  std::vector<GPtr> out;
  for (const auto& c : root()->children())
    if (c->type() == "figure" && !c->deleted) out.push_back(c);
  std::sort(out.begin(), out.end(),
            [](const GPtr& a, const GPtr& b) { return a->num("Number") < b->num("Number"); });
  return out;
}

GPtr find_figure(double n) {
  for (const auto& f : figures())
    if (f->num("Number") == n) return f;
  return nullptr;
}

void make_current_figure(const GPtr& fig) {
  GPtr r = root();
  auto& ch = r->children();
  ch.erase(std::remove(ch.begin(), ch.end(), fig), ch.end());
  ch.push_back(fig);
  r->put("CurrentFigure", handle_value(fig));
}

GPtr new_figure(int n) {
  if (n <= 0) {
    n = 1;
    while (find_figure(n)) ++n;
  }
  GPtr f = create("figure", root());
  f->put("Number", Value(static_cast<double>(n)));
  make_current_figure(f);
  return f;
}

GPtr current_figure(bool create_one) {
  GPtr r = root();
  const Value& cf = r->prop("CurrentFigure");
  if (cf.is_object()) {
    GPtr f = nodes_of(cf)[0];
    if (!f->deleted) return f;
  }
  // The most recently current figure still open.
  for (auto it = r->children().rbegin(); it != r->children().rend(); ++it)
    if ((*it)->type() == "figure" && !(*it)->deleted) {
      r->put("CurrentFigure", handle_value(*it));
      return *it;
    }
  if (!create_one) return nullptr;
  return new_figure(0);
}

GPtr new_axes(const GPtr& fig, const std::array<double, 4>& pos) {
  GPtr ax = create("axes", fig);
  Tensor t = Tensor::zeros(ClassId::Double, Dims(1, 4));
  for (int i = 0; i < 4; ++i) t.set_double(i, pos[i]);
  ax->put("Position", Value(std::move(t)));
  fig->put("CurrentAxes", handle_value(ax));
  return ax;
}

GPtr current_axes(bool create_one) {
  GPtr f = current_figure(create_one);
  if (!f) return nullptr;
  const Value& ca = f->prop("CurrentAxes");
  if (ca.is_object()) {
    GPtr a = nodes_of(ca)[0];
    if (!a->deleted) return a;
  }
  for (auto it = f->children().rbegin(); it != f->children().rend(); ++it)
    if (((*it)->type() == "axes" || (*it)->type() == "polaraxes") && !(*it)->deleted) {
      f->put("CurrentAxes", handle_value(*it));
      return *it;
    }
  if (!create_one) return nullptr;
  return new_axes(f, {0.13, 0.11, 0.775, 0.815});
}

void make_current_axes(const GPtr& ax) {
  GPtr f = ax->ancestor("figure");
  if (!f) return;
  f->put("CurrentAxes", handle_value(ax));
  make_current_figure(f);
}

bool hold_on(const GNode& ax) { return ax.text("NextPlot") == "add"; }

void reset_axes(const GPtr& ax) {
  const Value pos = ax->prop("Position"), layout = ax->prop("_Layout");
  const Value outer = ax->prop("OuterPosition"), fit = ax->prop("_Fit");
  for (const char* s : {"Legend", "Colorbar"}) {
    const Value& v = ax->prop(s);
    if (v.is_object())
      for (const auto& n : nodes_of(v)) destroy(n);
  }
  std::vector<GPtr> kids = ax->children();
  for (const auto& k : kids) destroy(k);
  auto fresh = std::make_shared<GNode>(ax->type());
  init_defaults(*fresh);
  for (const auto& p : fresh->props()) ax->put(p.name, p.value);
  ax->put("Position", pos);
  ax->put("_Layout", layout);
  ax->put("OuterPosition", outer);
  ax->put("_Fit", fit);
}

GPtr newplot() {
  GPtr ax = current_axes(true);
  if (!hold_on(*ax)) reset_axes(ax);
  return ax;
}

Rgb next_color(GNode& ax) {
  const Value& co = ax.prop("ColorOrder");
  Tensor t = co.tensor();
  const int64_t m = t.dims().rows();
  if (m == 0) return {0, 0, 0};
  const int64_t k = static_cast<int64_t>(ax.num("ColorOrderIndex")) - 1;
  const int64_t r = ((k % m) + m) % m;
  ax.put("ColorOrderIndex", Value(static_cast<double>(k + 2)));
  return {t.get_double(r), t.get_double(r + m), t.get_double(r + 2 * m)};
}

void clear_figure(const GPtr& fig, bool reset) {
  std::vector<GPtr> kids = fig->children();
  for (const auto& k : kids) destroy(k);
  fig->put("CurrentAxes", Value());
  if (reset) {
    const Value num = fig->prop("Number"), pos = fig->prop("Position");
    auto fresh = std::make_shared<GNode>("figure");
    init_defaults(*fresh);
    for (const auto& p : fresh->props()) fig->put(p.name, p.value);
    fig->put("Number", num);
    fig->put("Position", pos);
  }
}

}  // namespace matfuse::gfx
