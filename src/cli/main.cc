// matfuse: command-line runner.
//
//   matfuse script.m        run a script (its folder is on the path)
//   matfuse -e 'code'       run code text
//   matfuse [-i]            interactive prompt (readline when available), workspace kept
//   matfuse --version | --help
//   --profile             after the run, print the fusion groups run (stderr)
//   --graph FILE.mmd      write the acceleration graph of the evaluated plans (Mermaid)
//   --trace FILE.json     write a Chrome trace-event file (interpreter, planning, kernels)
//   --list-builtins       print every registered builtin name, one per line, sorted
//   --figures DIR         at the end, write every open figure as DIR/figureN.png (also
//                         MATFUSE_FIGURES=DIR)
//
// Exit status: 0 success, 1 MATLAB error (message on stderr in MATLAB's layout), 2 usage error
// or internal error, 130 interrupted (SIGINT / Ctrl-C: "Operation terminated by user"), n after
// `exit(n)` / `quit(n)`. The interpreter runs on a thread with a large stack so that deep MATLAB
// recursion hits MATLAB:recursionLimit, not a C++ stack overflow.
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "accel/run/dispatch.h"
#include "accel/emit/fast_math.h"
#include "accel/capture/lazy.h"
#include "accel/plan/placement.h"
#include "cli/accel_commands.h"
#include "accel/run/report.h"
#include "accel/run/telemetry.h"
#include "builtins/console.h"
#include "builtins/registry.h"
#include "cli/jupyter_kernel.h"
#include "cli/repl.h"
#include "cli/run_guarded.h"
#include "cli/version.h"
#include "graphics/graphics.h"
#include "interp/interp.h"
#include "parallel/mpi.h"
#include "parallel/parallel.h"
#include "providers/standard.h"
#include "runtime/atomic_file.h"
#include "runtime/options.h"
#include "runtime/session.h"


namespace {

using matfuse::Interpreter;
using matfuse::MatlabError;
using matfuse::Session;
using matfuse::cli::run_guarded;
using matfuse::cli::RunStatus;

const char kUsage[] =
    "usage: matfuse [options] [script.m]\n"
    "  script.m        run a MATLAB script\n"
    "  -e CODE         run CODE\n"
    "  -i              interactive prompt (default when no script is given)\n"
    "  --profile       print the fusion groups that ran (after the run, on stderr)\n"
    "  --graph FILE    write the acceleration graph of the evaluated plans (Mermaid)\n"
    "  --trace FILE    write a Chrome trace-event JSON (interpreter, planning, kernels)\n"
    "  --list-builtins print the registered builtin names, one per line, sorted\n"
    "  --figures DIR   at the end, write each open figure as DIR/figureN.png\n"
    "                  (also MATFUSE_FIGURES)\n"
    "  --device D      where fused kernels run: auto (default: costed per group), cpu, gpu\n"
    "                  (the CUDA provider, else Vulkan), cuda or vulkan (also MATFUSE_DEVICE)\n"
    "  --math M        exact (default: host and GPU give the same bits) or fast (documented\n"
    "                  approximations, docs/math-modes.md; also MATFUSE_MATH)\n"
    "  calibrate       measure this machine for the placement cost model and save the profile\n"
    "  accel-info      print the GPU, the calibration in use and the kernel cache\n"
    "  --install-kernel [--prefix DIR]  register the Jupyter kernel (kernel.json in the user's\n"
    "                  Jupyter data folder, or DIR/share/jupyter); with --profile every cell\n"
    "                  ends with the profile table\n"
    "  --jupyter-kernel -f FILE  run as a Jupyter kernel (started by Jupyter)\n"
    "  --version       print the version and the optional features built in\n"
    "  --parallel-worker  serve as a parallel worker (started by parpool; not for direct use)\n"
    "  --help          print this help\n";

using matfuse::Options;

/// Writes text to path (atomically: a temporary file renamed over it); false (with a message)
/// when the file cannot be written.
bool write_file(const std::string& path, const std::string& text) {
  try {
    matfuse::write_file_atomic(path, text);
  } catch (const MatlabError& e) {
    std::cerr << "matfuse: " << e.message() << "\n";
    return false;
  }
  return true;
}

/// The --profile, --graph and --trace outputs of a run that spanned [t0, t1]; false when a
/// file could not be written (the run then exits with status 2).
bool write_reports(const Options& o, double t0, double t1) {
  if (!o.profile && o.trace_file.empty() && o.graph_file.empty()) return true;
  const auto evals = matfuse::accel::telemetry().snapshot();
  if (o.profile)
    std::cerr << matfuse::accel::profile_table(evals, t1 - t0)
              << matfuse::accel::sync_summary(matfuse::accel::telemetry().syncs())
              << matfuse::cli::device_summary();
  bool ok = true;
  if (!o.trace_file.empty())
    ok = write_file(o.trace_file, matfuse::accel::trace_json(evals, t0, t1)) && ok;
  if (!o.graph_file.empty()) ok = write_file(o.graph_file, matfuse::accel::graph_mermaid()) && ok;
  return ok;
}

/// Started by parpool (MPI_Comm_spawn): serve requests instead of running a script.
bool g_parallel_worker = false;

int run(const Options& o) {
  // Parallel workers (parallel/mpi.h): a process parpool spawned, or a rank > 0 of an mpirun
  // launch, serves requests; rank 0 runs the script with the ranks as its pool.
  if (g_parallel_worker) return matfuse::parallel::mpi_spawned_worker_main();
  const int rank = matfuse::parallel::mpi_launch_rank();
  if (rank > 0) return matfuse::parallel::mpi_rank_worker_main();
  if (rank == 0) matfuse::parallel::set_auto_pool(matfuse::parallel::mpi_rank_pool());
  struct ParallelEnd {
    ~ParallelEnd() {
      matfuse::parallel::set_current_pool(nullptr);
      matfuse::parallel::set_auto_pool(nullptr);
      matfuse::parallel::mpi_finish();
    }
  } parallel_end;
  if (o.profile || !o.trace_file.empty()) matfuse::accel::set_device_timing(true);
  if (!o.graph_file.empty()) matfuse::accel::set_graph_recording(true);
  const double t0 = matfuse::accel::telemetry_clock();
  Session session;
  Interpreter in(session);
  matfuse::parallel::install(in);
  RunStatus st;
  if (!o.script.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(o.script, ec)) {
      matfuse::cli::report(session, "Error: file '" + o.script + "' not found.\n");
      return 1;
    }
    st = run_guarded(session,
                     [&] { in.run_file(o.script, o.code.empty() && !o.interactive); });
  }
  for (const auto& c : o.code) {
    if (st.kind != RunStatus::Ok) break;
    st = run_guarded(session, [&] { in.run_text(c, !o.interactive && &c == &o.code.back()); });
  }
  int rc = st.status;
  if (st.kind == RunStatus::Ok && o.interactive) rc = matfuse::cli::repl(in, session);
  if (!o.figures_dir.empty() && !matfuse::graphics::open_figures().empty()) {
    // --figures DIR: every figure still open (also after an error) as DIR/figureN.png.
    std::error_code ec;
    std::filesystem::create_directories(o.figures_dir, ec);
    const RunStatus fst = run_guarded(session, [&] {
      matfuse::graphics::write_open_figures(o.figures_dir);
    });
    if (rc == 0) rc = fst.status;
  }
  matfuse::diary_close();
  session.out->flush();
  std::cout.flush();
  if (!write_reports(o, t0, matfuse::accel::telemetry_clock()) && rc == 0) rc = 2;
  return rc;
}

/// --jupyter-kernel: serve the Jupyter protocol (builds with xeus only).
int run_kernel(const Options& o) {
#ifdef MATFUSE_HAVE_JUPYTER
  return matfuse::cli::run_jupyter_kernel(o.kernel_connection, o.profile);
#else
  (void)o;
  std::cerr << "matfuse: this build has no Jupyter kernel (xeus was not found at build time)\n";
  return 2;
#endif
}

struct ThreadArgs {
  const Options* opts;
  int rc;
};

void* thread_main(void* p) {
  auto* a = static_cast<ThreadArgs*>(p);
  if (!a->opts->kernel_connection.empty()) {
    a->rc = run_kernel(*a->opts);
    return nullptr;
  }
  a->rc = run(*a->opts);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  // The providers present in this build: host always, CUDA when it loads (on first use).
  matfuse::register_standard_providers();
  // Every MATFUSE_* variable is read and checked here, before anything runs; the switches below
  // write the same structure (a switch wins over its variable).
  try {
    (void)matfuse::options();
  } catch (const MatlabError& e) {
    std::cerr << "matfuse: " << e.message() << "\n";
    return 2;
  }
  Options& o = matfuse::mutable_options();
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--version") {
      std::cout << matfuse::cli::version_text();
      return 0;
    }
    if (a == "--list-builtins") {
      // Both tables: the library's and the interpreter's own (eval, exist, feval, ...).
      matfuse::Registry own;
      matfuse::register_interp_builtins(own);
      matfuse::parallel::register_parallel_builtins(own);
      std::vector<std::string> names = matfuse::builtins().names(), more = own.names();
      names.insert(names.end(), more.begin(), more.end());
      std::sort(names.begin(), names.end());
      for (const auto& n : names) std::cout << n << "\n";
      return 0;
    }
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "-e") {
      if (i + 1 >= argc) {
        std::cerr << "matfuse: -e needs an argument\n" << kUsage;
        return 2;
      }
      o.code.push_back(argv[++i]);
    } else if (a == "--profile") {
      o.profile = true;
    } else if (a == "--device") {
      const std::string d = i + 1 < argc ? argv[++i] : "";
      const auto dev = matfuse::parse_device_option(d);
      if (!dev) {
        std::cerr << "matfuse: --device must be auto, cpu, gpu, cuda or vulkan (got '" << d << "')\n" << kUsage;
        return 2;
      }
      o.device = *dev;
    } else if (a == "--math") {
      const std::string m = i + 1 < argc ? argv[++i] : "";
      const auto mode = matfuse::parse_math_option(m);
      if (!mode) {
        std::cerr << "matfuse: --math must be exact or fast (got '" << m << "')\n" << kUsage;
        return 2;
      }
      o.math = *mode;
    } else if (i == 1 && a == "calibrate") {
      return matfuse::cli::calibrate();
    } else if (i == 1 && a == "accel-info") {
      return matfuse::cli::accel_info();
    } else if (a == "--graph" || a == "--trace") {
      if (i + 1 >= argc) {
        std::cerr << "matfuse: " << a << " needs a file name\n" << kUsage;
        return 2;
      }
      (a == "--graph" ? o.graph_file : o.trace_file) = argv[++i];
    } else if (a == "--figures") {
      if (i + 1 >= argc) {
        std::cerr << "matfuse: --figures needs a folder\n" << kUsage;
        return 2;
      }
      o.figures_dir = argv[++i];
    } else if (a == "--install-kernel") {
      o.install_kernel = true;
    } else if (a == "--prefix" && i + 1 < argc) {
      o.kernel_prefix = argv[++i];
    } else if (a == "--jupyter-kernel") {
      o.kernel_connection = "-";
    } else if (a == "-f" && !o.kernel_connection.empty() && i + 1 < argc) {
      o.kernel_connection = argv[++i];
    } else if (a == "--parallel-worker") {
      g_parallel_worker = true;
    } else if (a == "-i") {
      o.interactive = true;
    } else if (a.size() > 1 && a[0] == '-') {
      std::cerr << "matfuse: unknown option '" << a << "'\n" << kUsage;
      return 2;
    } else if (o.script.empty()) {
      o.script = a;
    } else {
      std::cerr << "matfuse: more than one script given\n" << kUsage;
      return 2;
    }
  }
  if (o.install_kernel) return matfuse::cli::install_kernel(o.kernel_prefix, o.profile);
  if (!o.kernel_connection.empty() && o.kernel_connection == "-") {
    std::cerr << "matfuse: --jupyter-kernel needs -f CONNECTION_FILE\n";
    return 2;
  }
  if (o.script.empty() && o.code.empty()) o.interactive = true;
  // The accel state starts from the options (scripts may change it later: feature, gpuDevice).
  namespace acc = matfuse::accel;
  acc::set_device_mode(o.device == matfuse::DeviceOption::Cpu    ? acc::DeviceMode::Cpu
                       : o.device == matfuse::DeviceOption::Auto ? acc::DeviceMode::Auto
                                                                 : acc::DeviceMode::Gpu);
  acc::set_math_mode(o.math == matfuse::MathOption::Fast ? acc::MathMode::Fast
                                                         : acc::MathMode::Exact);

  matfuse::cli::install_interrupt_handler();
  // Run on a thread with a 1 GiB stack (reserved, committed only as touched).
  ThreadArgs args{&o, 0};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{1} << 30);
  pthread_t th;
  if (pthread_create(&th, &attr, thread_main, &args) != 0) {
    args.rc = run(o);
  } else {
    pthread_join(th, nullptr);
  }
  pthread_attr_destroy(&attr);
  std::cout.flush();
  return args.rc;
}
