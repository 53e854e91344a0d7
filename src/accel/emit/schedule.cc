// Schedule passes on the kernel IR (see schedule.h).
#include "accel/emit/schedule.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

#include "runtime/dims.h"
#include "runtime/dtype.h"
#include "runtime/error.h"

namespace matfuse::accel {
namespace {

/// Everything that makes two instructions compute the same value (operands by representative).
using CseKey = std::tuple<int, int, int, int, int, int, int, int, int, int, int, uint64_t, int,
                          bool, int, bool>;

CseKey cse_key(const Instr& in, const std::vector<int>& alias, bool hoisted) {
  uint64_t immbits;
  std::memcpy(&immbits, &in.imm, 8);
  return {static_cast<int>(in.kind), static_cast<int>(in.type), static_cast<int>(in.cls),
          in.a >= 0 ? alias[in.a] : -1, in.b >= 0 ? alias[in.b] : -1, in.input, in.access,
          in.slot, in.slot2, in.slot3, in.reduce, immbits, static_cast<int>(in.op),
          in.check_real, static_cast<int>(in.gen), hoisted};
}

/// Whether value v is the constant 2 (a Const, or a floating-point conversion of one: 2 is
/// exact in every floating type).
bool is_two(const std::vector<Instr>& code, int v) {
  while (v >= 0) {
    const Instr& in = code[v];
    if (in.kind == IKind::Const) return in.type != VType::Bool && in.imm == 2.0;
    const bool float_conv = (in.kind == IKind::Convert && in.type != VType::Bool) ||
                            (in.kind == IKind::Cast && (in.cls == ClassId::Double ||
                                                        in.cls == ClassId::Single));
    if (!float_conv) return false;
    v = in.a;
  }
  return false;
}

}  // namespace

int PhaseSchedule::point_instrs() const {
  int n = 0;
  for (size_t v = 0; v < alias.size(); ++v) n += !hoisted[v] && alias[v] == static_cast<int>(v);
  return n;
}

bool uniform_access(const Kernel& k, int a) {
  for (int64_t s : k.accesses.at(a).strides)
    if (s) return false;
  return true;
}

bool contiguous_access(const Kernel& k, int a, const Dims& space) {
  const Access& ac = k.accesses.at(a);
  MF_ASSERT(static_cast<int>(ac.strides.size()) == space.ndims(), "access rank mismatch");
  const auto st = strides_of(space);
  for (int d = 0; d < space.ndims(); ++d)
    if (ac.strides[d] != (space[d] == 1 ? 0 : st[d])) return false;
  return true;
}

bool MapSchedule::is_group_load(int v) const {
  return std::find(group_loads.begin(), group_loads.end(), v) != group_loads.end();
}

bool MapSchedule::is_rng_group(int v) const {
  return std::find(rng_groups.begin(), rng_groups.end(), v) != rng_groups.end();
}

MapSchedule schedule_map(const Kernel& k, const std::vector<Instr>& code, const Dims& space,
                         const PhaseSchedule& s, const std::vector<MapStoreShape>& stores,
                         const MapLimits& limits) {
  const int64_t n = space.numel();
  MapSchedule m;
  std::vector<int> loads, rngs;
  bool all_contiguous = true, any_rng = false;
  int widest = 1;  // bytes of the widest element moved per point
  for (size_t v = 0; v < code.size(); ++v) {
    const Instr& in = code[v];
    if (s.hoisted[v]) continue;
    any_rng |= in.kind == IKind::Rng;
    if (!s.representative(static_cast<int>(v))) continue;
    if (in.kind == IKind::Load) {
      widest = std::max(widest, element_size(k.inputs.at(in.input).cls));
      if (contiguous_access(k, in.access, space)) loads.push_back(static_cast<int>(v));
      else all_contiguous = false;
    } else if (in.kind == IKind::Rng && in.type != VType::Bool) {
      const Instr& src = code[in.a];
      if (src.kind == IKind::Iota && src.type == VType::F64 &&
          contiguous_access(k, src.access, space))
        rngs.push_back(static_cast<int>(v));
    }
  }
  for (const MapStoreShape& st : stores) {
    all_contiguous &= st.contiguous;
    widest = std::max(widest, st.bytes);
  }
  if (!rngs.empty() && n >= limits.rng_lanes) {
    m.path = MapSchedule::Path::RngGroups;
    m.width = limits.rng_lanes;
    m.partial = n % m.width != 0;
    m.rng_groups = std::move(rngs);
  } else if (n >= 2 && all_contiguous && (!loads.empty() || !stores.empty()) && !any_rng &&
             s.point_instrs() <= limits.max_vector_instrs) {
    // The vector path copies the body width + 1 times: only for light, memory-bound bodies.
    m.path = MapSchedule::Path::Vector;
    m.width = std::clamp(limits.vector_bytes / widest, 2, 4);
  } else {
    return m;
  }
  m.group_loads = std::move(loads);
  // Segments: the body is split before each group Rng value. A value used in a later segment
  // crosses over (per lane) and is restored where it is read.
  const size_t nc = code.size();
  m.segment_starts = {0};
  for (int v : m.rng_groups)
    if (static_cast<size_t>(v) != m.segment_starts.back()) m.segment_starts.push_back(v);
  const int nseg = static_cast<int>(m.segment_starts.size());
  m.segment_starts.push_back(nc);
  std::vector<int> seg(nc);
  for (int j = 0; j < nseg; ++j)
    for (size_t v = m.segment_starts[j]; v < m.segment_starts[j + 1]; ++v) seg[v] = j;
  m.restores.assign(nseg, {});
  m.crosses.assign(nc, false);
  auto use = [&](int x, int j) {
    if (x < 0) return;
    const int r = s.alias[x];
    if (s.hoisted[r] || seg[r] >= j) return;
    m.crosses[r] = true;
    std::vector<int>& rs = m.restores[j];
    if (std::find(rs.begin(), rs.end(), r) == rs.end()) rs.push_back(r);
  };
  for (size_t v = 0; v < nc; ++v) {
    const Instr& in = code[v];
    if (s.hoisted[v] || !s.representative(static_cast<int>(v))) continue;
    if (m.is_rng_group(static_cast<int>(v))) continue;  // computed from the stream positions
    use(in.a, seg[v]);
    use(in.b, seg[v]);
  }
  for (const MapStoreShape& st : stores) use(st.value, nseg - 1);
  return m;
}

PhaseSchedule schedule_phase(const Kernel& k, const std::vector<Instr>& code) {
  const size_t n = code.size();
  PhaseSchedule s;
  s.hoisted.assign(n, false);
  s.alias.resize(n);
  s.divisor.assign(n, -1);
  s.square.assign(n, false);
  // Hoisting: uniform values over hoisted operands, never a reduction or product result.
  for (size_t i = 0; i < n; ++i) {
    const Instr& in = code[i];
    const bool reads_access = in.kind == IKind::Load || in.kind == IKind::Iota;
    bool h = in.uniform && in.kind != IKind::ReduceResult && in.kind != IKind::MatMulResult;
    if (reads_access && !uniform_access(k, in.access)) h = false;
    if (in.a >= 0 && !reads_access) h = h && s.hoisted[in.a];
    if (in.b >= 0) h = h && s.hoisted[in.b];
    s.hoisted[i] = h;
  }
  // Common subexpressions: the same instruction over the same representatives.
  std::map<CseKey, int> seen;
  for (size_t i = 0; i < n; ++i) {
    s.alias[i] = static_cast<int>(i);
    if (code[i].kind == IKind::Gen) continue;  // a backend may give generators local state
    auto [it, fresh] = seen.emplace(cse_key(code[i], s.alias, s.hoisted[i]), static_cast<int>(i));
    if (!fresh) s.alias[i] = it->second;
  }
  for (size_t i = 0; i < n; ++i) {
    const Instr& in = code[i];
    if (in.kind != IKind::Op || in.type == VType::Bool || in.b < 0) continue;
    // Strength reduction: x.^2 is x.*x (the same bits, always real).
    if (in.op == OpId::Pow && is_two(code, in.b)) s.square[i] = true;
    // Division by a divisor computed once per thread.
    if (s.hoisted[i]) continue;
    const int d = in.op == OpId::Div ? in.b : in.op == OpId::LDiv ? in.a : -1;
    if (d >= 0 && s.hoisted[d]) s.divisor[i] = s.alias[d];
  }
  // The once-per-thread sections, in order.
  std::set<int> reciprocal;
  for (size_t v = 0; v < n; ++v) {
    if (!s.representative(static_cast<int>(v))) continue;
    if (s.hoisted[v]) {
      s.hoisted_values.push_back(static_cast<int>(v));
      continue;
    }
    const int d = s.divisor[v];
    if (d >= 0 && reciprocal.insert(d).second)
      s.setup.push_back({ThreadSetup::Kind::Reciprocal, d});
    if (code[v].kind == IKind::Gen)
      s.setup.push_back({ThreadSetup::Kind::GenParams, static_cast<int>(v)});
  }
  return s;
}

void remove_unused(std::vector<Instr>& code, const std::vector<int*>& roots) {
  std::vector<char> used(code.size(), 0);
  for (int* r : roots) used[*r] = 1;
  for (size_t i = code.size(); i-- > 0;) {
    const Instr& in = code[i];
    const bool may_fault =
        in.check_real || ((in.kind == IKind::Convert || in.kind == IKind::Cast) &&
                          in.type == VType::Bool);
    if (!used[i] && !may_fault) continue;
    used[i] = 1;
    if (in.a >= 0) used[in.a] = 1;
    if (in.b >= 0) used[in.b] = 1;
  }
  std::vector<int> renum(code.size(), -1);
  std::vector<Instr> kept;
  kept.reserve(code.size());
  for (size_t i = 0; i < code.size(); ++i) {
    if (!used[i]) continue;
    Instr in = code[i];
    if (in.a >= 0) in.a = renum[in.a];
    if (in.b >= 0) in.b = renum[in.b];
    renum[i] = static_cast<int>(kept.size());
    kept.push_back(in);
  }
  for (int* r : roots) *r = renum[*r];
  code = std::move(kept);
}

void apply_schedule(Kernel& k) {
  const bool split = !k.reduces.empty() || k.matmul.has_value();
  // Rewrites one phase in place: squares as products, uses read representatives. Returns the
  // alias map (values keep their numbers; the aliased ones are left unused).
  auto rewrite = [&](std::vector<Instr>& code) {
    const PhaseSchedule s = schedule_phase(k, code);
    for (size_t v = 0; v < code.size(); ++v) {
      Instr& in = code[v];
      if (in.a >= 0) in.a = s.alias[in.a];
      if (in.b >= 0) in.b = s.alias[in.b];
      if (s.square[v]) {
        in.op = OpId::Mul;
        in.b = in.a;
        in.check_real = false;  // an even integer exponent: always real
      }
    }
    // An aliased value that may fault must not fault twice: it is left without a use and
    // dropped only when it cannot fault, so clear its fault checks (its representative keeps
    // them).
    for (size_t v = 0; v < code.size(); ++v)
      if (!s.representative(static_cast<int>(v))) {
        Instr c;
        c.kind = IKind::Const;
        c.type = code[v].type;
        c.cls = code[v].cls;
        c.uniform = true;
        code[v] = c;
      }
    return s.alias;
  };
  std::vector<int*> body_roots, epi_roots;
  const std::vector<int> body_alias = rewrite(k.body);
  for (KReduce& r : k.reduces) {
    r.value = body_alias[r.value];
    body_roots.push_back(&r.value);
  }
  std::vector<int> epi_alias;
  if (split) epi_alias = rewrite(k.epilogue);
  for (KOutput& o : k.outputs) {
    if (!split || o.in_body) {
      o.value = body_alias[o.value];
      body_roots.push_back(&o.value);
    } else {
      o.value = epi_alias[o.value];
      epi_roots.push_back(&o.value);
    }
  }
  remove_unused(k.body, body_roots);
  if (split) remove_unused(k.epilogue, epi_roots);
  MF_ASSERT(verify_kernel(k).empty(), "the schedule rewrite left an invalid kernel");
}

}  // namespace matfuse::accel
