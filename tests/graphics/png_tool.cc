// PNG comparison and montage for the golden-image tests (uses Cairo's PNG reader and writer).
//
//   png_tool compare GOLDEN.png ACTUAL.png
//     Exit 0 when both images have the same size and at most 0.5% of the pixels differ by more
//     than 64 levels in some channel (anti-aliasing and font hinting may move edges slightly);
//     prints the share of differing pixels.
//   png_tool montage OUT.png COLUMNS IN1.png IN2.png ...
//     Tiles the images (each scaled to the first image's size) into one PNG.
#include <cairo.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

cairo_surface_t* load(const char* path) {
  cairo_surface_t* s = cairo_image_surface_create_from_png(path);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    std::fprintf(stderr, "png_tool: cannot read %s\n", path);
    std::exit(2);
  }
  return s;
}

int compare(const char* golden, const char* actual) {
  cairo_surface_t* a = load(golden);
  cairo_surface_t* b = load(actual);
  const int w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a);
  if (w != cairo_image_surface_get_width(b) || h != cairo_image_surface_get_height(b)) {
    std::printf("size differs: %dx%d vs %dx%d\n", w, h, cairo_image_surface_get_width(b),
                cairo_image_surface_get_height(b));
    return 1;
  }
  const unsigned char* pa = cairo_image_surface_get_data(a);
  const unsigned char* pb = cairo_image_surface_get_data(b);
  const int sa = cairo_image_surface_get_stride(a), sb = cairo_image_surface_get_stride(b);
  long bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c)
        if (std::abs(pa[y * sa + 4 * x + c] - pb[y * sb + 4 * x + c]) > 64) {
          ++bad;
          break;
        }
  const double share = static_cast<double>(bad) / (static_cast<double>(w) * h);
  std::printf("%.3f%% of pixels differ\n", 100 * share);
  cairo_surface_destroy(a);
  cairo_surface_destroy(b);
  return share <= 0.005 ? 0 : 1;
}

int montage(const char* out, int cols, int n, char** files) {
  cairo_surface_t* first = load(files[0]);
  const int w = cairo_image_surface_get_width(first), h = cairo_image_surface_get_height(first);
  cairo_surface_destroy(first);
  const int rows = (n + cols - 1) / cols;
  cairo_surface_t* m = cairo_image_surface_create(CAIRO_FORMAT_RGB24, cols * w, rows * h);
  cairo_t* cr = cairo_create(m);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  for (int i = 0; i < n; ++i) {
    cairo_surface_t* s = load(files[i]);
    cairo_save(cr);
    cairo_translate(cr, (i % cols) * w, (i / cols) * h);
    cairo_scale(cr, static_cast<double>(w) / cairo_image_surface_get_width(s),
                static_cast<double>(h) / cairo_image_surface_get_height(s));
    cairo_set_source_surface(cr, s, 0, 0);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, (i % cols) * w + 0.5, (i / cols) * h + 0.5, w - 1, h - 1);
    cairo_stroke(cr);
    cairo_surface_destroy(s);
  }
  cairo_destroy(cr);
  const cairo_status_t st = cairo_surface_write_to_png(m, out);
  cairo_surface_destroy(m);
  return st == CAIRO_STATUS_SUCCESS ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "compare") == 0) return compare(argv[2], argv[3]);
  if (argc >= 5 && std::strcmp(argv[1], "montage") == 0)
    return montage(argv[2], std::atoi(argv[3]), argc - 4, argv + 4);
  std::fprintf(stderr, "usage: png_tool compare GOLDEN ACTUAL | montage OUT COLS IN...\n");
  return 2;
}
