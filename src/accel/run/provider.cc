// The provider registry and the interface's defaults (see provider.h). Compiled into the
// acceleration layer's library: the seam belongs to the layer that calls through it.
#include "accel/run/provider.h"

#include <memory>
#include <mutex>

#include "runtime/error.h"

namespace matfuse {
namespace {

struct Entry {
  std::string name;
  ProviderFactory factory;
  bool tried = false;
  Provider* provider = nullptr;
  std::string why;  ///< why the factory gave no provider
};

struct Registry {
  std::mutex mu;
  std::vector<Entry> entries;
};

Registry& registry() {
  static auto* r = new Registry();  // never destroyed: providers outlive static destructors
  return *r;
}

/// Runs the pending factories (outside the lock: a factory may load libraries for a while).
std::vector<Entry*> resolved() {
  Registry& r = registry();
  std::vector<Entry*> out;
  std::unique_lock<std::mutex> l(r.mu);
  for (size_t i = 0; i < r.entries.size(); ++i) {
    if (!r.entries[i].tried) {
      ProviderFactory f = r.entries[i].factory;
      l.unlock();
      std::string why;
      Provider* p = f ? f(&why) : nullptr;
      l.lock();
      Entry& e = r.entries[i];
      if (!e.tried) {
        e.tried = true;
        e.provider = p;
        e.why = why;
      }
    }
    out.push_back(&r.entries[i]);
  }
  return out;
}

}  // namespace

void Provider::gemm(const GemmCall&) {
  throw_error("matfuse:notAvailable", "The %.*s provider has no matrix product.",
              static_cast<int>(name().size()), name().data());
}

namespace {
[[noreturn]] void no_index_calls(const Provider& p) {
  throw_error("matfuse:notAvailable", "The %.*s provider has no indexing library calls.",
              static_cast<int>(p.name().size()), p.name().data());
}
}  // namespace

void Provider::index_gather(const IndexCall&) { no_index_calls(*this); }
void Provider::index_scatter(const IndexCall&) { no_index_calls(*this); }
int64_t Provider::mask_count(const void*, int64_t) { no_index_calls(*this); }
void Provider::mask_compact(const MaskCall&) { no_index_calls(*this); }
void Provider::mask_scatter(const MaskCall&) { no_index_calls(*this); }
void Provider::mask_find(const MaskCall&) { no_index_calls(*this); }
void Provider::copy(void*, const void*, size_t) { no_index_calls(*this); }
int64_t Provider::count_nan(const SelectCall&) { no_index_calls(*this); }
double Provider::select_kth(const SelectCall&) { no_index_calls(*this); }
void Provider::sort(const SortCall&) { no_index_calls(*this); }

namespace {
[[noreturn]] void no_solver(const Provider& p, const char* what) {
  throw_error("matfuse:notAvailable", "The %.*s provider has no %s.",
              static_cast<int>(p.name().size()), p.name().data(), what);
}
}  // namespace

MatrixTraits Provider::analyze(const AnalyzeCall&) { no_solver(*this, "matrix analysis"); }
int Provider::getrf(const GetrfCall&) { no_solver(*this, "LU factorization (getrf)"); }
void Provider::getrs(const GetrsCall&) { no_solver(*this, "LU solve (getrs)"); }
int Provider::potrf(const PotrfCall&) { no_solver(*this, "Cholesky factorization (potrf)"); }
void Provider::potrs(const PotrsCall&) { no_solver(*this, "Cholesky solve (potrs)"); }
void Provider::geqrf(const GeqrfCall&) { no_solver(*this, "QR factorization (geqrf)"); }
void Provider::ormqr(const OrmqrCall&) { no_solver(*this, "Q product (ormqr)"); }
void Provider::orgqr(const OrgqrCall&) { no_solver(*this, "Q formation (orgqr)"); }
int Provider::syevd(const SyevdCall&) { no_solver(*this, "symmetric eigensolver (syevd)"); }
int Provider::gesvd(const GesvdCall&) { no_solver(*this, "singular value decomposition"); }
void Provider::trsm(const TrsmCall&) { no_solver(*this, "triangular solve (trsm)"); }
void Provider::geam(const GeamCall&) { no_solver(*this, "matrix copy (geam)"); }
void Provider::fill(const FillCall&) { no_solver(*this, "matrix fill kernels"); }
void Provider::permute_rows(const PermuteRowsCall&) { no_solver(*this, "row permutation"); }

void Provider::syrk(const SyrkCall&) {
  throw_error("matfuse:notAvailable", "The %.*s provider has no symmetric rank-k product.",
              static_cast<int>(name().size()), name().data());
}

void Provider::fft(const FftCall&) {
  throw_error("matfuse:notAvailable", "The %.*s provider has no FFT.",
              static_cast<int>(name().size()), name().data());
}

void Provider::window(const WindowCall&) {
  throw_error("matfuse:notAvailable", "The %.*s provider has no moving-window statistics.",
              static_cast<int>(name().size()), name().data());
}
void Provider::scan(const ScanCall&) {
  throw_error("matfuse:notAvailable", "The %.*s provider has no cumulative sums.",
              static_cast<int>(name().size()), name().data());
}

void register_provider(std::string name, ProviderFactory factory) {
  Registry& r = registry();
  std::lock_guard<std::mutex> l(r.mu);
  for (Entry& e : r.entries)
    if (e.name == name) {
      e = Entry{std::move(name), std::move(factory)};
      return;
    }
  r.entries.push_back(Entry{std::move(name), std::move(factory)});
}

std::vector<Provider*> usable_providers() {
  std::vector<Provider*> out;
  for (Entry* e : resolved())
    if (e->provider) out.push_back(e->provider);
  return out;
}

Provider* find_provider(std::string_view name) {
  for (Provider* p : usable_providers())
    if (p->name() == name) return p;
  return nullptr;
}

Provider* host_memory_provider() {
  for (Provider* p : usable_providers())
    if (p->host_memory()) return p;
  return nullptr;
}

Provider* device_provider() {
  for (Provider* p : usable_providers())
    if (!p->host_memory()) return p;
  return nullptr;
}

std::string device_unavailable_reason() {
  std::string why;
  for (Entry* e : resolved()) {
    if (e->provider && !e->provider->host_memory()) return "";
    if (!e->provider && why.empty()) why = e->why;
  }
  return why.empty() ? "no device provider registered" : why;
}

}  // namespace matfuse
