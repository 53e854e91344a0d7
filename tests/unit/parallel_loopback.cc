// parfor and spmd on an in-process (loopback) pool: the code that runs on MPI workers (static
// iteration blocks, slices, reductions, errors, Composites) gives the serial loop's results.
#include "interp_test_util.h"
#include "parallel/parallel.h"

namespace matfuse {
namespace {

/// Runs code without a pool and with loopback pools of 1, 2, 3 and 5 workers; every output
/// must equal the serial one. Returns the serial output.
std::string same_on_every_pool(const std::string& code) {
  std::string serial;
  {
    test::Snippet s;
    parallel::install(s.in);
    parallel::set_current_pool(nullptr);
    serial = s(code);
  }
  for (int n : {1, 2, 3, 5}) {
    test::Snippet s;
    parallel::install(s.in);
    parallel::set_current_pool(parallel::make_loopback_pool(n));
    EXPECT_EQ(s(code), serial) << n << " workers";
    parallel::set_current_pool(nullptr);
  }
  return serial;
}

TEST(ParforLoopback, SlicedBroadcastAndReductions) {
  const std::string out = same_on_every_pool(
      "n = 7; c = 10; A = magic(7); y = zeros(1, n); B = zeros(7);\n"
      "s = 0; p = 1; h = []; lo = Inf; u = []; e = true;\n"
      "parfor i = 1:n\n"
      "  t = A(:, i)';\n"
      "  y(i) = sum(t) + c;\n"
      "  B(i, :) = t * 2;\n"
      "  s = s + i;\n"
      "  p = p * i;\n"
      "  h = [h, i * 10];\n"
      "  lo = min(lo, mod(i * 3, 7));\n"
      "  u = union(u, mod(i, 3));\n"
      "  e = e & i < 100;\n"
      "end\n"
      "disp(y); disp(B(:, 1)'); disp([s p]); disp(h); disp(lo); disp(u); disp(e)\n"
      "disp(exist('t', 'var'))\n");
  EXPECT_EQ(out,
            "   185   185   185   185   185   185   185\n"
            "    60    78    96     2    20    38    56\n"
            "          28        5040\n"
            "    10    20    30    40    50    60    70\n"
            "     0\n"
            "     0     1     2\n"
            "   1\n"
            "     0\n");
}

TEST(ParforLoopback, GrowingOutputsCellsStructsAndOffsets) {
  same_on_every_pool(
      "x = (1:9) * 2; z = []; cc = {}; st = struct('v', {});\n"
      "parfor k = 1:8\n"
      "  z(k) = x(k + 1);\n"
      "  cc{k} = sprintf('%d', k);\n"
      "  st(k).v = -k;\n"
      "end\n"
      "disp(z); disp(strjoin(cc, ',')); disp([st.v])\n"
      "w = ones(1, 6) * 5;\n"
      "parfor k = 1:6\n"
      "  if mod(k, 2) == 0\n"
      "    w(k) = 0;\n"
      "  end\n"
      "end\n"
      "disp(w)\n"
      "f = @(v) v * 3; r = zeros(1, 4);\n"
      "parfor k = 1:4\n"
      "  r(k) = f(k);\n"
      "  fprintf('%d;', k);\n"
      "end\n"
      "fprintf('\\n'); disp(r)\n");
}

TEST(ParforLoopback, WorkerErrorsKeepTheirIdentifier) {
  test::Snippet s;
  parallel::install(s.in);
  parallel::set_current_pool(parallel::make_loopback_pool(2));
  MatlabError e = s.fails("y = zeros(1, 4);\nparfor k = 1:4\n  if k == 3\n    error('my:id', 'bad %d', k);\n  end\n  y(k) = k;\nend\n");
  EXPECT_EQ(e.identifier(), "my:id");
  EXPECT_EQ(e.message(), "bad 3");
  // A reduction variable must exist before the loop.
  e = s.fails("parfor k = 1:4\n  q = q + k;\nend\n");
  EXPECT_EQ(e.identifier(), "MATLAB:UndefinedFunction");
  parallel::set_current_pool(nullptr);
}

TEST(SpmdLoopback, CompositesHoldOneValuePerWorker) {
  test::Snippet s;
  parallel::install(s.in);
  parallel::set_current_pool(parallel::make_loopback_pool(3));
  EXPECT_EQ(s("a = 5;\nspmd\n  v = a * spmdIndex;\n  n = numlabs;\nend\n"
              "disp([v{1} v{2} v{3} n{2}]); disp(class(v)); disp(numel(v))\n"),
            "     5    10    15     3\nComposite\n     3\n");
  // A Composite used in the next block is the worker's own value; c{k} = x sets it.
  EXPECT_EQ(s("v{2} = 100;\nspmd\n  v = v + 1;\nend\ndisp([v{1} v{2} v{3}])\n"),
            "     6   101    16\n");
  // Workers of an in-process pool cannot send each other messages.
  MatlabError e = s.fails("spmd\n  spmdSend(1, 1);\nend\n");
  EXPECT_EQ(e.identifier(), "matfuse:notAvailable");
  parallel::set_current_pool(nullptr);
}

}  // namespace
}  // namespace matfuse

namespace matfuse {
namespace {

/// A loopback pool that keeps a copy of every request it passes on.
class RecordingPool : public parallel::Pool {
public:
  explicit RecordingPool(int n) : inner_(parallel::make_loopback_pool(n)) {}
  int size() const override { return inner_->size(); }
  std::string cluster() const override { return inner_->cluster(); }
  std::vector<std::string> exchange(const std::vector<std::string>& requests) override {
    for (const auto& r : requests)
      if (!r.empty()) seen.push_back(r);
    return inner_->exchange(requests);
  }
  void shutdown() override { inner_->shutdown(); }
  std::vector<std::string> seen;

private:
  std::unique_ptr<parallel::Pool> inner_;
};

TEST(WorkerRequests, TruncatedOrCorruptRequestsGetAnErrorReply) {
  auto pool = std::make_shared<RecordingPool>(2);
  {
    test::Snippet s;
    parallel::install(s.in);
    parallel::set_current_pool(pool);
    s("A = magic(4); y = zeros(1, 4); t = 0; c = {1, 'a'};\n"
      "parfor i = 1:4\n  y(i) = sum(A(:, i)) + numel(c);\n  t = t + i;\nend\n"
      "spmd\n  w = spmdIndex;\nend\n");
    parallel::set_current_pool(nullptr);
  }
  ASSERT_GE(pool->seen.size(), 4u);
  for (const std::string& req : pool->seen) {
    for (size_t n = 0; n < req.size(); n += 1 + req.size() / 97) {
      parallel::WorkerState w;
      const std::string reply = parallel::handle_request(w, std::string_view(req).substr(0, n));
      ASSERT_FALSE(reply.empty());
      EXPECT_EQ(static_cast<uint8_t>(reply[0]), 1) << "truncated at " << n;
    }
    for (size_t i = 0; i < req.size(); i += 1 + req.size() / 61) {
      std::string bad = req;
      bad[i] = static_cast<char>(bad[i] ^ 0x5A);
      parallel::WorkerState w;
      EXPECT_FALSE(parallel::handle_request(w, bad).empty());
    }
  }
}

}  // namespace
}  // namespace matfuse
