// Images and gridded data: image, imagesc, imshow, surf, mesh, pcolor, contour, contourf.
#include <algorithm>
#include <cmath>

#include "graphics/bi_util.h"
#include "graphics/colormaps.h"
#include "graphics/geometry.h"

namespace matfuse::gfx {

namespace {

GPtr grid_axes(Args& args, bool& held) {
  GPtr ax = take_axes(args);
  if (!ax)
    ax = current_axes(true);
  else
    make_current_axes(ax);
  held = hold_on(*ax);
  if (!held) reset_axes(ax);
  return ax;
}

size_t data_count(Args args) {
  size_t n = 0;
  while (n < args.size() && !args[n].is_text()) ++n;
  return n;
}

/// image/imagesc(C), (x, y, C): XData/YData are the first and last pixel centres.
GPtr make_image(const GPtr& ax, Args args, size_t nd, bool scaled) {
  GPtr im = create("image", ax);
  const Value C = args[nd >= 3 ? 2 : 0];
  if (!C.is_tensor() || C.is_char())
    throw_error("MATLAB:image:InvalidCData", "Image CData must be numeric or logical.");
  im->put("CData", C);
  const int64_t rows = C.dims().rows(), cols = C.dims().cols();
  if (nd >= 3) {
    // Empty x or y take the default pixel centres (front() of an empty vector was read).
    std::vector<double> x = values(num(args[0], "image")), y = values(num(args[1], "image"));
    im->put("XData", x.empty() ? row_value({1, static_cast<double>(cols)})
                               : row_value({x.front(), x.back()}));
    im->put("YData", y.empty() ? row_value({1, static_cast<double>(rows)})
                               : row_value({y.front(), y.back()}));
  } else {
    im->put("XData", row_value({1, static_cast<double>(cols)}));
    im->put("YData", row_value({1, static_cast<double>(rows)}));
  }
  im->put("CDataMapping", Value::from_chars(scaled ? "scaled" : "direct"));
  return im;
}

void image_axes_look(const GPtr& ax, bool held) {
  if (held) return;
  ax->put("YDir", Value::from_chars("reverse"));
  ax->put("Box", Value::from_chars("on"));
  ax->put("Layer", Value::from_chars("top"));
}

Outputs bi_image(CallContext&, Args args, int nargout) {
  bool held;
  GPtr ax = grid_axes(args, held);
  const size_t nd = data_count(args);
  if (nd == 0) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  GPtr im = make_image(ax, args, nd, false);
  set_pairs(im, args, nd);
  image_axes_look(ax, held);
  return handles_out({im}, nargout);
}

Outputs bi_imagesc(CallContext&, Args args, int nargout) {
  bool held;
  GPtr ax = grid_axes(args, held);
  size_t nd = data_count(args);
  if (nd == 0) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  Value clim;
  if (nd == 2 || nd == 4) {  // imagesc(C, clims) / imagesc(x, y, C, clims)
    clim = args[nd - 1];
    --nd;
  }
  GPtr im = make_image(ax, args, nd, true);
  if (!clim.is_empty()) set_prop(ax, "CLim", clim);
  set_pairs(im, args, nd + (clim.is_empty() ? 0 : 1));
  image_axes_look(ax, held);
  return handles_out({im}, nargout);
}

/// imshow(I), imshow(I, [lo hi]), imshow(I, []), imshow(X, map): the image at its pixel
/// aspect ratio with the axes hidden.
Outputs bi_imshow(CallContext&, Args args, int nargout) {
  if (args.empty()) throw_error("MATLAB:minrhs", "Not enough input arguments.");
  if (args[0].is_text())
    throw_error("matfuse:notAvailable",
                "imshow of an image file needs imread, which matfuse "
                "does not provide.");
  if (!args[0].is_tensor() || args[0].is_char())
    throw_error("MATLAB:imshow:InvalidInput", "imshow: IM must be an image");
  const Dims& idims = args[0].dims();
  if (idims.ndims() > 3 || (idims.ndims() == 3 && idims[2] != 3))
    throw_error("MATLAB:imshow:InvalidInput", "imshow: image must be MxN or MxNx3 matrix");
  if (idims.ndims() == 3) {
    const ClassId c = args[0].cls();
    if (c != ClassId::Double && c != ClassId::Single && c != ClassId::UInt8 &&
        c != ClassId::UInt16 && c != ClassId::Logical)
      throw_error("MATLAB:imshow:InvalidInput",
                  "imshow: TrueColor image must be uint8, uint16, double, or single");
  }
  GPtr ax = current_axes(true);
  const bool held = hold_on(*ax);
  if (!held) reset_axes(ax);
  Value I = args[0];
  GPtr im = create("image", ax);
  im->put("CData", I);
  im->put("XData", row_value({1, static_cast<double>(I.dims().cols())}));
  im->put("YData", row_value({1, static_cast<double>(I.dims().rows())}));
  const bool truecolor = I.dims().ndims() == 3;
  size_t k = 1;
  if (!truecolor) {
    // Grayscale: intensities over [0 1] (double), the class range (integers), or the given
    // display range.
    double lo = 0, hi = 1;
    Tensor t = I.tensor();
    if (t.cls() == ClassId::UInt8)
      hi = 255;
    else if (t.cls() == ClassId::UInt16)
      hi = 65535;
    else if (t.cls() == ClassId::Logical)
      hi = 1;
    bool colormap_given = false;
    if (args.size() >= 2 && !args[1].is_text()) {
      if (args[1].dims().cols() == 3 && args[1].dims().rows() > 1) {  // indexed with map
        ax->put("Colormap", Value(num(args[1], "imshow").to_class(ClassId::Double)));
        im->put("CDataMapping", Value::from_chars("direct"));
        colormap_given = true;
      } else if (args[1].is_empty()) {
        lo = INFINITY;
        hi = -INFINITY;
        for (int64_t i = 0; i < t.numel(); ++i) {
          lo = std::min(lo, t.get_double(i));
          hi = std::max(hi, t.get_double(i));
        }
        if (!(hi > lo)) hi = lo + 1;
      } else {
        Tensor r = num(args[1], "imshow");
        lo = r.get_double(0);
        hi = r.get_double(1);
      }
      k = 2;
    }
    if (!colormap_given) {
      im->put("CDataMapping", Value::from_chars("scaled"));
      ax->put("Colormap", colormap_value("gray", 256));
      set_prop(ax, "CLim", row_value({lo, hi}));
    }
  }
  set_pairs(im, args, k);
  ax->put("YDir", Value::from_chars("reverse"));
  ax->put("DataAspectRatio", row_value({1, 1, 1}));
  ax->put("DataAspectRatioMode", Value::from_chars("manual"));
  ax->put("_Tight", Value::from_chars("on"));
  ax->put("Visible", Value::from_chars("off"));
  return handles_out({im}, nargout);
}

/// surf/mesh/pcolor data: (Z), (Z, C), (X, Y, Z), (X, Y, Z, C).
GPtr make_surface(const GPtr& ax, Args args, size_t nd, bool flat_z) {
  GPtr s = create("surface", ax);
  Tensor Z, C;
  Tensor X, Y;
  if (nd == 1 || nd == 2) {
    Z = num(args[0], "surf");
    if (nd == 2) C = num(args[1], "surf");
  } else if (nd >= 3) {
    X = num(args[0], "surf");
    Y = num(args[1], "surf");
    Z = num(args[2], "surf");
    if (nd >= 4) C = num(args[3], "surf");
  } else {
    throw_error("MATLAB:minrhs", "Not enough input arguments.");
  }
  const int64_t rows = Z.dims().rows(), cols = Z.dims().cols();
  if (rows < 2 || cols < 2)
    throw_error("MATLAB:surf:InvalidZData", "Z must be a matrix, not a scalar or vector.");
  if (X.numel() == 0) {
    std::vector<double> x, y;
    for (int64_t j = 0; j < cols; ++j) x.push_back(static_cast<double>(j + 1));
    for (int64_t i = 0; i < rows; ++i) y.push_back(static_cast<double>(i + 1));
    s->put("XData", row_value(x));
    s->put("YData", Value(row_value(y).tensor().reshaped(Dims(rows, 1))));
  } else {
    const bool xv = X.dims().rows() == 1 || X.dims().cols() == 1;
    const bool yv = Y.dims().rows() == 1 || Y.dims().cols() == 1;
    if ((xv && X.numel() != cols) || (!xv && X.dims() != Z.dims()) || (yv && Y.numel() != rows) ||
        (!yv && Y.dims() != Z.dims()))
      throw_error("MATLAB:surf:XYZMustBeSameSize", "Data dimensions must agree.");
    s->put("XData", Value(X.to_class(ClassId::Double)));
    s->put("YData", Value(Y.to_class(ClassId::Double)));
  }
  Tensor zd = Z.to_class(ClassId::Double);
  s->put("CData", Value(C.numel() ? C.to_class(ClassId::Double) : zd));
  if (flat_z) zd = Tensor::zeros(ClassId::Double, Z.dims());
  s->put("ZData", Value(zd));
  return s;
}

Outputs surf_impl(Args args, int nargout, const char* kind) {
  bool held;
  GPtr ax = grid_axes(args, held);
  const size_t nd = data_count(args);
  const std::string k = kind;
  GPtr s = make_surface(ax, args, nd, k == "pcolor");
  if (k == "mesh") {
    s->put("FaceColor", rgb_value({1, 1, 1}));
    s->put("EdgeColor", Value::from_chars("flat"));
  }
  set_pairs(s, args, nd);
  if (!held) {
    if (k == "pcolor") {
      ax->put("Box", Value::from_chars("on"));
      ax->put("Layer", Value::from_chars("top"));
      ax->put("_Tight", Value::from_chars("on"));
    } else {
      ax->put("View", row_value({-37.5, 30}));
      for (const char* g : {"XGrid", "YGrid", "ZGrid"}) ax->put(g, Value::from_chars("on"));
    }
  }
  add_plotted(ax, s);
  return handles_out({s}, nargout);
}

Outputs bi_surf(CallContext&, Args a, int n) { return surf_impl(a, n, "surf"); }
Outputs bi_mesh(CallContext&, Args a, int n) { return surf_impl(a, n, "mesh"); }
Outputs bi_pcolor(CallContext&, Args a, int n) { return surf_impl(a, n, "pcolor"); }

/// contour/contourf: (Z), (Z, n|levels), (X, Y, Z), (X, Y, Z, n|levels), then a LineSpec and
/// name-value pairs. Returns [M, c] (M the contour matrix is not computed: []).
Outputs contour_impl(Args args, int nargout, bool fill) {
  bool held;
  GPtr ax = grid_axes(args, held);
  size_t nd = data_count(args);
  GPtr c = create("contour", ax);
  Tensor Z, X, Y;
  Value levels;
  if (nd == 1 || nd == 2) {
    Z = num(args[0], "contour");
    if (nd == 2) levels = args[1];
  } else if (nd == 3 || nd == 4) {
    X = num(args[0], "contour");
    Y = num(args[1], "contour");
    Z = num(args[2], "contour");
    if (nd == 4) levels = args[3];
  } else {
    throw_error("MATLAB:minrhs", "Not enough input arguments.");
  }
  if (Z.dims().rows() < 2 || Z.dims().cols() < 2)
    throw_error("MATLAB:contour:ZMustBeAtLeast2x2", "Z must be at least a 2x2 matrix.");
  const int64_t rows = Z.dims().rows(), cols = Z.dims().cols();
  if (X.numel() == 0) {
    std::vector<double> x, y;
    for (int64_t j = 0; j < cols; ++j) x.push_back(static_cast<double>(j + 1));
    for (int64_t i = 0; i < rows; ++i) y.push_back(static_cast<double>(i + 1));
    c->put("XData", row_value(x));
    c->put("YData", Value(row_value(y).tensor().reshaped(Dims(rows, 1))));
  } else {
    c->put("XData", Value(X.to_class(ClassId::Double)));
    c->put("YData", Value(Y.to_class(ClassId::Double)));
  }
  c->put("ZData", Value(Z.to_class(ClassId::Double)));
  c->put("Fill", Value::from_chars(fill ? "on" : "off"));
  if (fill) c->put("LineColor", rgb_value({0, 0, 0}));
  if (!levels.is_empty()) {
    Tensor l = num(levels, "contour");
    if (l.numel() == 1)
      c->put("_NumLevels", Value(l.get_double(0)));
    else
      set_prop(c, "LevelList", Value(l.to_class(ClassId::Double)));
  }
  size_t k = nd;
  LineSpec ls;
  if (k < args.size() && args[k].is_text() && parse_linespec(args[k].to_text(), ls)) {
    if (ls.has_color) c->put("LineColor", rgb_value(ls.color));
    if (!ls.line_style.empty()) c->put("LineStyle", Value::from_chars(ls.line_style));
    ++k;
  }
  set_pairs(c, args, k);
  c->put("LevelList", row_value(contour_levels(*c)));
  add_plotted(ax, c);
  box_on_if_new(ax, held);
  if (nargout <= 0) return {};
  return {Value(), handle_value(c)};
}

Outputs bi_contour(CallContext&, Args a, int n) { return contour_impl(a, n, false); }
Outputs bi_contourf(CallContext&, Args a, int n) { return contour_impl(a, n, true); }

/// peaks, peaks(n), peaks(V), peaks(X, Y), [X, Y, Z] = peaks(___): MATLAB's sample function of
/// two variables on [-3, 3]^2 (n = 49 by default); without outputs it draws surf(X, Y, Z).
Outputs bi_peaks(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 2);
  check_nargout(nargout, 3);
  Tensor X, Y;
  if (args.size() == 2) {
    X = num(args[0], "peaks").to_class(ClassId::Double);
    Y = num(args[1], "peaks").to_class(ClassId::Double);
    if (X.dims() != Y.dims()) throw_error("MATLAB:dimagree", "Matrix dimensions must agree.");
  } else {
    std::vector<double> v;
    if (args.size() == 1 && args[0].numel() > 1) {
      v = values(num(args[0], "peaks"));
    } else {
      const int64_t n = args.empty() ? 49 : args[0].to_index("n");
      for (int64_t i = 0; i < n; ++i)
        v.push_back(n > 1 ? -3.0 + 6.0 * static_cast<double>(i) / static_cast<double>(n - 1)
                          : -3.0);
    }
    const int64_t n = static_cast<int64_t>(v.size());
    X = Tensor::zeros(ClassId::Double, Dims(n, n));
    Y = X;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        X.set_double(i + j * n, v[j]);
        Y.set_double(i + j * n, v[i]);
      }
  }
  Tensor Z = Tensor::zeros(ClassId::Double, X.dims());
  for (int64_t k = 0; k < X.numel(); ++k) {
    const double x = X.get_double(k), y = Y.get_double(k);
    Z.set_double(k, 3 * (1 - x) * (1 - x) * std::exp(-(x * x) - (y + 1) * (y + 1)) -
                        10 * (x / 5 - x * x * x - std::pow(y, 5)) * std::exp(-x * x - y * y) -
                        1.0 / 3 * std::exp(-(x + 1) * (x + 1) - y * y));
  }
  if (nargout == 0) {
    const Value a[3] = {Value(X), Value(Y), Value(Z)};
    surf_impl(Args(a, 3), 0, "surf");
    return {};
  }
  if (nargout == 1) return {Value(Z)};
  return {Value(X), Value(Y), Value(Z)};
}

}  // namespace

void register_graphics_surface(Registry& r) {
  r.add("peaks", bi_peaks);
  r.add("image", bi_image);
  r.add("imagesc", bi_imagesc);
  r.add("imshow", bi_imshow);
  r.add("surf", bi_surf);
  r.add("mesh", bi_mesh);
  r.add("pcolor", bi_pcolor);
  r.add("contour", bi_contour);
  r.add("contourf", bi_contourf);
}

}  // namespace matfuse::gfx
