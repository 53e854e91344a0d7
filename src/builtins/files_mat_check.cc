// Structural check of a MAT v5 file (MATLAB's -v6/-v7 layout) before libmatio reads it.
//
// libmatio trusts the sizes a file declares: a truncated or corrupt file loads as zeros or heap
// garbage, crashes, or makes it allocate gigabytes from a 1 KB file. This walk of the element
// tree (MATLAB "MAT-File Format", R2019b, chapter 1) checks every size against what contains it
// before anything is allocated from it:
//   - the 128-byte header ends in the endian indicator "IM" (or byte-swapped "MI");
//   - every data element (8-byte tag, or the 4-byte "small data element" form) lies within its
//     parent, and non-compressed elements are padded to 8 bytes;
//   - miCOMPRESSED elements inflate (zlib) without error; the inflated size is at most the
//     1032:1 ratio that deflate can reach, so a small file never inflates to a large buffer;
//   - an miMATRIX has array flags, dims (each >= 0, product without overflow) and a name; a
//     numeric or char array's real and imaginary parts hold exactly numel elements of their type;
//     a cell has numel miMATRIX elements; a struct has a field-name length, names of that length
//     (each NUL-terminated and non-empty) and numel * nfields miMATRIX elements; a function
//     handle (mxFUNCTION_CLASS) holds numel variables (miMATRIX or miCOMPRESSED elements).
// v7.3 files (HDF5) are left to the HDF5 library. Errors: MATLAB:load:unableToReadMatFile,
// "Unable to read MAT-file PATH. File might be corrupt." (MATLAB's text).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "builtins/files_util.h"
#include "runtime/error.h"
#include "runtime/stack_guard.h"

#if MATFUSE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace matfuse::files_detail {

namespace {

enum : uint32_t {
  miINT8 = 1, miUINT8 = 2, miINT16 = 3, miUINT16 = 4, miINT32 = 5, miUINT32 = 6, miSINGLE = 7,
  miDOUBLE = 9, miINT64 = 12, miUINT64 = 13, miMATRIX = 14, miCOMPRESSED = 15, miUTF8 = 16,
  miUTF16 = 17, miUTF32 = 18
};

enum : uint32_t {
  mxCELL = 1, mxSTRUCT = 2, mxOBJECT = 3, mxCHAR = 4, mxSPARSE = 5, mxDOUBLE = 6, mxUINT64 = 15,
  mxFUNCTION = 16, mxOPAQUE = 17
};

struct Bad {};  // thrown inside the walk; turned into the MATLAB error at the top

size_t type_size(uint32_t t) {
  switch (t) {
    case miINT8: case miUINT8: case miUTF8: return 1;
    case miINT16: case miUINT16: case miUTF16: return 2;
    case miINT32: case miUINT32: case miSINGLE: case miUTF32: return 4;
    case miDOUBLE: case miINT64: case miUINT64: return 8;
    default: return 0;
  }
}

struct Element {
  uint32_t type = 0;
  const uint8_t* data = nullptr;
  size_t size = 0;
};

class Walker {
 public:
  explicit Walker(bool swap) : swap_(swap) {}

  uint32_t u32(const uint8_t* p) const {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return swap_ ? __builtin_bswap32(v) : v;
  }

  /// Reads the element at [p, end) and advances p past it (and its padding).
  Element next(const uint8_t*& p, const uint8_t* end, bool top) const {
    if (end - p < 8) throw Bad{};
    uint32_t w0 = u32(p);
    Element e;
    if (w0 >> 16) {  // small data element: type in the low half, size in the high half
      e.type = w0 & 0xffff;
      e.size = w0 >> 16;
      if (e.size > 4) throw Bad{};
      e.data = p + 4;
      p += 8;
      return e;
    }
    e.type = w0;
    e.size = u32(p + 4);
    p += 8;
    if (static_cast<size_t>(end - p) < e.size) throw Bad{};
    e.data = p;
    size_t adv = e.size;
    // Compressed elements are not padded; the last element of a file may lack its padding.
    if (e.type != miCOMPRESSED) adv = (adv + 7) & ~size_t{7};
    p += std::min(adv, static_cast<size_t>(end - p));
    (void)top;
    return e;
  }

  void top_level(const uint8_t* p, const uint8_t* end) {
    while (p < end) {
      if (end - p < 8) break;  // trailing padding
      Element e = next(p, end, true);
      // Other top-level element types are ignored by readers (as MATLAB does).
      if (e.type == miCOMPRESSED || e.type == miMATRIX) variable(e);
    }
  }

  /// A variable: an miMATRIX element, or an miCOMPRESSED one holding an miMATRIX.
  void variable(const Element& e) {
    if (e.type == miCOMPRESSED) {
      std::vector<uint8_t> raw = inflate(e.data, e.size);
      const uint8_t* q = raw.data();
      const uint8_t* qe = q + raw.size();
      Element inner = next(q, qe, true);
      if (inner.type != miMATRIX) throw Bad{};
      matrix(inner);
    } else if (e.type == miMATRIX) {
      matrix(e);
    } else {
      throw Bad{};
    }
  }

  void matrix(const Element& m) {
    check_stack_depth();
    if (m.size == 0) return;  // an empty matrix element (matio writes these for [] in cells)
    const uint8_t* p = m.data;
    const uint8_t* end = m.data + m.size;
    Element flags = next(p, end, false);
    if (flags.type != miUINT32 || flags.size != 8) throw Bad{};
    const uint32_t f0 = u32(flags.data);
    const uint32_t cls = f0 & 0xff;
    const bool complex = (f0 & 0x0800) != 0;
    Element dims = next(p, end, false);
    if (dims.type != miINT32 || dims.size < 8 || dims.size % 4) throw Bad{};
    uint64_t numel = 1;
    for (size_t k = 0; k < dims.size / 4; ++k) {
      const int32_t d = static_cast<int32_t>(u32(dims.data + 4 * k));
      if (d < 0) throw Bad{};
      if (d != 0 && numel > (uint64_t{1} << 48) / static_cast<uint64_t>(d)) throw Bad{};
      numel *= static_cast<uint64_t>(d);
    }
    Element name = next(p, end, false);
    if (name.type != miINT8 && name.type != miUINT8) throw Bad{};
    if (cls == mxCELL) {
      for (uint64_t i = 0; i < numel; ++i) {
        Element c = next(p, end, false);
        if (c.type != miMATRIX) throw Bad{};
        matrix(c);
      }
      return;
    }
    if (cls == mxSTRUCT || cls == mxOBJECT) {
      if (cls == mxOBJECT) {
        Element cname = next(p, end, false);
        if (cname.type != miINT8) throw Bad{};
      }
      Element len = next(p, end, false);
      if (len.type != miINT32 || len.size != 4) throw Bad{};
      const uint32_t flen = u32(len.data);
      Element names = next(p, end, false);
      if (names.type != miINT8 && names.type != miUINT8) throw Bad{};
      if (flen == 0 ? names.size != 0 : names.size % flen != 0) throw Bad{};
      const uint64_t nf = flen ? names.size / flen : 0;
      for (uint64_t f = 0; f < nf; ++f) {
        const uint8_t* s = names.data + f * flen;
        if (s[0] == 0 || std::memchr(s, 0, flen) == nullptr) throw Bad{};
      }
      if (nf != 0 && numel > (m.size / 8) / nf) throw Bad{};  // each field needs a tag
      for (uint64_t i = 0; i < numel * nf; ++i) {
        Element c = next(p, end, false);
        if (c.type != miMATRIX) throw Bad{};
        matrix(c);
      }
      return;
    }
    if (cls == mxSPARSE) {
      // ir, jc, pr (and pi): each must lie within the element (their counts are checked on load).
      for (int k = 0; k < (complex ? 4 : 3); ++k) next(p, end, false);
      return;
    }
    if (cls == mxFUNCTION) {
      // A function handle holds numel variables (libmatio reads them one by one, after
      // allocating numel pointers from the dims): each must be there, within the element.
      if (numel > static_cast<uint64_t>(end - p) / 8) throw Bad{};
      for (uint64_t i = 0; i < numel; ++i) variable(next(p, end, false));
      return;  // skipped on load
    }
    if (cls == mxOPAQUE) return;  // skipped on load
    if (cls != mxCHAR && (cls < mxDOUBLE || cls > mxUINT64)) throw Bad{};
    for (int part = 0; part < (complex ? 2 : 1); ++part) {
      if (numel == 0 && p >= end) return;
      Element d = next(p, end, false);
      if (cls == mxCHAR && d.type == miUTF8) {
        if (d.size < numel) throw Bad{};  // at least one byte per character
        continue;
      }
      const size_t es = type_size(d.type);
      if (es == 0 || d.size / es != numel || d.size % es) throw Bad{};
    }
  }

  std::vector<uint8_t> inflate(const uint8_t* src, size_t n) const {
#if MATFUSE_HAVE_ZLIB
    // deflate cannot compress better than about 1032:1, so a valid stream never exceeds this.
    const size_t cap = n * 1100 + 4096;
    std::vector<uint8_t> out;
    z_stream z{};
    if (inflateInit(&z) != Z_OK) throw Bad{};
    z.next_in = const_cast<Bytef*>(src);
    z.avail_in = static_cast<uInt>(n);
    int rc = Z_OK;
    while (rc == Z_OK) {
      if (out.size() >= cap) break;
      size_t old = out.size();
      out.resize(std::min(cap, std::max<size_t>(old * 2, 1 << 16)));
      z.next_out = out.data() + old;
      z.avail_out = static_cast<uInt>(out.size() - old);
      rc = ::inflate(&z, Z_NO_FLUSH);
      out.resize(out.size() - z.avail_out);
      if (rc == Z_BUF_ERROR && z.avail_in == 0) break;  // truncated stream
      if (rc == Z_BUF_ERROR) rc = Z_OK;
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END) throw Bad{};
    return out;
#else
    (void)src;
    (void)n;
    throw_error("matfuse:notAvailable",
                "Reading a compressed MAT-file requires zlib, which this build of matfuse does "
                "not include.");
#endif
  }

 private:
  bool swap_;
};

}  // namespace

MatFormat mat_validate(const std::string& path, const std::string& bytes) {
  auto corrupt = [&] {
    throw_error("MATLAB:load:unableToReadMatFile",
                "Unable to read MAT-file %s. File might be corrupt.", path.c_str());
  };
  const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
  if (bytes.size() < 128 || bytes.compare(0, 7, "MATLAB ") != 0)
    throw_error("MATLAB:load:unableToReadMatFile",
                "Unable to read MAT-file %s. Not a binary MAT-file. Try load -ASCII to read as "
                "text.",
                path.c_str());
  const bool le = b[126] == 'I' && b[127] == 'M';
  const bool be = b[126] == 'M' && b[127] == 'I';
  if (!le && !be) corrupt();
  const uint16_t version = le ? static_cast<uint16_t>(b[124] | (b[125] << 8))
                              : static_cast<uint16_t>((b[124] << 8) | b[125]);
  if (version == 0x0200) return MatFormat::V73;  // HDF5 checks its own structure
  if (version != 0x0100) corrupt();
  try {
    Walker w(be);
    w.top_level(b + 128, b + bytes.size());
  } catch (const Bad&) {
    corrupt();
  }
  return MatFormat::V5;
}

}  // namespace matfuse::files_detail
