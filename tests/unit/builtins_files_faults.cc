// Fault injection for file output: writes to a full device (/dev/full), to paths that cannot be
// created, and (where this machine lets the test mount one) to a full tmpfs. Every failure is a
// MATLAB error and leaves an existing file byte for byte as it was.
#include <sys/mount.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "interp_test_util.h"

namespace matfuse::test {
namespace {

struct InTemp {
  TempDir dir;
  std::filesystem::path old = std::filesystem::current_path();
  Snippet s;
  InTemp() { std::filesystem::current_path(dir.path); }
  ~InTemp() { std::filesystem::current_path(old); }
};

std::string read_all(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool have_dev_full() { return access("/dev/full", W_OK) == 0; }

TEST(BuiltinsFilesFaults, FullDeviceIsAnErrorForEveryWriter) {
  if (!have_dev_full()) GTEST_SKIP() << "no writable /dev/full";
  InTemp t;
  t.s("x = magic(4); c = repmat('y', 1, 200000);");
  EXPECT_EQ(t.s.fails("save('/dev/full', 'x', '-ascii')").identifier(),
            "MATLAB:save:couldNotWriteFile");
  EXPECT_EQ(t.s.fails("writematrix(x, '/dev/full', 'FileType', 'text')").identifier(),
            "MATLAB:table:write:FileOpenError");
  // fprintf to a file opened by fopen: the error shows at the write or, for buffered data, at
  // fclose; status = fclose(fid) reports -1 instead.
  MatlabError e = t.s.fails("fid = fopen('/dev/full', 'w'); fprintf(fid, '%s', c); fclose(fid);");
  EXPECT_EQ(e.identifier(), "MATLAB:FileIO:WriteFailed");
  t.s("fid = fopen('/dev/full', 'w'); fwrite_ok = 1; try, fprintf(fid, 'ab'); catch, "
      "fwrite_ok = 0; end; st = fclose(fid);");
  EXPECT_EQ(t.s.num("st"), -1);
}

TEST(BuiltinsFilesFaults, UncreatablePathsAreErrors) {
  InTemp t;
  t.s("x = 1:3;");
  EXPECT_EQ(t.s.fails("save('/nonexistent_folder_mf/a.mat', 'x')").identifier(),
            "MATLAB:save:couldNotWriteFile");
  EXPECT_EQ(t.s.fails("save('/nonexistent_folder_mf/a.txt', 'x', '-ascii')").identifier(),
            "MATLAB:save:couldNotWriteFile");
  EXPECT_EQ(t.s.fails("writematrix(x, '/nonexistent_folder_mf/a.csv')").identifier(),
            "MATLAB:table:write:FileOpenError");
}

TEST(BuiltinsFilesFaults, FailedSaveLeavesTheOldFile) {
  InTemp t;
  t.s("x = [1 2; 3 4]; save('old.txt', 'x', '-ascii'); save('old.mat', 'x');");
  const std::string txt = read_all("old.txt");
  ASSERT_FALSE(txt.empty());
  t.s("c = {1, 2}; z = ones(2, 2, 2);");
  EXPECT_EQ(t.s.fails("save('old.txt', 'x', 'c', '-ascii')").identifier(),
            "MATLAB:save:asciiUnsupported");
  EXPECT_EQ(t.s.fails("save('old.txt', 'z', '-ascii')").identifier(),
            "MATLAB:save:asciiUnsupported");
  EXPECT_EQ(read_all("old.txt"), txt);
  // No temporary files are left behind.
  int n = 0;
  for (auto& e : std::filesystem::directory_iterator(".")) n += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(n, 2);
}

/// A MAT v5 file with one sparse variable (which matfuse cannot load).
std::string sparse_file() {
  std::string h(116, ' ');
  std::memcpy(h.data(), "MATLAB 5.0 MAT-file", 19);
  h += std::string(8, '\0') + std::string("\x00\x01", 2) + "IM";
  auto u32 = [](uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
  std::string m;
  m += u32(6) + u32(8) + u32(5) + u32(1);                   // flags: mxSPARSE_CLASS, nzmax 1
  m += u32(5) + u32(8) + u32(2) + u32(2);                   // dims [2 2]
  m += u32((1u << 16) | 1) + std::string("s\0\0\0", 4);     // name 's'
  m += u32((4u << 16) | 5) + u32(0);                        // ir = [0]
  m += u32(5) + u32(12) + u32(0) + u32(1) + u32(1) + u32(0);  // jc = [0 1 1] (+ padding)
  double v = 5;
  m += u32(9) + u32(8) + std::string(reinterpret_cast<const char*>(&v), 8);  // pr = [5]
  return h + u32(14) + u32(static_cast<uint32_t>(m.size())) + m;
}

TEST(BuiltinsFilesFaults, AppendKeepsASparseVariable) {
  // A sparse variable written by another program survives save -append (it is read and written
  // back as sparse).
  InTemp t;
  {
    std::ofstream f("sp.mat", std::ios::binary);
    f << sparse_file();
  }
  t.s("x = 1;");
  t.s("save('sp.mat', 'x', '-append'); clear; load('sp.mat');");
  t.s("ok = issparse(s) && isequal(full(s), [5 0; 0 0]) && x == 1;");
  EXPECT_TRUE(t.s.in.base_var("ok")->truthy());
}

TEST(BuiltinsFilesFaults, FullFilesystemKeepsTheOldFile) {
  if (geteuid() != 0) GTEST_SKIP() << "mounting a tmpfs needs root";
  InTemp t;
  std::filesystem::create_directory("small");
  const std::string dir = (t.dir.path / "small").string();
  if (mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=256k") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
  struct Unmount {
    std::string d;
    ~Unmount() { umount2(d.c_str(), MNT_DETACH); }
  } um{dir};
  t.s("x = magic(3); save('small/v.mat', 'x'); save('small/v.txt', 'x', '-ascii'); "
      "writematrix(x, 'small/v.csv');");
  const std::string mat = read_all("small/v.mat"), txt = read_all("small/v.txt"),
                    csv = read_all("small/v.csv");
  t.s("big = rand(300, 300);");  // 720 KB: does not fit
  EXPECT_EQ(t.s.fails("save('small/v.mat', 'big')").identifier(), "MATLAB:save:couldNotWriteFile");
  EXPECT_EQ(t.s.fails("save('small/v.txt', 'big', '-ascii')").identifier(),
            "MATLAB:save:couldNotWriteFile");
  EXPECT_EQ(t.s.fails("writematrix(big, 'small/v.csv')").identifier(),
            "MATLAB:table:write:FileOpenError");
  EXPECT_EQ(read_all("small/v.mat"), mat);
  EXPECT_EQ(read_all("small/v.txt"), txt);
  EXPECT_EQ(read_all("small/v.csv"), csv);
  t.s("S = load('small/v.mat'); ok = isequal(S.x, magic(3));");
  EXPECT_EQ(t.s.num("ok"), 1);
  int n = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(n, 3);  // no temporary files left
}

}  // namespace
}  // namespace matfuse::test
