// `matfuse --install-kernel`: the kernel spec (see jupyter_kernel.h).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/jupyter_kernel.h"

namespace matfuse::cli {

namespace {

namespace fs = std::filesystem;

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

fs::path self_path() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path("matfuse") : p;
}

fs::path jupyter_data_dir() {
  if (const char* d = std::getenv("JUPYTER_DATA_DIR")) return d;
  if (const char* x = std::getenv("XDG_DATA_HOME")) return fs::path(x) / "jupyter";
  const char* home = std::getenv("HOME");
  return fs::path(home ? home : ".") / ".local/share/jupyter";
}

}  // namespace

int install_kernel(const std::string& prefix, bool profile) {
#ifndef MATFUSE_HAVE_JUPYTER
  (void)prefix;
  (void)profile;
  std::cerr << "matfuse: this build has no Jupyter kernel (xeus was not found at build time)\n";
  return 2;
#else
  const fs::path base = prefix.empty() ? jupyter_data_dir() : fs::path(prefix) / "share/jupyter";
  const fs::path dir = base / "kernels" / "matfuse";
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::ofstream f(dir / "kernel.json");
  f << "{\n  \"argv\": [" << json_string(self_path().string())
    << ", \"--jupyter-kernel\"" << (profile ? ", \"--profile\"" : "")
    << ", \"-f\", \"{connection_file}\"],\n"
    << "  \"display_name\": \"MATLAB (matfuse)\",\n"
    << "  \"language\": \"matlab\",\n"
    << "  \"interrupt_mode\": \"signal\"\n}\n";
  f.close();
  if (!f) {
    std::cerr << "matfuse: cannot write " << (dir / "kernel.json").string() << "\n";
    return 2;
  }
  std::cout << "Installed the matfuse kernel spec in " << dir.string() << "\n";
  return 0;
#endif
}

}  // namespace matfuse::cli
