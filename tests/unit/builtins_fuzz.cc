// Fuzz test of the builtin table: every registered builtin is called through the interpreter's
// call path with deterministic pseudo-random argument lists drawn from awkward values (empty,
// NaN, Inf, negative, huge sizes (1e12, and 1e300 past int64), complex, integer, logical, text,
// cell, struct, handle). Each call must either succeed or raise a MatlabError with a
// "component:..." identifier: never a crash, another C++ exception, or a hang (a watchdog aborts
// the run naming the call).
// MATFUSE_FUZZ_VERBOSE=1 prints each call before it runs (to find a crashing one);
// MATFUSE_FUZZ_FROM=name starts at that builtin (names in the registry's order), so that a run
// under the sanitizers, which stops at the first finding, can go on past it.
#include <sys/resource.h>

#include <atomic>
#include <map>
#include <typeinfo>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>

#include "builtins/registry.h"
#include "interp_test_util.h"

namespace matfuse::test {
namespace {

/// Builtins not called, each with the reason.
const std::map<std::string, std::string>& skipped() {
  static const std::map<std::string, std::string> m = {
      {"input", "blocks reading stdin"},
      {"keyboard", "blocks reading stdin"},
      {"pause", "sleeps (pause(1e12) would block)"},
      {"beep", "touches the terminal"},
      {"delete", "removes files"},
      {"mkdir", "creates folders"},
      {"rmdir", "removes folders"},
      {"save", "writes files"},
      {"writematrix", "writes files"},
      {"writetable", "writes files"},
      {"fopen", "may create files ('a...' permissions)"},
      {"fprintf", "may write to files opened by other tests"},
      {"diary", "writes files"},
      {"cd", "changes the process's folder"},
      {"exit", "ends the process"},
      {"quit", "ends the process"},
      {"clc", "touches the terminal"},
      {"system", "runs shell commands"},
      {"unix", "runs shell commands"},
      {"dos", "runs shell commands"},
      {"setenv", "changes the process environment"},
      {"copyfile", "writes files"},
      {"movefile", "moves files"},
      {"saveas", "writes image files"},
      {"print", "writes image files"},
      {"exportgraphics", "writes image files"},
  };
  return m;
}

/// Builtins whose purpose is raising user errors, which may carry no identifier
/// (error('msg') has an empty identifier in MATLAB).
bool raises_user_errors(const std::string& n) {
  return n == "error" || n == "assert" || n == "rethrow" || n == "throw" ||
         n == "throwAsCaller" || n == "eval" || n == "evalin" || n == "feval" ||
         n == "cellfun" || n == "arrayfun" || n == "structfun" || n == "builtin" ||
         n == "run";
}

/// "component:rest" with each part starting with a letter.
bool well_formed_id(const std::string& id) {
  size_t c = id.find(':');
  if (id.empty() || c == std::string::npos || c == 0 || c + 1 >= id.size()) return false;
  return std::isalpha(static_cast<unsigned char>(id[0])) != 0;
}

struct Watchdog {
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<uint64_t> seq{0};
  std::string what;
  bool done = false;
  std::thread th;
  explicit Watchdog(int seconds) {
    th = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lk(mu);
      uint64_t last = ~uint64_t(0);
      while (!done) {
        uint64_t now = seq.load();
        if (now == last) {
          std::fprintf(stderr, "builtins_fuzz: hang (> %d s) in %s\n", seconds, what.c_str());
          std::_Exit(3);
        }
        last = now;
        cv.wait_for(lk, std::chrono::seconds(seconds));
      }
    });
  }
  void enter(const std::string& w) {
    std::lock_guard<std::mutex> lk(mu);
    what = w;
    ++seq;
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lk(mu);
      done = true;
    }
    cv.notify_all();
    th.join();
  }
};

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

/// Limits the address space while alive so huge allocations fail fast (bad_alloc) instead of
/// relying on the kernel's overcommit policy. Not under AddressSanitizer: its shadow memory is
/// terabytes of reserved address space, so the limit makes its own mappings fail (its
/// allocator_may_return_null option, set by tools/sanitize.sh, gives bad_alloc instead).
struct AddressSpaceLimit {
  rlimit old{};
  bool set = false;
  explicit AddressSpaceLimit(rlim_t bytes) {
    if (!kAddressSanitizer && getrlimit(RLIMIT_AS, &old) == 0) {
      rlimit r = old;
      if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > bytes) r.rlim_cur = bytes;
      set = setrlimit(RLIMIT_AS, &r) == 0;
    }
  }
  ~AddressSpaceLimit() {
    if (set) setrlimit(RLIMIT_AS, &old);
  }
};

TEST(BuiltinsFuzz, EveryBuiltinFailsCleanly) {
  Snippet s;
  s("fz_empty = []; fz_e03 = zeros(0,3); fz_nan = NaN; fz_inf = Inf; fz_neg = -1;"
    "fz_huge = 1e12; fz_vast = 1e300; fz_frac = 2.5; fz_mat = reshape(1:12,3,4); fz_cplx = 1+2i;"
    "fz_i8 = int8(-7); fz_log = true; fz_chr = 'abc'; fz_str = \"x\"; fz_cell = {1,'a'};"
    "fz_st = struct('a',1,'b','t'); fz_fh = @sin;");
  std::vector<std::pair<std::string, Value>> pool;
  for (const char* n : {"fz_empty", "fz_e03", "fz_nan", "fz_inf", "fz_neg", "fz_huge", "fz_vast",
                        "fz_frac", "fz_mat", "fz_cplx", "fz_i8", "fz_log", "fz_chr", "fz_str",
                        "fz_cell", "fz_st", "fz_fh"}) {
    const Value* v = s.in.base_var(n);
    ASSERT_NE(v, nullptr) << n;
    pool.emplace_back(n + 3, *v);
  }
  const bool verbose = std::getenv("MATFUSE_FUZZ_VERBOSE") != nullptr;
  const char* from = std::getenv("MATFUSE_FUZZ_FROM");
  bool started = from == nullptr;
  AddressSpaceLimit limit(rlim_t(24) << 30);
  Watchdog dog(60);
  int calls = 0, ok = 0;
  for (const std::string& name : builtins().names()) {
    if (!started && name == from) started = true;
    if (!started || skipped().count(name)) continue;
    std::mt19937 gen(static_cast<uint32_t>(std::hash<std::string>{}(name)));
    for (int trial = 0; trial < 14; ++trial) {
      size_t nargs = trial == 0 ? 0 : 1 + gen() % 4;
      std::vector<Value> args;
      std::string desc = name + "(";
      for (size_t i = 0; i < nargs; ++i) {
        const auto& p = pool[gen() % pool.size()];
        args.push_back(p.second);
        desc += (i ? ", " : "") + p.first;
      }
      int nargout = static_cast<int>(gen() % 2);
      desc += ") nargout=" + std::to_string(nargout);
      if (verbose) std::fprintf(stderr, "fuzz: %s\n", desc.c_str());
      dog.enter(desc);
      ++calls;
      s.out.str("");
      s.err.str("");
      auto t0 = std::chrono::steady_clock::now();
      struct Slow {  // reports slow calls in verbose mode
        bool on;
        const std::string& d;
        std::chrono::steady_clock::time_point t0;
        ~Slow() {
          double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          if (on && sec > 0.3) std::fprintf(stderr, "fuzz: slow %.2f s: %s\n", sec, d.c_str());
        }
      } slow{verbose, desc, t0};
      try {
        s.in.call_named(name, args, nargout);
        ++ok;
      } catch (const MatlabError& e) {
        if (!(raises_user_errors(name) && e.identifier().empty())) {
          EXPECT_TRUE(well_formed_id(e.identifier()))
              << desc << ": identifier '" << e.identifier() << "' message: " << e.what();
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << desc << ": C++ exception " << typeid(e).name() << ": " << e.what();
      } catch (...) {
        ADD_FAILURE() << desc << ": unknown C++ exception";
      }
    }
  }
  s.in.call_named("fclose", std::vector<Value>{Value::from_chars("all")}, 0);
  if (from) return;  // a partial run
  EXPECT_GT(calls, 1000);
  EXPECT_GT(ok, 100);  // the pool is not so hostile that nothing succeeds
}

}  // namespace
}  // namespace matfuse::test
