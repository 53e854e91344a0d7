#include "runtime/dims.h"

#include "runtime/error.h"

namespace matfuse {

Dims::Dims(std::initializer_list<int64_t> list) : n_(0) {
  for (int64_t v : list) push_back(v);
  while (n_ < 2) d_[n_++] = 1;
  if (list.size() == 0) d_[0] = d_[1] = 0;
}

void Dims::set(int k, int64_t v) {
  if (k >= kMaxDims) throw_error("matfuse:tooManyDims", "Arrays of more than %d dimensions are not supported.", kMaxDims);
  while (n_ <= k) d_[n_++] = 1;
  d_[k] = v;
}

void Dims::push_back(int64_t v) {
  if (n_ >= kMaxDims) throw_error("matfuse:tooManyDims", "Arrays of more than %d dimensions are not supported.", kMaxDims);
  d_[n_++] = v;
}

Dims& Dims::normalize() {
  while (n_ > 2 && d_[n_ - 1] == 1) --n_;
  return *this;
}

int64_t Dims::numel() const {
  int64_t n = 1;
  for (int i = 0; i < n_; ++i)
    // An element count past int64 (1e12 x 1e12) belongs to no array that can exist; the plain
    // product would overflow (undefined behaviour) and pass later checks as a wrapped value.
    if (__builtin_mul_overflow(n, d_[i], &n))
      throw_error("MATLAB:array:SizeLimitExceeded",
                  "Requested array exceeds the maximum possible variable size.");
  return n;
}

std::string Dims::str() const {
  std::string s;
  for (int i = 0; i < n_; ++i) {
    if (i) s += 'x';
    s += std::to_string(d_[i]);
  }
  return s;
}

bool Dims::operator==(const Dims& o) const {
  int n = n_ > o.n_ ? n_ : o.n_;
  for (int i = 0; i < n; ++i)
    if ((*this)[i] != o[i]) return false;
  return true;
}

std::array<int64_t, Dims::kMaxDims> strides_of(const Dims& d) {
  std::array<int64_t, Dims::kMaxDims> s{};
  int64_t acc = 1;
  for (int i = 0; i < Dims::kMaxDims; ++i) {
    s[i] = acc;
    acc *= d[i];
  }
  return s;
}

Dims broadcast_dims(const Dims& a, const Dims& b) {
  int n = a.ndims() > b.ndims() ? a.ndims() : b.ndims();
  Dims r;
  for (int i = 0; i < n; ++i) {
    int64_t x = a[i], y = b[i];
    if (x == y || y == 1) r.set(i, x);
    else if (x == 1) r.set(i, y);
    else throw_error("MATLAB:sizeDimensionsMustMatch", "Arrays have incompatible sizes for this operation.");
  }
  return r.normalize();
}

}  // namespace matfuse
