// MAT-file reading and writing through libmatio (MATFUSE_HAVE_MATIO).
//
// Supported classes: double, single, int8 ... uint64 (real or complex), logical, char, cell and
// struct arrays of any dims (nested), sparse matrices (double or logical, real or complex; in
// MATLAB's layout: ir, jc and the values of the stored entries). Other values (string arrays,
// function handles, objects) are skipped with a warning on save; object variables in a file are
// skipped on load.
// Format: MAT v5 (MATLAB's -v6/-v7 layout, uncompressed) by default; '-v7.3' (HDF5) when the
// installed libmatio was built with HDF5, else matfuse:notAvailable.
#include "builtins/files_util.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>

#include "builtins/format.h"
#include "runtime/atomic_file.h"
#include "runtime/sparse.h"
#include "runtime/stack_guard.h"

#if MATFUSE_HAVE_MATIO
#include <dlfcn.h>
#include <matio.h>
#endif

namespace matfuse::files_detail {

#if MATFUSE_HAVE_MATIO

namespace {

struct VarDeleter {
  void operator()(matvar_t* v) const { Mat_VarFree(v); }
};
using VarPtr = std::unique_ptr<matvar_t, VarDeleter>;

matio_classes mat_class(ClassId c) {
  switch (c) {
    case ClassId::Double: return MAT_C_DOUBLE;
    case ClassId::Single: return MAT_C_SINGLE;
    case ClassId::Logical: return MAT_C_UINT8;
    case ClassId::Char: return MAT_C_CHAR;
    case ClassId::Int8: return MAT_C_INT8;
    case ClassId::UInt8: return MAT_C_UINT8;
    case ClassId::Int16: return MAT_C_INT16;
    case ClassId::UInt16: return MAT_C_UINT16;
    case ClassId::Int32: return MAT_C_INT32;
    case ClassId::UInt32: return MAT_C_UINT32;
    case ClassId::Int64: return MAT_C_INT64;
    case ClassId::UInt64: return MAT_C_UINT64;
  }
  return MAT_C_DOUBLE;
}
matio_types mat_type(ClassId c) {
  switch (c) {
    case ClassId::Double: return MAT_T_DOUBLE;
    case ClassId::Single: return MAT_T_SINGLE;
    case ClassId::Logical: return MAT_T_UINT8;
    case ClassId::Char: return MAT_T_UINT16;
    case ClassId::Int8: return MAT_T_INT8;
    case ClassId::UInt8: return MAT_T_UINT8;
    case ClassId::Int16: return MAT_T_INT16;
    case ClassId::UInt16: return MAT_T_UINT16;
    case ClassId::Int32: return MAT_T_INT32;
    case ClassId::UInt32: return MAT_T_UINT32;
    case ClassId::Int64: return MAT_T_INT64;
    case ClassId::UInt64: return MAT_T_UINT64;
  }
  return MAT_T_DOUBLE;
}
std::optional<ClassId> class_of_mat(matio_classes c) {
  switch (c) {
    case MAT_C_DOUBLE: return ClassId::Double;
    case MAT_C_SINGLE: return ClassId::Single;
    case MAT_C_INT8: return ClassId::Int8;
    case MAT_C_UINT8: return ClassId::UInt8;
    case MAT_C_INT16: return ClassId::Int16;
    case MAT_C_UINT16: return ClassId::UInt16;
    case MAT_C_INT32: return ClassId::Int32;
    case MAT_C_UINT32: return ClassId::UInt32;
    case MAT_C_INT64: return ClassId::Int64;
    case MAT_C_UINT64: return ClassId::UInt64;
    default: return std::nullopt;
  }
}

std::vector<size_t> mat_dims(const Dims& d) {
  std::vector<size_t> out;
  for (int k = 0; k < d.ndims(); ++k) out.push_back(static_cast<size_t>(d[k]));
  return out;
}

/// A Value as a new matio variable (null for unsupported kinds; `skipped` names them).
matvar_t* to_matvar(const char* name, const Value& v, std::vector<std::string>& skipped) {
  check_stack_depth();  // cells and structs recurse
  std::vector<size_t> dims = mat_dims(v.dims());
  const int rank = static_cast<int>(dims.size());
  if (v.is_tensor()) {
    Tensor t = v.tensor();
    const ClassId c = t.cls();
    int flags = c == ClassId::Logical ? MAT_F_LOGICAL : 0;
    if (t.is_complex()) {
      const int64_t n = t.numel();
      const int eb = element_size(c);
      std::vector<char> re(static_cast<size_t>(n * eb) + 1), im(static_cast<size_t>(n * eb) + 1);
      const char* src = static_cast<const char*>(t.raw());
      for (int64_t i = 0; i < n; ++i) {
        std::memcpy(re.data() + i * eb, src + 2 * i * eb, eb);
        std::memcpy(im.data() + i * eb, src + (2 * i + 1) * eb, eb);
      }
      mat_complex_split_t z{re.data(), im.data()};
      return Mat_VarCreate(name, mat_class(c), mat_type(c), rank, dims.data(), &z,
                           flags | MAT_F_COMPLEX);
    }
    return Mat_VarCreate(name, mat_class(c), mat_type(c), rank, dims.data(),
                         const_cast<void*>(t.raw()), flags);
  }
  if (const SparseMatrix* sm = as_sparse(v)) {
    // MAT v5 keeps 32-bit subscripts; matio copies the arrays it is given.
    if (sm->rows() > 0xFFFFFFFFLL || sm->nnz() > 0xFFFFFFFFLL) {
      skipped.push_back(std::string(name) + " (sparse matrix too large for the MAT format)");
      return nullptr;
    }
    const int64_t nz = sm->nnz();
    std::vector<mat_uint32_t> ir(static_cast<size_t>(nz) + 1), jc(static_cast<size_t>(sm->cols()) + 1);
    for (int64_t k = 0; k < nz; ++k) ir[k] = static_cast<mat_uint32_t>(sm->ir()[k]);
    for (int64_t c = 0; c <= sm->cols(); ++c) jc[c] = static_cast<mat_uint32_t>(sm->jc()[c]);
    // Values as double (logical ones as 0/1 with the logical flag, as MATLAB writes them).
    std::vector<double> re(static_cast<size_t>(nz) + 1), im(static_cast<size_t>(nz) + 1);
    for (int64_t k = 0; k < nz; ++k) {
      const std::complex<double> z = sm->vals().get_complex(k);
      re[k] = z.real();
      im[k] = z.imag();
    }
    mat_complex_split_t z{re.data(), im.data()};
    mat_sparse_t sparse{};
    sparse.nzmax = static_cast<mat_uint32_t>(std::max<int64_t>(nz, 1));
    sparse.ir = ir.data();
    sparse.nir = static_cast<mat_uint32_t>(nz);
    sparse.jc = jc.data();
    sparse.njc = static_cast<mat_uint32_t>(sm->cols() + 1);
    sparse.ndata = static_cast<mat_uint32_t>(nz);
    sparse.data = sm->is_complex() ? static_cast<void*>(&z) : static_cast<void*>(re.data());
    // Logical values go as uint8 (matio writes a logical sparse matrix's data that way).
    std::vector<uint8_t> bits(static_cast<size_t>(nz) + 1);
    if (sm->is_logical()) {
      for (int64_t k = 0; k < nz; ++k) bits[k] = re[k] != 0;
      sparse.data = bits.data();
    }
    const int flags = (sm->is_logical() ? MAT_F_LOGICAL : 0) | (sm->is_complex() ? MAT_F_COMPLEX : 0);
    size_t sd[2] = {static_cast<size_t>(sm->rows()), static_cast<size_t>(sm->cols())};
    return Mat_VarCreate(name, MAT_C_SPARSE, sm->is_logical() ? MAT_T_UINT8 : MAT_T_DOUBLE, 2, sd,
                         &sparse, flags);
  }
  if (v.is_cell()) {
    const CellArray& c = v.cell();
    matvar_t* mv = Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, rank, dims.data(), nullptr, 0);
    if (!mv) return nullptr;
    VarPtr own(mv);
    for (int64_t i = 0; i < c.numel(); ++i) {
      matvar_t* e = to_matvar("", c[i], skipped);
      if (!e) e = Mat_VarCreate("", MAT_C_DOUBLE, MAT_T_DOUBLE, 2,
                                std::vector<size_t>{0, 0}.data(), nullptr, 0);
      Mat_VarSetCell(mv, static_cast<int>(i), e);
    }
    return own.release();
  }
  if (v.is_struct()) {
    const StructArray& s = v.struct_array();
    std::vector<const char*> fields;
    for (const auto& f : s.fields()) fields.push_back(f.c_str());
    fields.push_back(nullptr);
    matvar_t* mv = Mat_VarCreateStruct2(name, rank, dims.data(), fields.data());
    if (!mv) return nullptr;
    VarPtr own(mv);
    for (int64_t i = 0; i < s.numel(); ++i)
      for (size_t f = 0; f < s.fields().size(); ++f) {
        matvar_t* e = to_matvar(s.fields()[f].c_str(), s.get(i, static_cast<int>(f)), skipped);
        if (!e) e = Mat_VarCreate(s.fields()[f].c_str(), MAT_C_DOUBLE, MAT_T_DOUBLE, 2,
                                  std::vector<size_t>{0, 0}.data(), nullptr, 0);
        Mat_VarSetStructFieldByIndex(mv, f, static_cast<size_t>(i), e);
      }
    return own.release();
  }
  skipped.push_back(std::string(name) + " (" + v.class_name() + ")");
  return nullptr;
}

Dims value_dims(const matvar_t* mv) {
  Dims d(mv->rank > 0 ? static_cast<int64_t>(mv->dims[0]) : 0,
         mv->rank > 1 ? static_cast<int64_t>(mv->dims[1]) : 1);
  for (int k = 2; k < mv->rank; ++k) d.push_back(static_cast<int64_t>(mv->dims[k]));
  d.normalize();
  return d;
}

/// Reads element i of a data block of matio type t as double.
double elem_as_double(const void* p, matio_types t, int64_t i) {
  switch (t) {
    case MAT_T_DOUBLE: return static_cast<const double*>(p)[i];
    case MAT_T_SINGLE: return static_cast<const float*>(p)[i];
    case MAT_T_INT8: return static_cast<const int8_t*>(p)[i];
    case MAT_T_UINT8: return static_cast<const uint8_t*>(p)[i];
    case MAT_T_INT16: return static_cast<const int16_t*>(p)[i];
    case MAT_T_UINT16: return static_cast<const uint16_t*>(p)[i];
    case MAT_T_INT32: return static_cast<const int32_t*>(p)[i];
    case MAT_T_UINT32: return static_cast<const uint32_t*>(p)[i];
    case MAT_T_INT64: return static_cast<double>(static_cast<const int64_t*>(p)[i]);
    case MAT_T_UINT64: return static_cast<double>(static_cast<const uint64_t*>(p)[i]);
    default: return 0;
  }
}

/// Copies n elements of type t into the (real) part layout of tensor class c.
void copy_part(Tensor& out, const void* src, matio_types t, int64_t n, int part, int parts) {
  const int eb = element_size(out.cls());
  char* dst = static_cast<char*>(out.mutable_raw());
  const bool same = (mat_type(out.cls()) == t || (out.cls() == ClassId::Logical && t == MAT_T_UINT8)) &&
                    out.cls() != ClassId::Char;
  for (int64_t i = 0; i < n; ++i) {
    char* d = dst + (i * parts + part) * eb;
    if (same) {
      std::memcpy(d, static_cast<const char*>(src) + i * eb, eb);
    } else {
      double x = elem_as_double(src, t, i);
      dispatch_class(out.cls(), [&](auto tag) {
        using T = decltype(tag);
        T y = saturate_cast<T>(x);
        std::memcpy(d, &y, sizeof(T));
      });
    }
  }
}

/// The load error for a file whose content does not match what it declares.
[[noreturn]] void corrupt_file(const std::string& path) {
  throw_error("MATLAB:load:unableToReadMatFile",
              "Unable to read MAT-file %s. File might be corrupt.", path.c_str());
}

/// HDF5, which libmatio uses for v7.3 files, reached through the symbols libmatio brought into
/// the process (HDF5 1.10 C API: hid_t is int64_t; H5E_DEFAULT, H5P_DEFAULT and H5F_ACC_RDONLY
/// are 0). On first use the library is initialised and its automatic error report switched off:
/// every failed HDF5 call printed an "HDF5-DIAG" stack to stderr beside matfuse's own error.
/// Where libmatio was built without HDF5 the symbols are absent and nothing is done.
class Hdf5 {
public:
  Hdf5() {
    using Open = int (*)();
    using SetAuto = int (*)(int64_t, void*, void*);
    // HDF5's exit-time shutdown is not registered: after a failed open of a damaged file (a
    // leak inside HDF5 1.10) it printed "infinite loop closing library" at every exit. Every
    // file matfuse opens is closed before load or save returns, so nothing is left to flush.
    if (auto dont_atexit = reinterpret_cast<Open>(dlsym(RTLD_DEFAULT, "H5dont_atexit")))
      dont_atexit();
    auto open = reinterpret_cast<Open>(dlsym(RTLD_DEFAULT, "H5open"));
    if (!open || open() < 0) return;
    if (auto set_auto = reinterpret_cast<SetAuto>(dlsym(RTLD_DEFAULT, "H5Eset_auto2")))
      set_auto(0, nullptr, nullptr);
    fopen_ = reinterpret_cast<FOpen>(dlsym(RTLD_DEFAULT, "H5Fopen"));
    fclose_ = reinterpret_cast<FClose>(dlsym(RTLD_DEFAULT, "H5Fclose"));
  }
  /// Whether HDF5 opens path for reading (false: truncated, or a damaged superblock). Mat_Open
  /// accepts a v7.3 file from its 128-byte MAT header alone; on such a file it then reads no
  /// variables, and leaks HDF5 identifiers that make HDF5 print "infinite loop closing library"
  /// at exit.
  bool opens(const std::string& path) const {
    if (!fopen_ || !fclose_) return true;
    const int64_t f = fopen_(path.c_str(), 0, 0);
    if (f < 0) return false;
    fclose_(f);
    return true;
  }

private:
  using FOpen = int64_t (*)(const char*, unsigned, int64_t);
  using FClose = int (*)(int64_t);
  FOpen fopen_ = nullptr;
  FClose fclose_ = nullptr;
};
const Hdf5& hdf5() {
  static const Hdf5 h;
  return h;
}

/// Bytes per element of matio type t (0 for non-numeric types).
size_t mat_type_size(matio_types t) {
  switch (t) {
    case MAT_T_INT8: case MAT_T_UINT8: case MAT_T_UTF8: return 1;
    case MAT_T_INT16: case MAT_T_UINT16: case MAT_T_UTF16: return 2;
    case MAT_T_INT32: case MAT_T_UINT32: case MAT_T_SINGLE: case MAT_T_UTF32: return 4;
    case MAT_T_DOUBLE: case MAT_T_INT64: case MAT_T_UINT64: return 8;
    default: return 0;
  }
}

/// A value from a matio variable. Every count is checked against what matio read (the element
/// pointers of a cell or struct, the bytes of a numeric part); a mismatch is a corrupt file.
std::optional<Value> from_matvar(matvar_t* mv, const std::string& path,
                                 std::vector<std::string>& skipped) {
  check_stack_depth();
  if (mv->rank < 0 || (mv->rank > 0 && !mv->dims)) corrupt_file(path);
  double want = 1;
  for (int k = 0; k < mv->rank; ++k) want *= static_cast<double>(mv->dims[k]);
  if (want > 9.0e15) corrupt_file(path);
  const Dims d = value_dims(mv);
  const int64_t n = d.numel();
  if (mv->class_type == MAT_C_CELL) {
    if (n > 0 && (!mv->data || mv->nbytes / sizeof(matvar_t*) < static_cast<size_t>(n)))
      corrupt_file(path);
    CellArray c(d);
    for (int64_t i = 0; i < n; ++i) {
      matvar_t* e = static_cast<matvar_t**>(mv->data)[i];
      if (!e) continue;
      if (auto v = from_matvar(e, path, skipped)) c.at(i) = *v;
    }
    return Value(std::move(c));
  }
  if (mv->class_type == MAT_C_STRUCT) {
    StructArray s(d);
    const unsigned nf = Mat_VarGetNumberOfFields(mv);
    char* const* names = Mat_VarGetStructFieldnames(mv);
    if (nf > 0 && !names) corrupt_file(path);
    for (unsigned f = 0; f < nf; ++f) {
      if (!names[f] || !names[f][0]) corrupt_file(path);
      if (s.field_index(names[f]) >= 0) corrupt_file(path);
      s.add_field(names[f]);
    }
    if (n > 0 && nf > 0 &&
        (!mv->data || mv->nbytes / sizeof(matvar_t*) < static_cast<size_t>(n) * nf))
      corrupt_file(path);
    for (int64_t i = 0; i < n; ++i)
      for (unsigned f = 0; f < nf; ++f) {
        matvar_t* e = static_cast<matvar_t**>(mv->data)[static_cast<size_t>(i) * nf + f];
        if (!e) continue;
        if (auto v = from_matvar(e, path, skipped)) s.at(i, static_cast<int>(f)) = *v;
      }
    return Value(std::move(s));
  }
  if (mv->class_type == MAT_C_CHAR) {
    Tensor t = Tensor::zeros(ClassId::Char, d);
    char16_t* p = t.mutable_data<char16_t>();
    if (n > 0 && !mv->data) corrupt_file(path);
    if (mv->data) {
      if (mv->data_type == MAT_T_UTF16 || mv->data_type == MAT_T_UINT16 ||
          mv->data_type == MAT_T_INT16) {
        // UTF-16 code units (GNU Octave writes char data this way).
        if (mv->nbytes / 2 < static_cast<size_t>(n)) corrupt_file(path);
        std::memcpy(p, mv->data, static_cast<size_t>(n) * 2);
      } else if (mv->data_type == MAT_T_UTF8) {
        // Decode UTF-8 bytes (code points beyond the BMP are not expected in char data).
        Tensor u = Tensor::from_string(std::string(static_cast<const char*>(mv->data), mv->nbytes));
        const char16_t* q = u.data<char16_t>();
        for (int64_t i = 0; i < std::min(n, u.numel()); ++i) p[i] = q[i];
      } else {
        const size_t es = mat_type_size(mv->data_type);
        if (es == 0 || mv->nbytes / es < static_cast<size_t>(n)) corrupt_file(path);
        for (int64_t i = 0; i < n; ++i)
          p[i] = static_cast<char16_t>(elem_as_double(mv->data, mv->data_type, i));
      }
    }
    return Value(std::move(t));
  }
  if (mv->class_type == MAT_C_SPARSE) {
    // ir/jc must describe an m-by-n matrix whose entries the value array holds.
    if (mv->rank != 2 || !mv->data) corrupt_file(path);
    const auto* spm = static_cast<const mat_sparse_t*>(mv->data);
    const int64_t m = static_cast<int64_t>(mv->dims[0]), ncol = static_cast<int64_t>(mv->dims[1]);
    if (!spm->jc || spm->njc != static_cast<mat_uint32_t>(ncol + 1)) corrupt_file(path);
    const int64_t nz = spm->jc[ncol];
    if (nz > 0 && (!spm->ir || spm->nir < nz || spm->ndata < nz || !spm->data)) corrupt_file(path);
    std::vector<int64_t> jc(static_cast<size_t>(ncol) + 1), ir(static_cast<size_t>(nz));
    for (int64_t c = 0; c <= ncol; ++c) {
      jc[c] = spm->jc[c];
      if (c > 0 && jc[c] < jc[c - 1]) corrupt_file(path);
    }
    for (int64_t k = 0; k < nz; ++k) {
      ir[k] = spm->ir[k];
      if (ir[k] >= m) corrupt_file(path);
    }
    for (int64_t c = 0; c < ncol; ++c)
      for (int64_t k = jc[c] + 1; k < jc[c + 1]; ++k)
        if (ir[k] <= ir[k - 1]) corrupt_file(path);
    const bool cx = mv->isComplex != 0;
    Tensor vals = Tensor::uninit(ClassId::Double, Dims(nz, 1), cx);
    const size_t es = mat_type_size(mv->data_type);
    if (nz > 0 && es == 0) corrupt_file(path);
    if (cx) {
      const auto* zs = static_cast<const mat_complex_split_t*>(spm->data);
      if (nz > 0 && (!zs->Re || !zs->Im)) corrupt_file(path);
      for (int64_t k = 0; k < nz; ++k)
        vals.set_complex(k, {elem_as_double(zs->Re, mv->data_type, k), elem_as_double(zs->Im, mv->data_type, k)});
    } else {
      for (int64_t k = 0; k < nz; ++k) vals.set_double(k, elem_as_double(spm->data, mv->data_type, k));
    }
    if (mv->isLogical) vals = vals.to_class(ClassId::Logical);
    return make_sparse(m, ncol, std::move(jc), std::move(ir), std::move(vals), spm->nzmax);
  }
  std::optional<ClassId> cls = class_of_mat(mv->class_type);
  if (mv->class_type == MAT_C_EMPTY) return Value();
  if (!cls) {
    skipped.push_back(mv->name ? mv->name : "?");
    return std::nullopt;
  }
  if (mv->isLogical) cls = ClassId::Logical;
  if (n > 0) {
    // The parts must hold n elements of their declared type (a truncated file holds fewer).
    const size_t es = mat_type_size(mv->data_type);
    if (!mv->data || es == 0 || mv->nbytes / es < static_cast<size_t>(n)) corrupt_file(path);
    if (mv->isComplex) {
      auto* z = static_cast<mat_complex_split_t*>(mv->data);
      if (!z->Re || !z->Im) corrupt_file(path);
    }
  }
  Tensor t = Tensor::zeros(*cls, d, mv->isComplex != 0);
  if (mv->data && n > 0) {
    if (mv->isComplex) {
      auto* z = static_cast<mat_complex_split_t*>(mv->data);
      copy_part(t, z->Re, mv->data_type, n, 0, 2);
      copy_part(t, z->Im, mv->data_type, n, 1, 2);
    } else {
      copy_part(t, mv->data, mv->data_type, n, 0, 1);
    }
  }
  return Value(std::move(t));
}

}  // namespace

bool is_mat_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char head[128];
  const size_t got = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  // The header text need not end in a NUL within these bytes: search only what was read.
  const std::string_view text(head, got);
  return got >= 10 && text.starts_with("MATLAB ") && text.find("MAT-file") != text.npos;
}

void mat_save(const std::string& path, const std::vector<std::pair<std::string, Value>>& vars,
              bool v73, std::vector<std::string>& skipped) {
  const char* id = "MATLAB:save:couldNotWriteFile";
  // libmatio writes a temporary file next to the target; it is read back and checked (a full
  // disk truncates it without libmatio noticing) before it replaces the target, so a failed
  // save leaves the old file as it was.
  auto write = [&](const std::string& tmp) {
    if (v73) hdf5();  // HDF5 errors become matfuse's, without its stderr report
    mat_t* mat = Mat_CreateVer(tmp.c_str(), nullptr, v73 ? MAT_FT_MAT73 : MAT_FT_MAT5);
    if (!mat) {
      if (v73)
        throw_error("matfuse:notAvailable",
                    "save -v7.3 requires libmatio with HDF5, which this build of matfuse does "
                    "not include.");
      throw_error(id, "Unable to write file %s: No such file or directory.", path.c_str());
    }
    for (const auto& [name, v] : vars) {
      VarPtr mv;
      try {
        mv.reset(to_matvar(name.c_str(), v, skipped));
      } catch (...) {
        Mat_Close(mat);
        throw;
      }
      if (!mv) continue;
      if (Mat_VarWrite(mat, mv.get(), MAT_COMPRESSION_NONE) != 0) {
        Mat_Close(mat);
        throw_error(id, "Unable to write variable '%s' to file %s.", name.c_str(),
                    path.c_str());
      }
    }
    if (Mat_Close(mat) != 0) throw_error(id, "Unable to write file %s.", path.c_str());
  };
  auto check = [&](const std::string& tmp) {
    if (v73) return;
    std::ifstream in(tmp, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    try {
      mat_validate(tmp, ss.str());
    } catch (const MatlabError&) {
      throw_error(id, "Unable to write file %s: the data written does not read back (is the "
                      "disk full?). The file was not changed.",
                  path.c_str());
    }
  };
  write_file_atomic_with(path, write, check, id);
}

std::vector<std::pair<std::string, Value>> mat_load(const std::string& path,
                                                    std::vector<std::string>& skipped) {
  bool v73 = false;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in)
      throw_error("MATLAB:load:couldNotReadFile", "Unable to read file '%s'.", path.c_str());
    std::ostringstream ss;
    ss << in.rdbuf();
    v73 = mat_validate(path, ss.str()) == MatFormat::V73;
  }
  if (v73 && !hdf5().opens(path)) corrupt_file(path);
  mat_t* mat = Mat_Open(path.c_str(), MAT_ACC_RDONLY);
  if (!mat) corrupt_file(path);
  std::vector<std::pair<std::string, Value>> out;
  try {
    while (matvar_t* raw = Mat_VarReadNext(mat)) {
      VarPtr mv(raw);
      if (!mv->name) continue;
      if (auto v = from_matvar(mv.get(), path, skipped)) out.emplace_back(mv->name, *v);
    }
  } catch (...) {
    Mat_Close(mat);
    throw;
  }
  Mat_Close(mat);
  return out;
}

#else  // !MATFUSE_HAVE_MATIO

bool is_mat_file(const std::string&) { return false; }

void mat_save(const std::string&, const std::vector<std::pair<std::string, Value>>&, bool,
              std::vector<std::string>&) {
  throw_error("matfuse:notAvailable",
              "save requires libmatio, which this build of matfuse does not include.");
}

std::vector<std::pair<std::string, Value>> mat_load(const std::string&,
                                                    std::vector<std::string>&) {
  throw_error("matfuse:notAvailable",
              "load requires libmatio, which this build of matfuse does not include.");
}

#endif

}  // namespace matfuse::files_detail
