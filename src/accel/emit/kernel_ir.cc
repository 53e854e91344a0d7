// Kernel IR: names, canonical text and the kernel verifier (see kernel_ir.h).
#include "accel/emit/kernel_ir.h"

#include <algorithm>

#include <charconv>

namespace matfuse::accel {

std::string_view vtype_name(VType t) {
  switch (t) {
    case VType::F64: return "f64";
    case VType::F32: return "f32";
    case VType::Bool: return "bool";
  }
  return "?";
}

VType vtype_of(ClassId c) {
  if (c == ClassId::Single) return VType::F32;
  if (c == ClassId::Logical) return VType::Bool;
  return VType::F64;
}

bool saturation_range(ClassId c, double* lo, double* hi) {
  switch (c) {
    case ClassId::Char: *lo = 0; *hi = 65535; return true;
    case ClassId::Int8: *lo = -128; *hi = 127; return true;
    case ClassId::UInt8: *lo = 0; *hi = 255; return true;
    case ClassId::Int16: *lo = -32768; *hi = 32767; return true;
    case ClassId::UInt16: *lo = 0; *hi = 65535; return true;
    case ClassId::Int32: *lo = -2147483648.0; *hi = 2147483647.0; return true;
    case ClassId::UInt32: *lo = 0; *hi = 4294967295.0; return true;
    default: return false;
  }
}

std::string_view fusion_kind_name(FusionKind k) {
  switch (k) {
#define MF_FUSION_KIND(kind, name) \
  case FusionKind::kind: return name;
#include "accel/emit/fusion_kinds.def"
#undef MF_FUSION_KIND
  }
  return "?";
}

namespace {

/// printf's "%a" of v, by std::to_chars' hex format (the same digits and exponent; checked
/// against glibc over 20M doubles, subnormals, zeros, inf and nan included) with the "0x".
std::string hexd(double v) {
  char buf[48];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::hex);
  std::string s(buf, r.ptr);
  const size_t at = s[0] == '-' ? 1 : 0;
  if (at < s.size() && s[at] >= '0' && s[at] <= '9') s.insert(at, "0x");
  return s;
}

const char* ikind_name(IKind k) {
  static const char* names[] = {"load", "const", "param", "iota", "convert", "op",
                                "saturate", "cast", "rng", "gen", "reduce_result", "matmul_result"};
  return names[static_cast<int>(k)];
}

/// Appends the canonical text (Kernel::text) to a string: plain appends and std::to_chars
/// instead of an ostringstream (the text is built for every lowered group, so its cost is paid
/// on every evaluation); the characters are the ones the stream operators gave.
struct TextOut {
  std::string s;
  TextOut& operator<<(std::string_view v) {
    s.append(v);
    return *this;
  }
  TextOut& operator<<(const char* v) {
    s.append(v);
    return *this;
  }
  TextOut& operator<<(const std::string& v) {
    s.append(v);
    return *this;
  }
  TextOut& operator<<(char c) {
    s.push_back(c);
    return *this;
  }
  TextOut& operator<<(int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.append(buf, r.ptr);
    return *this;
  }
  TextOut& operator<<(int v) { return *this << static_cast<int64_t>(v); }
  TextOut& operator<<(size_t v) { return *this << static_cast<int64_t>(v); }
};

void dims_to(TextOut& os, const Dims& d) {
  for (int k = 0; k < d.ndims(); ++k) {
    if (k) os << 'x';
    os << static_cast<int64_t>(d[k]);
  }
}

std::string dims_str(const Dims& d) {
  TextOut os;
  dims_to(os, d);
  return std::move(os.s);
}

void print_instrs(TextOut& os, const std::vector<Instr>& code, const char* prefix) {
  for (size_t i = 0; i < code.size(); ++i) {
    const Instr& in = code[i];
    os << "  " << prefix << i << " = " << ikind_name(in.kind);
    switch (in.kind) {
      case IKind::Load: os << " in" << in.input << " a" << in.access; break;
      case IKind::Const: os << " " << hexd(in.imm); break;
      case IKind::Param: os << " p" << in.slot; break;
      case IKind::Iota: os << " a" << in.access; break;
      case IKind::Op: os << " " << op_name(in.op) << (in.check_real ? "!real" : ""); break;
      case IKind::Rng:
        os << " " << gen_kind_name(in.gen) << " key=p" << in.slot << " off=p" << in.slot2;
        break;
      case IKind::Gen:
        os << " " << gen_kind_name(in.gen);
        if (in.slot >= 0) os << " p" << in.slot;
        if (in.slot2 >= 0) os << " p" << in.slot2;
        if (in.slot3 >= 0) os << " p" << in.slot3;
        if (in.gen == GenKind::Eye) os << " rows=" << static_cast<int64_t>(in.imm);
        break;
      case IKind::ReduceResult: os << " r" << in.reduce; break;
      default: break;
    }
    if (in.a >= 0) os << " " << prefix << in.a;
    if (in.b >= 0) os << ", " << prefix << in.b;
    os << " : " << vtype_name(in.type) << " " << class_name(in.cls) << (in.uniform ? " uniform" : "")
       << "\n";
  }
}

}  // namespace

std::string Kernel::text() const {
  TextOut os;
  os.s.reserve(256 + 48 * (accesses.size() + body.size() + epilogue.size() + outputs.size()));
  os << "kernel " << fusion_kind_name(fusion_kind) << " space=";
  dims_to(os, space);
  if (fusion_kind == FusionKind::Reduction) {
    os << " pre=" << pre << " n=" << n << " post=" << post << " out=";
    dims_to(os, out_space);
  }
  if (matmul) {
    os << " gemm m=" << matmul->m << " n=" << matmul->n << " k=" << matmul->k << " a=in"
       << matmul->a << (matmul->trans_a ? "'" : "") << " lda=" << matmul->lda << " b=in"
       << matmul->b << (matmul->trans_b ? "'" : "") << " ldb=" << matmul->ldb << " "
       << vtype_name(matmul->type) << (matmul->diag ? " diag" : "")
       << (matmul->syrk ? " syrk" : "");
    if (matmul->alpha_slot >= 0) os << " alpha=p" << matmul->alpha_slot;
    else if (matmul->alpha_imm != 1) os << " alpha=" << hexd(matmul->alpha_imm);
    if (matmul->alpha_div) os << " alpha_recip";
    os << " out=";
    dims_to(os, out_space);
  }
  if (math != MathMode::Exact) os << " math=" << math_mode_name(math);
  os << "\n";
  for (size_t i = 0; i < param_u64.size(); ++i)
    os << "  param p" << i << " " << (param_u64[i] ? "u64" : "f64") << "\n";
  for (size_t i = 0; i < inputs.size(); ++i)
    os << "  input in" << i << " " << class_name(inputs[i].cls) << "\n";
  for (size_t i = 0; i < accesses.size(); ++i) {
    const Access& a = accesses[i];
    os << "  access a" << i << " [";
    for (size_t k = 0; k < a.strides.size(); ++k) {
      if (k) os << ',';
      os << a.strides[k];
    }
    os << "] base=" << a.base;
    for (auto& [s, c] : a.param_terms) os << "+p" << s << "*" << c;
    os << "\n";
  }
  print_instrs(os, body, "%");
  for (size_t i = 0; i < reduces.size(); ++i)
    os << "  r" << i << " = " << reduce_kind_name(reduces[i].kind)
       << (reduces[i].omitnan ? " omitnan" : "") << " %" << reduces[i].value << " : "
       << vtype_name(reduces[i].acc) << "\n";
  print_instrs(os, epilogue, "$");
  const bool epi = fusion_kind == FusionKind::Reduction || matmul.has_value();
  for (const KOutput& o : outputs)
    os << "  out " << (epi && !o.in_body ? "$" : "%") << o.value << " -> " << class_name(o.cls) << " a"
       << o.access << "\n";
  return std::move(os.s);
}

int64_t Kernel::elements() const {
  if (matmul) return out_space.numel();
  int64_t e = space.numel();
  if (fusion_kind == FusionKind::Reduction) e += out_space.numel();
  return e;
}

int64_t Kernel::elements_read(int input, int64_t numel) const {
  if (matmul && (input == matmul->a || input == matmul->b)) return numel;
  int64_t total = 0;
  auto scan = [&](const std::vector<Instr>& code, const Dims& sp) {
    for (const Instr& in : code) {
      if (in.kind != IKind::Load || in.input != input) continue;
      const Access& a = accesses[static_cast<size_t>(in.access)];
      int64_t f = 1;
      for (size_t d = 0; d < a.strides.size() && static_cast<int>(d) < sp.ndims(); ++d)
        if (a.strides[d] != 0) f *= sp[static_cast<int>(d)];
      total += f;
    }
  };
  scan(body, space);
  scan(epilogue, out_space);
  return std::min(total, numel);
}

std::string verify_kernel(const Kernel& k) {
  auto check_code = [&](const std::vector<Instr>& code, int nd, bool epi) -> std::string {
    for (size_t i = 0; i < code.size(); ++i) {
      const Instr& in = code[i];
      const int n = static_cast<int>(i);
      if ((in.a >= 0 && in.a >= n) || (in.b >= 0 && in.b >= n))
        return "instruction " + std::to_string(i) + " uses a later value";
      if (in.access >= 0) {
        if (in.access >= static_cast<int>(k.accesses.size())) return "bad access index";
        if (static_cast<int>(k.accesses[in.access].strides.size()) != nd)
          return "access rank differs from its space";
      }
      if (in.kind == IKind::Load && (in.input < 0 || in.input >= static_cast<int>(k.inputs.size())))
        return "bad input index";
      if ((in.kind == IKind::Param || in.kind == IKind::Rng) &&
          (in.slot < 0 || in.slot >= static_cast<int>(k.param_u64.size())))
        return "bad param slot";
      if (!epi && (in.kind == IKind::ReduceResult || in.kind == IKind::MatMulResult))
        return "epilogue-only instruction in body";
      if (in.kind == IKind::ReduceResult &&
          (in.reduce < 0 || in.reduce >= static_cast<int>(k.reduces.size())))
        return "bad reduce index";
    }
    return "";
  };
  std::string e = check_code(k.body, k.space.ndims(), false);
  if (!e.empty()) return "body: " + e;
  e = check_code(k.epilogue, k.out_space.ndims(), true);
  if (!e.empty()) return "epilogue: " + e;
  if (k.fusion_kind == FusionKind::Reduction && k.pre * k.n * k.post != k.space.numel())
    return "reduction view does not cover the space";
  if (k.matmul) {
    const KMatMul& m = *k.matmul;
    const Dims want = m.diag ? Dims(std::min(m.m, m.n), 1) : Dims(m.m, m.n);
    if (k.out_space != want) return "matmul epilogue space is not " + dims_str(want);
    if (m.diag && k.fusion_kind != FusionKind::MatMulEpilogue)
      return "diagonal epilogue outside a matmul_epilogue kernel";
    if (m.syrk && (m.a != m.b || m.trans_a == m.trans_b || m.m != m.n))
      return "syrk product that is not A.'*A or A*A.'";
    if (m.alpha_slot >= static_cast<int>(k.param_u64.size()))
      return "alpha parameter slot out of range";
  }
  const bool epi = k.fusion_kind == FusionKind::Reduction || k.matmul.has_value();
  for (const KOutput& o : k.outputs) {
    if (o.in_body && k.fusion_kind != FusionKind::Reduction) return "body output outside a reduction";
    const bool in_epi = epi && !o.in_body;
    const size_t nvals = in_epi ? k.epilogue.size() : k.body.size();
    const int rank = in_epi ? k.out_space.ndims() : k.space.ndims();
    if (o.access >= 0 && o.access < static_cast<int>(k.accesses.size()) &&
        static_cast<int>(k.accesses[o.access].strides.size()) != rank)
      return "output access rank differs from its space";
    if (o.value < 0 || o.value >= static_cast<int>(nvals) || o.access < 0 ||
        o.access >= static_cast<int>(k.accesses.size()))
      return "bad output";
  }
  for (const KReduce& r : k.reduces)
    if (r.value < 0 || r.value >= static_cast<int>(k.body.size())) return "bad reduce value";
  return "";
}

}  // namespace matfuse::accel
