// Helpers shared by the files family (files.cc: load/save dispatch, ASCII and CSV files, time;
// files_mat.cc: MAT-files through libmatio).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "builtins/registry.h"

namespace matfuse::files_detail {

/// True when the file starts with a MATLAB MAT-file text header ("MATLAB 5.0 MAT-file ...").
bool is_mat_file(const std::string& path);

/// Writes vars (name, value) to a new MAT-file (v5, or v7.3 when v73). Values of unsupported
/// classes are not written; their "name (class)" is appended to `skipped`.
/// Errors: MATLAB:save:couldNotWriteFile; matfuse:notAvailable without libmatio (or without
/// HDF5 support for v7.3).
void mat_save(const std::string& path, const std::vector<std::pair<std::string, Value>>& vars,
              bool v73, std::vector<std::string>& skipped);

/// Reads every variable of a MAT-file in file order. Unsupported variables (sparse, objects)
/// are appended to `skipped`. Errors: MATLAB:load:unableToReadMatFile; matfuse:notAvailable.
std::vector<std::pair<std::string, Value>> mat_load(const std::string& path,
                                                    std::vector<std::string>& skipped);

/// Issues warning(id, '%s', msg) through the interpreter (so warning switches apply).
void warn(CallContext& ctx, const char* id, const std::string& msg);

}  // namespace matfuse::files_detail

namespace matfuse {
void register_files_csv(Registry& r);  // files_csv.cc: readmatrix, writematrix
void register_files_sys(Registry& r);  // files_sys.cc: isfile ... tempname, clock, now, datestr
}  // namespace matfuse
