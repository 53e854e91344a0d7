// The planner pipeline (see pipeline.h).
#include "accel/pipeline.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "accel/passes/passes.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

/// Whether MATFUSE_DUMP asks for a dump after pass `name`.
bool dump_after(const char* name) {
  const char* env = std::getenv("MATFUSE_DUMP");
  if (!env) return false;
  std::string s(env);
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    std::string item = s.substr(pos, end - pos);
    if (item == "after:all" || item == std::string("after:") + name) return true;
    pos = end + 1;
  }
  return false;
}

void finalize_pass(Plan& p) { p.finalize(); }

}  // namespace

void run_pipeline(Plan& p) {
  struct Pass {
    const char* name;
    void (*run)(Plan&);
  };
  static const Pass kPasses[] = {
      {"inline_generators", inline_generators},
      // Matrix products first: a chain after a product is its epilogue rather than a
      // reduction's prologue (the reduction then reads the finished value).
      {"fuse_matmul_epilogue", fuse_matmul_epilogue},
      {"fuse_reduction", fuse_reduction},
      {"fuse_elementwise", fuse_elementwise},
      {"finalize", finalize_pass},
  };
  for (const Pass& pass : kPasses) {
    pass.run(p);
    if (dump_after(pass.name))
      std::fprintf(stderr, "--- plan after %s ---\n%s", pass.name, p.str().c_str());
#ifndef NDEBUG
    const std::string bad = verify_plan(p, pass.run == finalize_pass);
    MF_ASSERT(bad.empty(), std::string("plan invalid after ") + pass.name + ": " + bad);
#endif
  }
}

Plan plan_fusion(std::span<const NodeRef> roots) {
  Plan p = build_plan(roots);
  run_pipeline(p);
  return p;
}

}  // namespace matfuse::accel
