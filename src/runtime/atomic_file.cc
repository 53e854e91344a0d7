#include "runtime/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/error.h"

namespace matfuse {

namespace {

[[noreturn]] void fail(const char* id, const std::string& path, int err) {
  throw_error(id, "Unable to write file '%s': %s.", path.c_str(), std::strerror(err));
}

/// Writes all of bytes to fd; false (errno set) on any failure, short writes retried.
bool write_all(int fd, std::string_view bytes) {
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) {
      errno = EIO;
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

/// The file actually written: a symbolic link's target.
std::string resolve(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_symlink(path, ec)) {
    auto c = std::filesystem::weakly_canonical(path, ec);
    if (!ec) return c.string();
  }
  return path;
}

/// Mode for the new file: the old file's permissions, else 0666 less the umask.
mode_t new_mode(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return st.st_mode & 07777;
  const mode_t um = ::umask(0);
  ::umask(um);
  return 0666 & ~um;
}

/// True when path exists and is not a regular file (a device, a FIFO): written in place.
bool special_target(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

void write_in_place(const std::string& path, std::string_view bytes, const char* id) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) fail(id, path, errno);
  if (!write_all(fd, bytes)) {
    const int e = errno;
    ::close(fd);
    fail(id, path, e);
  }
  if (::close(fd) != 0) fail(id, path, errno);
}

/// A new temporary file next to target: its path, and an open descriptor.
int make_temp(const std::string& target, std::string& tmp, const char* id) {
  std::filesystem::path t(target);
  std::filesystem::path dir = t.has_parent_path() ? t.parent_path() : std::filesystem::path(".");
  tmp = (dir / ("." + t.filename().string() + ".tmpXXXXXX")).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) fail(id, target, errno);
  return fd;
}

/// fsync, chmod, close and rename tmp (open as fd) over target; removes tmp on failure.
void commit(int fd, const std::string& tmp, const std::string& target, const char* id) {
  int e = 0;
  if (::fchmod(fd, new_mode(target)) != 0) e = errno;
  if (!e && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) e = errno;
  if (::close(fd) != 0 && !e) e = errno;
  if (!e && ::rename(tmp.c_str(), target.c_str()) != 0) e = errno;
  if (e) {
    ::unlink(tmp.c_str());
    fail(id, target, e);
  }
}

}  // namespace

void write_file_atomic(const std::string& path, std::string_view bytes, const char* id) {
  const std::string target = resolve(path);
  if (special_target(target)) return write_in_place(target, bytes, id);
  std::string tmp;
  const int fd = make_temp(target, tmp, id);
  if (!write_all(fd, bytes)) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(id, target, e);
  }
  commit(fd, tmp, target, id);
}

void write_file_atomic_with(const std::string& path,
                            const std::function<void(const std::string& tmp_path)>& write,
                            const std::function<void(const std::string& tmp_path)>& check,
                            const char* id) {
  const std::string target = resolve(path);
  std::string tmp;
  if (special_target(target)) {
    // A device or FIFO: produce the file elsewhere, then copy its bytes in with checks.
    const int fd = make_temp((std::filesystem::temp_directory_path() / "matfuse").string(), tmp,
                             id);
    ::close(fd);
    std::string bytes;
    try {
      write(tmp);
      if (check) check(tmp);
      bytes = read_for_append(tmp, id);
    } catch (...) {
      ::unlink(tmp.c_str());
      throw;
    }
    ::unlink(tmp.c_str());
    return write_in_place(target, bytes, id);
  }
  const int fd = make_temp(target, tmp, id);
  try {
    write(tmp);
    if (check) check(tmp);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  // The writer wrote through its own descriptor; fd (same inode) makes the data durable.
  commit(fd, tmp, target, id);
}

std::string read_for_append(const std::string& path, const char* id) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(id, path, errno ? errno : EACCES);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace matfuse
