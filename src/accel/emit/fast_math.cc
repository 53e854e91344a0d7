// Math modes and the fast-mode schedule pass (see fast_math.h).
#include "accel/emit/fast_math.h"

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>

#include "accel/emit/schedule.h"
#include "runtime/error.h"
#include "runtime/options.h"

namespace matfuse::accel {
namespace {

MathMode mode_from_options() {
  return options().math == MathOption::Fast ? MathMode::Fast : MathMode::Exact;
}

std::atomic<MathMode>& mode() {
  static std::atomic<MathMode> m{mode_from_options()};
  return m;
}

/// Rewrites one phase's code; `map` receives old value -> new value.
std::vector<Instr> rewrite_phase(const std::vector<Instr>& code, std::vector<int>& map) {
  std::vector<Instr> out;
  out.reserve(code.size() + 4);
  map.assign(code.size(), -1);
  std::unordered_map<int, int> reciprocal;  // new divisor value -> new reciprocal value
  auto emit = [&](const Instr& in) {
    out.push_back(in);
    return static_cast<int>(out.size()) - 1;
  };
  for (size_t v = 0; v < code.size(); ++v) {
    Instr in = code[v];
    if (in.a >= 0) in.a = map[in.a];
    if (in.b >= 0) in.b = map[in.b];
    // single(linspace(...)): a single-precision linspace generator.
    if (in.kind == IKind::Cast && in.cls == ClassId::Single && !in.uniform) {
      const Instr& g = out[in.a];
      if (g.kind == IKind::Gen && g.gen == GenKind::Linspace && g.type == VType::F64) {
        Instr s = g;
        s.type = VType::F32;
        s.cls = ClassId::Single;
        map[v] = emit(s);
        continue;
      }
    }
    // a / d with a uniform divisor d: a * (1/d), the reciprocal once per divisor.
    const bool div = in.kind == IKind::Op && (in.op == OpId::Div || in.op == OpId::LDiv);
    if (div && !in.uniform && !in.check_real && in.type != VType::Bool &&
        is_float_class(in.cls)) {
      const int num = in.op == OpId::Div ? in.a : in.b;
      const int den = in.op == OpId::Div ? in.b : in.a;
      if (out[den].uniform && out[den].type == in.type) {
        auto it = reciprocal.find(den);
        if (it == reciprocal.end()) {
          Instr one;
          one.kind = IKind::Const;
          one.type = in.type;
          one.cls = in.cls;
          one.uniform = true;
          one.imm = 1.0;
          Instr r = in;
          r.op = OpId::Div;
          r.a = emit(one);
          r.b = den;
          r.uniform = true;
          it = reciprocal.emplace(den, emit(r)).first;
        }
        Instr m = in;
        m.op = OpId::Mul;
        m.a = num;
        m.b = it->second;
        map[v] = emit(m);
        continue;
      }
    }
    map[v] = emit(in);
  }
  return out;
}

}  // namespace

std::string_view math_mode_name(MathMode m) { return m == MathMode::Fast ? "fast" : "exact"; }

MathMode math_mode() { return mode().load(std::memory_order_relaxed); }

void set_math_mode(MathMode m) { mode().store(m, std::memory_order_relaxed); }

std::optional<MathMode> parse_math_mode(std::string_view s) {
  std::string l(s);
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l == "exact") return MathMode::Exact;
  if (l == "fast") return MathMode::Fast;
  return std::nullopt;
}

void fast_math_rewrite(Kernel& k) {
  k.math = MathMode::Fast;
  const bool split = !k.reduces.empty() || k.matmul.has_value();
  std::vector<int> map;
  k.body = rewrite_phase(k.body, map);
  std::vector<int*> body_roots, epi_roots;
  for (KReduce& r : k.reduces) {
    r.value = map[r.value];
    body_roots.push_back(&r.value);
  }
  for (KOutput& o : k.outputs)
    if (!split || o.in_body) {
      o.value = map[o.value];
      body_roots.push_back(&o.value);
    }
  if (split) {
    k.epilogue = rewrite_phase(k.epilogue, map);
    for (KOutput& o : k.outputs)
      if (!o.in_body) {
        o.value = map[o.value];
        epi_roots.push_back(&o.value);
      }
    remove_unused(k.epilogue, epi_roots);
  }
  remove_unused(k.body, body_roots);
  MF_ASSERT(verify_kernel(k).empty(), "fast-math rewrite left an invalid kernel");
}

}  // namespace matfuse::accel
