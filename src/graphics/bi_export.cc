// Output of figures: saveas, print, exportgraphics (PNG, SVG, PDF through Cairo), and the
// registration of every graphics builtin (register_graphics).
#include <cmath>
#include <map>

#include "graphics/axes_layout.h"
#include "graphics/bi_util.h"
#include "graphics/render.h"
#include "runtime/figure_hook.h"

namespace matfuse::gfx {

namespace {

constexpr double kPrintDpi = 150;  // MATLAB's default print and export resolution

GPtr figure_of(const GPtr& n) {
  GPtr f = n->ancestor("figure");
  if (!f) throw_error("MATLAB:print:InvalidHandle", "Invalid figure or axes handle.");
  return f;
}

[[noreturn]] void unsupported_format(const std::string& f) {
  throw_error("MATLAB:print:InvalidFormat",
              "Unsupported file format '%s'; matfuse writes png, svg and pdf.", f.c_str());
}

ImageFormat format_named(const std::string& f0) {
  const std::string f = lower_ascii(f0);
  if (f == "png") return ImageFormat::Png;
  if (f == "svg") return ImageFormat::Svg;
  if (f == "pdf") return ImageFormat::Pdf;
  unsupported_format(f0);
}

std::string with_extension(const std::string& name, ImageFormat f) {
  ImageFormat g;
  if (format_of_path(name, g)) return name;
  return name + (f == ImageFormat::Png ? ".png" : f == ImageFormat::Svg ? ".svg" : ".pdf");
}

Outputs bi_saveas(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 3);
  check_nargout(nargout, 0);
  GPtr f = figure_of(nodes_of(args[0])[0]);
  std::string name = args[1].to_text("file name");
  ImageFormat fmt = ImageFormat::Png;
  if (args.size() == 3) {
    fmt = format_named(args[2].to_text("format"));
    name = with_extension(name, fmt);
  } else if (!format_of_path(name, fmt)) {
    const size_t dot = name.rfind('.');
    if (dot != std::string::npos) unsupported_format(name.substr(dot + 1));
    name += ".fig";
    throw_error("MATLAB:saveas:figNotSupported",
                "Saving a .fig file is not supported; give a .png, .svg or .pdf name.");
  }
  write_figure(*f, name, fmt, kPrintDpi);
  return {};
}

Outputs bi_print(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 0);
  GPtr f;
  ImageFormat fmt = ImageFormat::Png;
  bool fmt_given = false;
  double dpi = kPrintDpi;
  std::string name;
  for (const Value& a : args) {
    if (a.is_object()) {
      f = figure_of(nodes_of(a)[0]);
      continue;
    }
    const std::string s = a.to_text("print option");
    if (s.rfind("-d", 0) == 0) {
      std::string d = lower_ascii(s.substr(2));
      if (d == "png" || d == "svg" || d == "pdf")
        fmt = format_named(d);
      else if (d == "epsc" || d == "eps" || d == "jpeg" || d == "tiff" || d == "meta")
        unsupported_format(d);
      else
        unsupported_format(d);
      fmt_given = true;
    } else if (s.rfind("-r", 0) == 0) {
      dpi = std::atof(s.c_str() + 2);
      if (dpi <= 0) dpi = 96;  // -r0: screen resolution
    } else if (s.rfind("-f", 0) == 0) {
      f = find_figure(std::atof(s.c_str() + 2));
      if (!f) throw_error("MATLAB:print:InvalidHandle", "Invalid figure handle.");
    } else if (!s.empty() && s[0] == '-') {
      // -painters, -opengl, -vector, -image, -noui, -fillpage, -bestfit: no effect here
    } else {
      name = s;
    }
  }
  if (!f) f = current_figure(true);
  if (name.empty())
    throw_error("matfuse:notAvailable", "print needs a file name: there is no printer.");
  if (!fmt_given) {
    if (!format_of_path(name, fmt)) name = with_extension(name, fmt);
  } else {
    name = with_extension(name, fmt);
  }
  write_figure(*f, name, fmt, dpi);
  return {};
}

Outputs bi_exportgraphics(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 0);
  if (args.size() < 2) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  GPtr f = figure_of(nodes_of(args[0])[0]);
  const std::string name = args[1].to_text("file name");
  ImageFormat fmt;
  if (!format_of_path(name, fmt)) {
    const size_t dot = name.rfind('.');
    unsupported_format(dot == std::string::npos ? name : name.substr(dot + 1));
  }
  double dpi = kPrintDpi;
  for (size_t i = 2; i + 1 < args.size(); i += 2) {
    const std::string o = opt(args[i]);
    if (o == "resolution")
      dpi = args[i + 1].to_double("Resolution");
    else if (o != "backgroundcolor" && o != "contenttype" && o != "colorspace" && o != "append")
      throw_error("MATLAB:exportgraphics:InvalidOption", "Invalid option '%s'.",
                  args[i].to_text().c_str());
  }
  write_figure(*f, name, fmt, dpi);
  return {};
}

/// The notebook hook (runtime/figure_hook.h): every open figure whose rendered image differs
/// from the one last returned for its number (new figures included), as 96-dpi PNG.
std::vector<RenderedFigure> changed_figures() {
  static std::map<int, std::string> shown;
  std::vector<RenderedFigure> out;
  std::map<int, std::string> now;
  for (const auto& f : figures()) {
    const int number = static_cast<int>(f->num("Number"));
    std::string png = render_figure(*f, ImageFormat::Png, 96);
    auto it = shown.find(number);
    if (it == shown.end() || it->second != png) {
      const auto sz = figure_size(*f);
      out.push_back({number, png, static_cast<int>(std::lround(sz[0])),
                     static_cast<int>(std::lround(sz[1]))});
    }
    now[number] = std::move(png);
  }
  shown = std::move(now);
  return out;
}

}  // namespace

void register_graphics_export(Registry& r) {
  if (rendering_available()) set_figure_render_hook(&changed_figures);
  r.add("saveas", bi_saveas);
  r.add("print", bi_print);
  r.add("exportgraphics", bi_exportgraphics);
}

}  // namespace matfuse::gfx

namespace matfuse {

void register_graphics(Registry& r) {
  gfx::register_graphics_core(r);
  gfx::register_graphics_annot(r);
  gfx::register_graphics_plot(r);
  gfx::register_graphics_charts(r);
  gfx::register_graphics_surface(r);
  gfx::register_graphics_export(r);
}

}  // namespace matfuse
