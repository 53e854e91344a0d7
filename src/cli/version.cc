#include "cli/version.h"

#include "graphics/render.h"

#ifndef MATFUSE_VERSION
#define MATFUSE_VERSION "0.0.0"
#endif

namespace matfuse::cli {

std::string version_text() {
  struct Feature {
    const char* name;
    bool built;
    const char* what;
  };
  const Feature features[] = {
#ifdef MATFUSE_HAVE_FFTW
      {"FFTW", true, "fft, ifft, fft2, ifft2"},
#else
      {"FFTW", false, "fft, ifft, fft2, ifft2"},
#endif
#ifdef MATFUSE_HAVE_PCRE2
      {"PCRE2", true, "regexp, regexpi, regexprep"},
#else
      {"PCRE2", false, "regexp, regexpi, regexprep"},
#endif
#ifdef MATFUSE_HAVE_MATIO
      {"libmatio", true, "save and load of MAT files"},
#else
      {"libmatio", false, "save and load of MAT files"},
#endif
#ifdef MATFUSE_HAVE_SUITESPARSE
      {"SuiteSparse", true, "sparse direct solvers: mldivide, chol, lu (CHOLMOD, UMFPACK, SPQR)"},
#else
      {"SuiteSparse", false, "sparse direct solvers: mldivide, chol, lu (CHOLMOD, UMFPACK, SPQR)"},
#endif
#ifdef MATFUSE_HAVE_ARPACK
      {"ARPACK", true, "eigs, svds of large matrices"},
#else
      {"ARPACK", false, "eigs, svds of large matrices"},
#endif
#ifdef MATFUSE_HAVE_DATE_TZ
      {"date/tz", true, "datetime time zones (IANA database)"},
#else
      {"date/tz", false, "datetime time zones (IANA database)"},
#endif
#ifdef MATFUSE_HAVE_READLINE
      {"readline", true, "line editing, completion and history at the prompt"},
#else
      {"readline", false, "line editing, completion and history at the prompt"},
#endif
#ifdef MATFUSE_HAVE_VULKAN
      {"Vulkan+glslang", true, "the Vulkan GPU provider (--device vulkan)"},
#else
      {"Vulkan+glslang", false, "the Vulkan GPU provider (--device vulkan)"},
#endif
#ifdef MATFUSE_HAVE_SLEEF
      {"SLEEF", true, "vectorised single-precision functions of --math fast on the CPU"},
#else
      {"SLEEF", false, "vectorised single-precision functions of --math fast on the CPU"},
#endif
#ifdef MATFUSE_HAVE_MPI
      {"MPI", true, "parpool, parfor and spmd on MPI workers"},
#else
      {"MPI", false, "parpool, parfor and spmd on MPI workers"},
#endif
      // Only the graphics sources see MATFUSE_HAVE_CAIRO: ask them.
      {"Cairo", gfx::rendering_available(), "figures to PNG, SVG and PDF"},
#ifdef MATFUSE_HAVE_JUPYTER
      {"Jupyter kernel", true, "matfuse --install-kernel, notebooks"},
#else
      {"Jupyter kernel", false, "matfuse --install-kernel, notebooks"},
#endif
  };
  std::string s = std::string("matfuse ") + MATFUSE_VERSION + "\noptional features:\n";
  for (const Feature& f : features) {
    std::string name = f.name;
    name.resize(16, ' ');
    s += std::string("  ") + name + (f.built ? "yes  " : "no   ") + f.what + "\n";
  }
  return s;
}

}  // namespace matfuse::cli
