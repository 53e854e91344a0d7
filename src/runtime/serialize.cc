// Value serialization (format in serialize.h).
#include "runtime/serialize.h"

#include <cstring>

#include "runtime/sparse.h"

namespace matfuse {

namespace {

constexpr char kMagic[4] = {'M', 'F', 'V', '1'};

enum Tag : uint8_t {
  kScalar = 1,
  kArray = 2,
  kCell = 3,
  kStruct = 4,
  kString = 5,
  kFunction = 6,
  kSparse = 7,
};


[[noreturn]] void unsupported(const std::string& cls) {
  throw_error("matfuse:serialize:unsupportedClass",
              "Cannot send a value of class '%s' to a parallel worker.", cls.c_str());
}

}  // namespace

void throw_corrupt(const char* what) {
  throw_error("matfuse:serialize:corrupt",
              "The data received from a parallel worker is corrupt or truncated (%s).", what);
}

// ---------------------------------------------------------------- writer

void ValueWriter::u32(uint32_t v) {
  for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void ValueWriter::u64(uint64_t v) {
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void ValueWriter::f64(double v) {
  uint64_t b;
  std::memcpy(&b, &v, 8);
  u64(b);
}

void ValueWriter::str(std::string_view s) {
  u64(s.size());
  out_.append(s.data(), s.size());
}

void ValueWriter::dims(const Dims& d) {
  u32(static_cast<uint32_t>(d.ndims()));
  for (int64_t x : d) i64(x);
}

void ValueWriter::value(const Value& v) { value_at(v, 0); }

void ValueWriter::value_at(const Value& v, int depth) {
  if (depth > kMaxSerializeDepth)
    throw_error("MATLAB:recursionLimit",
                "Cannot send a value nested more than %d levels deep to a parallel worker.",
                kMaxSerializeDepth);
  switch (v.kind()) {
    case Value::Kind::Scalar:
      u8(kScalar);
      f64(v.scalar());
      return;
    case Value::Kind::Array: {
      const Tensor& t = *v.array_tensor();
      const bool cplx = t.is_complex();  // forces a lazy value that may turn complex
      u8(kArray);
      u8(static_cast<uint8_t>(t.cls()));
      u8(static_cast<uint8_t>((cplx ? 1 : 0) | (t.gpu_array() ? 2 : 0)));
      dims(t.dims());
      const size_t bytes = static_cast<size_t>(t.numel()) * static_cast<size_t>(t.elem_bytes());
      if (bytes) out_.append(static_cast<const char*>(t.raw()), bytes);
      return;
    }
    case Value::Kind::Cell: {
      const CellArray& c = v.cell();
      u8(kCell);
      dims(c.dims());
      for (const Value& e : c.elems()) value_at(e, depth + 1);
      return;
    }
    case Value::Kind::Struct: {
      const StructArray& s = v.struct_array();
      u8(kStruct);
      dims(s.dims());
      u32(static_cast<uint32_t>(s.fields().size()));
      for (const auto& f : s.fields()) str(f);
      const int nf = static_cast<int>(s.fields().size());
      for (int64_t e = 0; e < s.numel(); ++e)
        for (int f = 0; f < nf; ++f) value_at(s.get(e, f), depth + 1);
      return;
    }
    case Value::Kind::String: {
      const StringArray& s = v.string_array();
      u8(kString);
      dims(s.dims());
      for (const auto& e : s.elems()) {
        u8(e ? 1 : 0);
        if (e) str(*e);
      }
      return;
    }
    case Value::Kind::Function: {
      FunctionParts parts;
      if (!codec_ || !codec_->encode(*v.function(), parts)) unsupported("function_handle");
      u8(kFunction);
      u8(parts.anonymous ? 1 : 0);
      str(parts.text);
      u32(static_cast<uint32_t>(parts.workspace.size()));
      for (const auto& [name, val] : parts.workspace) {
        str(name);
        value_at(val, depth + 1);
      }
      return;
    }
    case Value::Kind::Object: {
      const SparseMatrix* sp = as_sparse(v);
      if (!sp) unsupported(v.class_name());
      const Tensor& vals = sp->vals();
      const bool cplx = vals.is_complex();
      u8(kSparse);
      u64(static_cast<uint64_t>(sp->rows()));
      u64(static_cast<uint64_t>(sp->cols()));
      u8(static_cast<uint8_t>((vals.cls() == ClassId::Logical ? 1 : 0) | (cplx ? 2 : 0)));
      u64(static_cast<uint64_t>(sp->nnz()));
      for (int64_t x : sp->jc()) i64(x);
      for (int64_t k = 0; k < sp->nnz(); ++k) i64(sp->ir()[static_cast<size_t>(k)]);
      const size_t bytes = static_cast<size_t>(sp->nnz()) * static_cast<size_t>(vals.elem_bytes());
      if (bytes) out_.append(static_cast<const char*>(vals.raw()), bytes);
      return;
    }
  }
}

std::string serialize_value(const Value& v, FunctionCodec* codec) {
  ValueWriter w(codec);
  for (char c : kMagic) w.u8(static_cast<uint8_t>(c));
  w.value(v);
  return w.take();
}

// ---------------------------------------------------------------- reader

const char* ValueReader::need(size_t n) {
  if (n > remaining()) throw_corrupt("truncated");
  const char* p = p_;
  p_ += n;
  return p;
}

uint8_t ValueReader::u8() { return static_cast<uint8_t>(*need(1)); }

uint32_t ValueReader::u32() {
  const auto* p = reinterpret_cast<const unsigned char*>(need(4));
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

uint64_t ValueReader::u64() {
  const auto* p = reinterpret_cast<const unsigned char*>(need(8));
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

double ValueReader::f64() {
  uint64_t b = u64();
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

std::string ValueReader::str() {
  uint64_t n = u64();
  if (n > remaining()) throw_corrupt("text longer than the message");
  const char* p = need(static_cast<size_t>(n));
  return std::string(p, static_cast<size_t>(n));
}

Dims ValueReader::dims() {
  uint32_t nd = u32();
  if (nd < 2 || nd > 64) throw_corrupt("bad number of dimensions");
  Dims d;
  double total = 1;
  for (uint32_t k = 0; k < nd; ++k) {
    int64_t x = i64();
    if (x < 0) throw_corrupt("negative size");
    total *= static_cast<double>(x);
    if (k < 2) d.set(static_cast<int>(k), x);
    else d.push_back(x);
  }
  if (total > 9.0e15) throw_corrupt("size too large");
  d.normalize();
  return d;
}

void ValueReader::expect_end() const {
  if (remaining() != 0) throw_corrupt("bytes after the value");
}

Value ValueReader::value() { return value_at(0); }

Value ValueReader::value_at(int depth) {
  if (depth > kMaxSerializeDepth) throw_corrupt("nesting too deep");
  const uint8_t tag = u8();
  switch (tag) {
    case kScalar:
      return Value(f64());
    case kArray: {
      const uint8_t c = u8();
      if (c >= kNumClassIds) throw_corrupt("unknown class");
      const uint8_t flags = u8();
      if (flags & ~3u) throw_corrupt("unknown array flags");
      const auto cls = static_cast<ClassId>(c);
      const bool cplx = flags & 1;
      if (cplx && (cls == ClassId::Logical || cls == ClassId::Char)) throw_corrupt("complex char");
      Dims d = dims();
      const size_t esz = static_cast<size_t>(element_size(cls)) * (cplx ? 2 : 1);
      const double bytes = static_cast<double>(d.numel()) * static_cast<double>(esz);
      if (bytes > static_cast<double>(remaining())) throw_corrupt("array data truncated");
      Tensor t = Tensor::uninit(cls, d, cplx);
      const size_t n = static_cast<size_t>(bytes);
      if (n) {
        const char* src = need(n);
        if (cls == ClassId::Logical) {
          bool* dst = t.mutable_data<bool>();
          for (size_t i = 0; i < n; ++i) dst[i] = src[i] != 0;
        } else {
          std::memcpy(t.mutable_raw(), src, n);
        }
      }
      if (flags & 2) t.set_gpu_array(true);
      return Value(std::move(t));
    }
    case kCell: {
      Dims d = dims();
      if (static_cast<double>(d.numel()) > static_cast<double>(remaining()))
        throw_corrupt("cell data truncated");
      CellArray cell(d);
      auto& elems = cell.mutable_elems();
      for (auto& e : elems) e = value_at(depth + 1);
      return Value(std::move(cell));
    }
    case kStruct: {
      Dims d = dims();
      const uint32_t nf = u32();
      if (nf > remaining()) throw_corrupt("struct fields truncated");
      if (static_cast<double>(d.numel()) * nf > static_cast<double>(remaining()))
        throw_corrupt("struct data truncated");
      StructArray s(d);
      for (uint32_t f = 0; f < nf; ++f) {
        std::string name = str();
        if (name.empty() || s.field_index(name) >= 0) throw_corrupt("bad or repeated field name");
        s.add_field(name);
      }
      for (int64_t e = 0; e < s.numel(); ++e)
        for (uint32_t f = 0; f < nf; ++f) s.at(e, static_cast<int>(f)) = value_at(depth + 1);
      return Value(std::move(s));
    }
    case kString: {
      Dims d = dims();
      if (static_cast<double>(d.numel()) > static_cast<double>(remaining()))
        throw_corrupt("string data truncated");
      StringArray s(d);
      for (int64_t i = 0; i < s.numel(); ++i) {
        const uint8_t present = u8();
        if (present > 1) throw_corrupt("bad string flag");
        if (present) s.at(i) = str();
        else s.at(i) = std::nullopt;
      }
      return Value(std::move(s));
    }
    case kFunction: {
      FunctionParts parts;
      const uint8_t anon = u8();
      if (anon > 1) throw_corrupt("bad function flag");
      parts.anonymous = anon;
      parts.text = str();
      const uint32_t n = u32();
      if (n > remaining()) throw_corrupt("workspace truncated");
      for (uint32_t i = 0; i < n; ++i) {
        std::string name = str();
        Value v = value_at(depth + 1);
        parts.workspace.emplace_back(std::move(name), std::move(v));
      }
      if (!codec_) unsupported("function_handle");
      return codec_->decode(parts);
    }
    case kSparse: {
      const uint64_t m = u64(), n = u64();
      const uint8_t flags = u8();
      if (flags & ~3u) throw_corrupt("unknown sparse flags");
      const uint64_t nnz = u64();
      if (m >= (uint64_t{1} << 48) || n >= (uint64_t{1} << 48)) throw_corrupt("sparse size");
      const bool logical = flags & 1, cplx = flags & 2;
      if (logical && cplx) throw_corrupt("complex logical sparse");
      const size_t esz = logical ? 1 : (cplx ? 16 : 8);
      const double need_bytes = (static_cast<double>(n) + 1 + static_cast<double>(nnz)) * 8 +
                                static_cast<double>(nnz) * static_cast<double>(esz);
      if (need_bytes > static_cast<double>(remaining())) throw_corrupt("sparse data truncated");
      if (static_cast<double>(nnz) > static_cast<double>(m) * static_cast<double>(n))
        throw_corrupt("sparse nonzero count");
      std::vector<int64_t> jc(static_cast<size_t>(n) + 1), ir(static_cast<size_t>(nnz));
      for (auto& x : jc) x = i64();
      for (auto& x : ir) x = i64();
      if (jc[0] != 0 || jc.back() != static_cast<int64_t>(nnz)) throw_corrupt("sparse column starts");
      for (size_t j = 0; j < static_cast<size_t>(n); ++j)
        if (jc[j + 1] < jc[j]) throw_corrupt("sparse column starts");
      for (size_t j = 0; j < static_cast<size_t>(n); ++j) {
        for (int64_t k = jc[j]; k < jc[j + 1]; ++k) {
          const int64_t r = ir[static_cast<size_t>(k)];
          if (r < 0 || static_cast<uint64_t>(r) >= m) throw_corrupt("sparse row index");
          if (k > jc[j] && r <= ir[static_cast<size_t>(k - 1)]) throw_corrupt("sparse row order");
        }
      }
      Tensor vals = Tensor::uninit(logical ? ClassId::Logical : ClassId::Double,
                                   Dims(static_cast<int64_t>(nnz), 1), cplx);
      const size_t bytes = static_cast<size_t>(nnz) * esz;
      if (bytes) {
        const char* src = need(bytes);
        if (logical) {
          bool* dst = vals.mutable_data<bool>();
          for (size_t i = 0; i < bytes; ++i) dst[i] = src[i] != 0;
        } else {
          std::memcpy(vals.mutable_raw(), src, bytes);
        }
      }
      return make_sparse(static_cast<int64_t>(m), static_cast<int64_t>(n), std::move(jc),
                         std::move(ir), std::move(vals));
    }
    default:
      throw_corrupt("unknown value tag");
  }
}

Value deserialize_value(std::string_view bytes, FunctionCodec* codec) {
  if (bytes.size() < 4 || std::memcmp(bytes.data(), kMagic, 4) != 0) throw_corrupt("bad header");
  ValueReader r(bytes.substr(4), codec);
  Value v = r.value();
  r.expect_end();
  return v;
}

}  // namespace matfuse
