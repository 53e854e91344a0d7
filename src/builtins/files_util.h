// Helpers shared by the files family (files.cc: load/save dispatch, ASCII and CSV files, time;
// files_mat.cc: MAT-files through libmatio).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
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

/// Checks the element structure of a MAT v5 file whose bytes are `bytes` (sizes within their
/// parents, array parts of numel elements, compressed parts that inflate; files_mat_check.cc).
/// v7.3 (HDF5) files pass unchecked: the return value says which format the header declares.
/// Errors: MATLAB:load:unableToReadMatFile naming `path`.
enum class MatFormat { V5, V73 };
MatFormat mat_validate(const std::string& path, const std::string& bytes);

/// Issues warning(id, '%s', msg) through the interpreter (so warning switches apply).
void warn(CallContext& ctx, const char* id, const std::string& msg);

/// Parses date text s with a MATLAB date format (tokens yyyy yy mmmm mmm mm dddd ddd dd HH MM SS
/// FFF AM PM; other characters literal, case-insensitive; a space matches one or more spaces)
/// into out = [year month day hour minute second]. Missing year: this_year; missing month or
/// day: 1. yy gives the year in [pivot, pivot+99]. False when the text does not match
/// (files_datetext.cc).
bool parse_date_text(std::string_view s, std::string_view fmt, int64_t pivot, int64_t this_year,
                     double out[6]);
/// parse_date_text with MATLAB's standard date formats tried in turn (datenum without format).
bool parse_date_auto(std::string_view s, int64_t pivot, int64_t this_year, double out[6]);

/// Quoting of text fields written to delimited files ('QuoteStrings').
enum class QuoteRule { Minimal, All, None };
/// The shortest decimal text that reads back as the same double, with MATLAB's NaN/Inf/-Inf.
std::string number_text(double d);
/// A text field as written: quoted (embedded quotes doubled, RFC 4180) under All, or under
/// Minimal when it holds the delimiter, a quote or a line break.
std::string quote_text(const std::string& s, const std::string& delim, QuoteRule q);

}  // namespace matfuse::files_detail

namespace matfuse {
void register_files_csv(Registry& r);  // files_csv.cc: readmatrix, readcell, writematrix, writecell
void register_files_text(Registry& r);  // files_text.cc: csvread, dlmread, csvwrite, dlmwrite, fileread
/// Writes text to path, replacing the file (or appending to it when append): the one place the
/// text writers (writematrix, writecell, csvwrite, dlmwrite) write a file. fname names the
/// caller in errors. Errors: MATLAB:table:write:FileOpenError.
void write_text_file(const std::string& path, const std::string& text, bool append,
                     const char* fname);
void register_files_sys(Registry& r);  // files_sys.cc: isfile ... tempname, clock, now, datestr
}  // namespace matfuse
