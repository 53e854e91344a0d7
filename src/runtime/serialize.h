// Serialization of MATLAB values to bytes, for sending them between processes (parallel workers
// over MPI: src/parallel).
//
// Format (version 1). All integers are little-endian, fixed width. A message made with
// ValueWriter is a sequence of the items below, in the order the writer put them; serialize_value
// writes the magic "MFV1" and then one value.
//   u8, u32, u64          fixed-width unsigned integers; i64 is a u64 in two's complement
//   f64                   IEEE-754 binary64
//   str                   u64 byte count, then the UTF-8 bytes
//   dims                  u32 ndims (>= 2), then ndims i64 sizes (each >= 0)
//   value                 u8 tag, then by tag:
//     1 scalar            f64 (a real double 1x1)
//     2 array             u8 class (ClassId), u8 flags (bit 0 complex, bit 1 gpuArray), dims,
//                         then numel * element size (x2 when complex) raw bytes in column-major
//                         order (complex: interleaved re, im; logical: one byte 0/1; char:
//                         UTF-16 code units)
//     3 cell              dims, then numel values (column-major)
//     4 struct            dims, u32 nfields, nfields str names, then numel * nfields values
//                         (element-major: all fields of element 1, then of element 2 ...)
//     5 string            dims, then per element u8 (0 = <missing>, 1 = present) and, when
//                         present, str
//     6 function handle   u8 anonymous, str text ("@sin" or "@(x)x+a"), u32 count, then count
//                         pairs (str name, value): an anonymous function's captured workspace
//     7 sparse            u64 rows m, u64 cols n, u8 flags (bit 0 logical, bit 1 complex),
//                         u64 nnz, (n+1) u64 column starts, nnz u64 row indices (0-based),
//                         then the nnz values as in an array of class double/logical
// Nesting of cells, structs and captured workspaces is limited to kMaxDepth levels.
//
// Errors (MatlabError): a value that cannot be sent (a handle object such as containers.Map,
// a figure, a function handle without a codec) raises matfuse:serialize:unsupportedClass
// ("Cannot send a value of class 'CLASS' to a parallel worker."); reading malformed or truncated
// bytes raises matfuse:serialize:corrupt, never undefined behaviour; an array larger than
// MATLAB's maximum array size raises MATLAB:array:SizeLimitExceeded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/value.h"

namespace matfuse {

/// The parts of a function handle that travel: its text and, for an anonymous function, the
/// values it captured (name, value) in the order of its frame.
struct FunctionParts {
  bool anonymous = false;
  std::string text;  ///< "@sin", "@(x)x.^2+a"
  std::vector<std::pair<std::string, Value>> workspace;
};

/// Turns function handles into FunctionParts and back; implemented by the layer that knows
/// function handles (the interpreter's). A null codec makes function handles unsupported.
class FunctionCodec {
public:
  virtual ~FunctionCodec() = default;
  /// False when fn cannot be sent (e.g. a handle to a nested function).
  virtual bool encode(const FunctionObject& fn, FunctionParts& out) = 0;
  /// The handle described by parts; may raise MatlabError (e.g. text that does not parse).
  virtual Value decode(const FunctionParts& parts) = 0;
};

/// Appends format items to a byte string (see the file comment).
class ValueWriter {
public:
  explicit ValueWriter(FunctionCodec* codec = nullptr) : codec_(codec) {}
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(uint32_t v);
  void u64(uint64_t v);
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void f64(double v);
  void str(std::string_view s);
  void dims(const Dims& d);
  /// One value (tag and payload). Forces lazy and gathers device-resident arrays.
  /// Errors: matfuse:serialize:unsupportedClass.
  void value(const Value& v);
  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

private:
  void value_at(const Value& v, int depth);
  std::string out_;
  FunctionCodec* codec_;
};

/// Reads format items from bytes; every read checks the remaining length and the item's
/// validity and raises matfuse:serialize:corrupt when they do not hold.
class ValueReader {
public:
  explicit ValueReader(std::string_view bytes, FunctionCodec* codec = nullptr)
      : p_(bytes.data()), end_(bytes.data() + bytes.size()), codec_(codec) {}
  uint8_t u8();
  uint32_t u32();
  uint64_t u64();
  int64_t i64() { return static_cast<int64_t>(u64()); }
  double f64();
  std::string str();
  Dims dims();
  Value value();
  /// Bytes not read yet.
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  /// Raises matfuse:serialize:corrupt unless every byte was read.
  void expect_end() const;

private:
  Value value_at(int depth);
  const char* need(size_t n);
  const char* p_;
  const char* end_;
  FunctionCodec* codec_;
};

/// Deepest nesting of cells, structs and captured workspaces that is written or read.
constexpr int kMaxSerializeDepth = 200;

/// Raises matfuse:serialize:corrupt ("The data received from a parallel worker is corrupt or
/// truncated (what).") for bytes that fail a check.
[[noreturn]] void throw_corrupt(const char* what);

/// The bytes of v: "MFV1" then one value (see the file comment). Errors as ValueWriter::value.
std::string serialize_value(const Value& v, FunctionCodec* codec = nullptr);
/// The value of bytes made by serialize_value; raises matfuse:serialize:corrupt when the bytes
/// are not exactly one well-formed value.
Value deserialize_value(std::string_view bytes, FunctionCodec* codec = nullptr);

}  // namespace matfuse
