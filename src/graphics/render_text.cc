// Text for the Cairo renderer: MATLAB's TeX subset, multi-line layout, alignment and rotation.
// In SVG output each text is written as an SVG <text> element (searchable, as MATLAB's SVG
// export keeps text), laid out with the same Cairo font metrics as the raster output.
#ifdef MATFUSE_HAVE_CAIRO
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

#include "graphics/render.h"
#include "graphics/render_internal.h"

namespace matfuse::gfx {

namespace {

struct Run {
  std::string text;
  int level = 0;  ///< +1 superscript, -1 subscript
  bool bold = false, italic = false;
};

const std::pair<const char*, const char*> kTexSymbols[] = {
    {"alpha", "α"},     {"beta", "β"},
    {"gamma", "γ"},     {"delta", "δ"},
    {"epsilon", "ε"},   {"zeta", "ζ"},
    {"eta", "η"},       {"theta", "θ"},
    {"iota", "ι"},      {"kappa", "κ"},
    {"lambda", "λ"},    {"mu", "µ"},
    {"nu", "ν"},        {"xi", "ξ"},
    {"pi", "π"},        {"rho", "ρ"},
    {"sigma", "σ"},     {"tau", "τ"},
    {"upsilon", "υ"},   {"phi", "ϕ"},
    {"chi", "χ"},       {"psi", "ψ"},
    {"omega", "ω"},     {"Gamma", "Γ"},
    {"Delta", "Δ"},     {"Theta", "Θ"},
    {"Lambda", "Λ"},    {"Xi", "Ξ"},
    {"Pi", "Π"},        {"Sigma", "Σ"},
    {"Upsilon", "ϒ"},   {"Phi", "Φ"},
    {"Psi", "Ψ"},       {"Omega", "Ω"},
    {"varphi", "φ"},    {"vartheta", "ϑ"},
    {"pm", "±"},        {"times", "×"},
    {"cdot", "·"},      {"infty", "∞"},
    {"circ", "°"},      {"leq", "≤"},
    {"geq", "≥"},       {"neq", "≠"},
    {"approx", "≈"},    {"rightarrow", "→"},
    {"leftarrow", "←"}, {"uparrow", "↑"},
    {"downarrow", "↓"}, {"leftrightarrow", "↔"},
    {"partial", "∂"},   {"nabla", "∇"},
    {"sum", "∑"},       {"int", "∫"},
    {"surd", "√"},      {"in", "∈"},
    {"ldots", "…"},     {"prime", "′"},
    {"propto", "∝"},    {"forall", "∀"},
    {"exists", "∃"},    {"equiv", "≡"},
    {"sim", "∼"},       {"div", "÷"},
    {"neg", "¬"},       {"cap", "∩"},
    {"cup", "∪"},       {"subset", "⊂"},
    {"supset", "⊃"},    {"langle", "⟨"},
    {"rangle", "⟩"},    {"bullet", "•"},
    {"deg", "°"},       {"degree", "°"},
    {"ge", "≥"},        {"le", "≤"},
    {"copyright", "©"}, {"Re", "ℜ"},
    {"Im", "ℑ"},        {"aleph", "ℵ"},
    {"wp", "℘"},        {"oplus", "⊕"},
    {"otimes", "⊗"},    {"perp", "⊥"},
    {"mid", "|"},       {"wedge", "∧"},
    {"vee", "∨"},       {"clubsuit", "♣"}};

/// Splits s into runs (TeX when tex, else one plain run).
std::vector<Run> parse_tex(const std::string& s, bool tex, bool bold) {
  std::vector<Run> runs;
  Run cur;
  cur.bold = bold;
  auto flush = [&] {
    if (!cur.text.empty()) runs.push_back(cur);
    cur.text.clear();
  };
  if (!tex) {
    cur.text = s;
    flush();
    return runs;
  }
  size_t i = 0;
  auto read_group = [&](size_t& k) -> std::string {
    // after ^ or _: {...} or one character (a UTF-8 sequence or a \command).
    if (k < s.size() && s[k] == '{') {
      int depth = 1;
      size_t j = k + 1;
      std::string g;
      while (j < s.size() && depth > 0) {
        if (s[j] == '{') ++depth;
        if (s[j] == '}' && --depth == 0) break;
        g.push_back(s[j++]);
      }
      k = j + 1;
      return g;
    }
    if (k < s.size() && s[k] == '\\') {
      size_t j = k + 1;
      while (j < s.size() && std::isalpha(static_cast<unsigned char>(s[j]))) ++j;
      std::string g = s.substr(k, j - k);
      k = j;
      return g;
    }
    if (k >= s.size()) return "";
    size_t len = 1;
    const unsigned char c = static_cast<unsigned char>(s[k]);
    if (c >= 0xF0)
      len = 4;
    else if (c >= 0xE0)
      len = 3;
    else if (c >= 0xC0)
      len = 2;
    std::string g = s.substr(k, len);
    k += len;
    return g;
  };
  std::function<void(const std::string&, int)> emit;
  emit = [&](const std::string& t, int level) {
    size_t k = 0;
    const int saved = cur.level;
    while (k < t.size()) {
      const char c = t[k];
      if (c == '\\' && k + 1 < t.size()) {
        const char n = t[k + 1];
        if (std::strchr("_^{}\\", n)) {
          cur.text.push_back(n);
          k += 2;
          continue;
        }
        size_t j = k + 1;
        while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
        const std::string name = t.substr(k + 1, j - k - 1);
        k = j;
        if (name == "bf" || name == "it" || name == "rm" || name == "sl") {
          flush();
          if (name == "bf") cur.bold = true;
          if (name == "it" || name == "sl") cur.italic = true;
          if (name == "rm") cur.bold = cur.italic = false;
          continue;
        }
        bool found = false;
        for (const auto& [nm, u] : kTexSymbols)
          if (name == nm) {
            cur.text += u;
            found = true;
            break;
          }
        if (!found) cur.text += "\\" + name;
        if (k < t.size() && t[k] == ' ' && found && name.size() > 0 && false) ++k;
        continue;
      }
      if ((c == '^' || c == '_') && k + 1 < t.size()) {
        ++k;
        const std::string g = read_group(k);
        flush();
        cur.level = level + (c == '^' ? 1 : -1);
        emit(g, cur.level);
        flush();
        cur.level = saved;
        continue;
      }
      if (c == '{' || c == '}') {
        ++k;
        continue;
      }
      cur.text.push_back(c);
      ++k;
    }
  };
  cur.level = 0;
  emit(s, 0);
  flush();
  (void)i;
  return runs;
}

void select_font(cairo_t* cr, double size_px, bool bold, bool italic) {
  cairo_select_font_face(cr, kFont, italic ? CAIRO_FONT_SLANT_OBLIQUE : CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size_px);
}

double run_size(double size_px, int level) { return level == 0 ? size_px : size_px * 0.7; }
double run_rise(double size_px, int level) {
  return level > 0 ? -0.38 * size_px : (level < 0 ? 0.18 * size_px : 0.0);
}

double line_width(cairo_t* cr, const std::vector<Run>& runs, double size_px) {
  double w = 0;
  for (const Run& r : runs) {
    select_font(cr, run_size(size_px, r.level), r.bold, r.italic);
    cairo_text_extents_t e;
    cairo_text_extents(cr, r.text.c_str(), &e);
    w += e.x_advance;
  }
  return w;
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else if (c == '"')
      o += "&quot;";
    else
      o.push_back(c);
  }
  return o;
}

}  // namespace

std::vector<std::string> text_lines(const Value& v) {
  std::vector<std::string> out;
  if (v.is_text()) {
    std::string s = v.to_text();
    size_t p = 0;
    while (true) {
      const size_t q = s.find('\n', p);
      out.push_back(s.substr(p, q == std::string::npos ? std::string::npos : q - p));
      if (q == std::string::npos) break;
      p = q + 1;
    }
    return out;
  }
  if (v.is_cell()) {
    for (int64_t i = 0; i < v.numel(); ++i)
      for (const auto& l : text_lines(v.cell()[i])) out.push_back(l);
    return out;
  }
  if (v.is_string()) {
    for (int64_t i = 0; i < v.numel(); ++i)
      out.push_back(v.string_array()[i] ? *v.string_array()[i] : "");
    return out;
  }
  if (v.is_char() && v.dims().rows() > 1) {
    Tensor t = v.tensor();
    const int64_t r = t.dims().rows(), c = t.dims().cols();
    for (int64_t i = 0; i < r; ++i) {
      std::string l;
      for (int64_t j = 0; j < c; ++j) l.push_back(static_cast<char>(t.get_double(i + j * r)));
      while (!l.empty() && l.back() == ' ') l.pop_back();
      out.push_back(l);
    }
    return out;
  }
  if (v.is_tensor() && !v.is_empty()) {
    Tensor t = v.tensor();
    for (int64_t i = 0; i < t.numel(); ++i) {
      char b[64];
      std::snprintf(b, sizeof b, "%g", t.get_double(i));
      out.push_back(b);
    }
  }
  return out;
}

std::array<double, 2> text_size(cairo_t* cr, const std::string& s, double size_pt, bool bold) {
  const double px = size_pt * kPt;
  double w = 0;
  int lines = 0;
  size_t p = 0;
  while (true) {
    const size_t q = s.find('\n', p);
    const std::string l = s.substr(p, q == std::string::npos ? std::string::npos : q - p);
    w = std::max(w, line_width(cr, parse_tex(l, true, bold), px));
    ++lines;
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return {w, lines * px * 1.2};
}

void draw_text(cairo_t* cr, const std::string& s, double x, double y, double size_pt, bool bold,
               const Rgb& color, const std::string& h, const std::string& v, double rot, bool tex) {
  if (s.empty()) return;
  const double px = size_pt * kPt;
  std::vector<std::vector<Run>> lines;
  std::string stripped;
  if (tex && s.find('$') != std::string::npos) {  // LaTeX math: drawn with the TeX subset
    for (char c : s)
      if (c != '$') stripped.push_back(c);
  }
  const std::string& s_used = stripped.empty() ? s : stripped;
  size_t p = 0;
  while (true) {
    const size_t q = s_used.find('\n', p);
    lines.push_back(
        parse_tex(s_used.substr(p, q == std::string::npos ? std::string::npos : q - p), tex, bold));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  select_font(cr, px, bold, false);
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  const double lh = px * 1.2;
  const double total = lh * static_cast<double>(lines.size());
  // Baseline of the first line relative to the anchor.
  double base;
  const double asc = fe.ascent * 0.92, desc = fe.descent;
  if (v == "top")
    base = asc;
  else if (v == "cap")
    base = px * 0.73;
  else if (v == "bottom")
    base = -(total - lh) - desc;
  else if (v == "baseline")
    base = 0;
  else
    base = (asc - desc) / 2 - (total - lh) / 2;
  cairo_save(cr);
  cairo_translate(cr, x, y);
  if (rot != 0) cairo_rotate(cr, -rot * M_PI / 180.0);
  SvgTextSink* sink = svg_text_sink();
  for (size_t li = 0; li < lines.size(); ++li) {
    const double w = line_width(cr, lines[li], px);
    double cx = h == "center" ? -w / 2 : (h == "right" ? -w : 0);
    const double by = base + static_cast<double>(li) * lh;
    for (const Run& r : lines[li]) {
      const double rs = run_size(px, r.level);
      select_font(cr, rs, r.bold, r.italic);
      cairo_text_extents_t e;
      cairo_text_extents(cr, r.text.c_str(), &e);
      const double ry = by + run_rise(px, r.level);
      if (sink) {
        double dx = cx, dy = ry;
        cairo_user_to_device(cr, &dx, &dy);
        char head[512];
        std::snprintf(head, sizeof head,
                      "<text x=\"%.2f\" y=\"%.2f\" font-family=\"DejaVu Sans\" "
                      "font-size=\"%.2f\" font-weight=\"%s\" font-style=\"%s\" "
                      "fill=\"#%02x%02x%02x\"",
                      dx, dy, rs * sink->scale, r.bold ? "bold" : "normal",
                      r.italic ? "oblique" : "normal", static_cast<int>(color[0] * 255 + 0.5),
                      static_cast<int>(color[1] * 255 + 0.5),
                      static_cast<int>(color[2] * 255 + 0.5));
        std::string el = head;
        if (rot != 0) {
          char tr[128];
          std::snprintf(tr, sizeof tr, " transform=\"rotate(%.2f %.2f %.2f)\"", -rot, dx, dy);
          el += tr;
        }
        el += ">" + xml_escape(r.text) + "</text>\n";
        sink->elements += el;
      } else {
        set_rgb(cr, color);
        cairo_move_to(cr, cx, ry);
        cairo_show_text(cr, r.text.c_str());
        cairo_new_path(cr);
      }
      cx += e.x_advance;
    }
  }
  cairo_restore(cr);
}

}  // namespace matfuse::gfx

#endif  // MATFUSE_HAVE_CAIRO
