// The parallel runner, the pool object and parpool/gcp (parallel.h).
#include <thread>

#include "builtins/methods.h"
#include "parallel/mpi.h"
#include "parallel/parallel.h"
#include "parallel/parfor.h"
#include "parallel/spmd.h"
#include "runtime/object_index.h"

namespace matfuse::parallel {

namespace {

std::shared_ptr<Pool>& pool_ref() {
  static std::shared_ptr<Pool> p;
  return p;
}

std::shared_ptr<Pool>& auto_pool_ref() {
  static std::shared_ptr<Pool> p;
  return p;
}

/// The open pool, opening the automatic one (mpirun) when none is open.
std::shared_ptr<Pool> pool_or_auto() {
  if (!pool_ref() && auto_pool_ref()) pool_ref() = auto_pool_ref();
  return pool_ref();
}

class Runner : public ParallelRunner {
public:
  Flow run_parfor(Interpreter& in, const ast::ForStmt& f) override {
    std::shared_ptr<Pool> p = pool_or_auto();
    return parallel::run_parfor(in, f, p.get());
  }
  Flow run_spmd(Interpreter& in, const ast::SpmdStmt& s) override {
    std::shared_ptr<Pool> p = pool_or_auto();
    if (p && !p->spmd_enabled()) p = nullptr;
    return parallel::run_spmd(in, s, p);
  }
};

/// MATLAB's parallel.ProcessPool object (the value of parpool and gcp).
class PoolObject : public IndexableObject {
public:
  explicit PoolObject(std::shared_ptr<Pool> p) : pool_(std::move(p)) {}
  std::string class_name() const override { return "parallel.ProcessPool"; }
  bool isa(std::string_view n) const override {
    return n == class_name() || n == "parallel.Pool" || n == "handle";
  }
  bool paren_read(std::span<const Value>, Value&) const override { return false; }
  bool paren_assign(std::span<const Value>, const Value&) override { return false; }
  std::vector<std::string> property_names() const override {
    return {"Connected", "NumWorkers", "Busy", "Cluster", "SpmdEnabled"};
  }
  bool get_property(std::string_view name, Value& out) const override {
    if (name == "Connected") out = Value::logical(connected());
    else if (name == "NumWorkers") out = Value(static_cast<double>(pool_->size()));
    else if (name == "Busy") out = Value::logical(false);
    else if (name == "Cluster") out = Value::from_chars(pool_->cluster());
    else if (name == "SpmdEnabled") out = Value::logical(pool_->spmd_enabled());
    else return false;
    return true;
  }
  bool display_lines(std::vector<std::string>& lines) const override {
    lines.push_back(" ProcessPool with properties: ");
    lines.push_back("");
    auto row = [&](const std::string& k, const std::string& v) {
      std::string pad(k.size() < 15 ? 15 - k.size() : 0, ' ');
      lines.push_back("    " + pad + k + ": " + v);
    };
    row("Connected", connected() ? "true" : "false");
    row("NumWorkers", std::to_string(pool_->size()));
    row("Busy", "false");
    row("Cluster", pool_->cluster());
    row("SpmdEnabled", pool_->spmd_enabled() ? "true" : "false");
    lines.push_back("");
    return true;
  }
  bool connected() const { return pool_ref() == pool_; }
  const std::shared_ptr<Pool>& pool() const { return pool_; }

private:
  std::shared_ptr<Pool> pool_;
};

Value pool_value(const std::shared_ptr<Pool>& p) {
  return Value(std::shared_ptr<Object>(std::make_shared<PoolObject>(p)));
}

void announce(CallContext& ctx, const std::shared_ptr<Pool>& p, const char* profile) {
  if (!ctx.session().out) return;
  *ctx.session().out << "Starting parallel pool (parpool) using the '" << profile
                     << "' profile ...\n"
                     << "Connected to the parallel pool (number of workers: " << p->size()
                     << ").\n";
}

/// parpool, parpool(n), parpool(profile), parpool(profile, n): opens a pool.
Outputs bi_parpool(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 2);
  check_nargout(nargout, 1);
  if (pool_ref())
    throw_error("parallel:convenience:ConnectionOpen",
                "Found an interactive session. You cannot have multiple interactive sessions "
                "open simultaneously. To terminate the existing session, use "
                "'delete(gcp('nocreate'))'.");
  size_t k = 0;
  std::string profile = "Processes";
  if (k < args.size() && args[k].is_text()) {
    profile = args[k++].to_text();
    if (profile == "local") profile = "Processes";
    if (profile != "Processes" && profile != "MPI")
      throw_error("parallel:cluster:InvalidProfile",
                  "The profile '%s' is not known: use 'Processes' (or 'local').",
                  profile.c_str());
  }
  int n = -1;
  if (k < args.size()) {
    const double d = args[k].to_double("the pool size");
    if (d != std::floor(d) || d < 1)
      throw_error("parallel:convenience:InvalidPoolSize",
                  "The pool size must be a positive integer.");
    n = static_cast<int>(std::min(d, 1e6));
  }
  std::shared_ptr<Pool> p;
  if (auto_pool_ref()) {
    p = auto_pool_ref();
    if (n > p->size())
      throw_error("parallel:convenience:TooManyWorkers",
                  "The pool size %d is more than the %d MPI ranks this program was started "
                  "with.",
                  n, p->size());
    profile = "MPI";
  } else {
    if (n < 0) n = std::max(1u, std::thread::hardware_concurrency());
    p = mpi_spawn_pool(n);
  }
  pool_ref() = p;
  announce(ctx, p, profile.c_str());
  if (nargout > 0) return {pool_value(p)};
  return {};
}

/// gcp, gcp('nocreate'): the open pool (opened first unless 'nocreate'); [] when none.
Outputs bi_gcp(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 0, 1);
  check_nargout(nargout, 1);
  bool create = true;
  if (!args.empty()) {
    if (!args[0].is_text() || args[0].to_text() != "nocreate")
      throw_error("MATLAB:invalidInput", "The argument of gcp must be 'nocreate'.");
    create = false;
  }
  std::shared_ptr<Pool> p = pool_ref();
  if (!p && create) {
    Outputs o = bi_parpool(ctx, {}, 0);
    (void)o;
    p = pool_ref();
  }
  if (!p) return {Value()};
  return {pool_value(p)};
}

/// delete(pool): shuts the pool down (a pool of mpirun's ranks is only closed: the ranks stay
/// for the next parpool).
Outputs pool_delete(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 0);
  for (const Value& v : args) {
    auto* o = v.is_object() ? dynamic_cast<PoolObject*>(v.object().get()) : nullptr;
    if (!o) continue;
    if (pool_ref() == o->pool()) pool_ref().reset();
    if (o->pool() != auto_pool_ref()) o->pool()->shutdown();
  }
  return {};
}

}  // namespace

std::shared_ptr<Pool> current_pool() { return pool_ref(); }
void set_current_pool(std::shared_ptr<Pool> p) { pool_ref() = std::move(p); }
void set_auto_pool(std::shared_ptr<Pool> p) { auto_pool_ref() = std::move(p); }

void register_parallel_builtins(Registry& r) {
  r.add("parpool", bi_parpool);
  r.add("gcp", bi_gcp);
  register_spmd_builtins(r);
}

void install(Interpreter& in) {
  static Runner runner;
  static const bool methods = (add_class_method("parallel.ProcessPool", "delete", pool_delete),
                               true);
  (void)methods;
  in.set_parallel_runner(&runner);
  register_parallel_builtins(in.own_builtins_);
}

}  // namespace matfuse::parallel
