// Crash- and full-disk-safe file output: every file matfuse writes (save, writematrix,
// writecell, --graph, --trace, the kernel cache, the calibration profile) goes through here.
//
// A regular target is written to a temporary file in its own folder, flushed to the device
// (fflush + fsync), closed, every step's result checked, then renamed over the target: a
// failure at any step (disk full, quota, I/O error, unwritable folder) removes the temporary,
// leaves the old file exactly as it was, and raises a MATLAB-style error. A target that exists
// and is not a regular file (a device such as /dev/null or /dev/full, a FIFO) is written in
// place with the same checks. A symbolic link is followed (its target is replaced).
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace matfuse {

/// Writes bytes to path as described above. Errors: MatlabError(id, "Unable to write file
/// 'PATH': REASON.") where REASON is strerror of the failing call.
void write_file_atomic(const std::string& path, std::string_view bytes,
                       const char* id = "MATLAB:FileIO:WriteFailed");

/// For writers that need a path of their own (libmatio): calls write(tmp_path) to produce the
/// complete file at tmp_path (it may throw; the temporary is then removed), then fsyncs and
/// renames it over path. `check(tmp_path)`, when given, runs before the rename and may throw
/// to reject the written file (a read-back check). Same errors as write_file_atomic.
void write_file_atomic_with(const std::string& path,
                            const std::function<void(const std::string& tmp_path)>& write,
                            const std::function<void(const std::string& tmp_path)>& check,
                            const char* id = "MATLAB:FileIO:WriteFailed");

/// The current content of path appended to (for save -ascii -append and writematrix's
/// 'WriteMode','append'): "" when path does not exist. Errors as above when it cannot be read.
std::string read_for_append(const std::string& path, const char* id);

}  // namespace matfuse
