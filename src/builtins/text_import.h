// Delimited text import shared by readmatrix, readcell, csvread and dlmread (text_import.cc).
//
// The rules follow MATLAB's import of text files (detectImportOptions):
// - the file is read as UTF-8; a UTF-8 byte-order mark is dropped; line ends are LF, CRLF or CR;
// - fields follow RFC 4180: a field that begins with '"' is quoted, runs to the closing '"'
//   and may hold the delimiter, line breaks and doubled quotes ("" stands for one '"');
// - the delimiter is detected (',', tab, ';', '|', else runs of blanks) from the counts outside
//   quotes in the first lines, unless given;
// - numbers: decimal or exponent notation with an optional sign, Inf, -Inf, NaN, with the
//   decimal separator and (optional) thousands separator given; surrounding blanks ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "builtins/registry.h"

namespace matfuse::text_import {

struct Field {
  std::string text;
  bool quoted = false;
};
using Record = std::vector<Field>;

/// The bytes of a text file without a UTF-8 BOM. Errors: MATLAB:textio:textio:FileNotFound
/// naming the file.
std::string read_file(const std::string& path);

/// The delimiter of text: the first of ',', '\t', ';', '|' found outside quotes in its first
/// 100 lines, else " " (runs of blanks and tabs).
std::string detect_delimiter(std::string_view text);

/// Splits text into records of fields. delim " " means runs of blanks/tabs (leading blanks of
/// a line ignored). Empty lines give empty records (no fields) so that line numbers are kept.
std::vector<Record> parse_records(std::string_view text, const std::string& delim);

/// The field as a number, or nullopt when it is not one. Empty (or blank) fields give nullopt
/// with *empty set.
std::optional<double> parse_number(std::string_view s, char decimal = '.', char thousands = 0,
                                   bool* empty = nullptr);

/// A 'Range' argument: "A1:C3", "B2" (start cell), "A:C" (columns), "2:5" (rows), or a numeric
/// [row col] or [r1 c1 r2 c2] (1-based). r1/c1 < 0: to the end. Errors: MATLAB:textio:... for
/// malformed text.
struct Range {
  int64_t r0 = 0, c0 = 0, r1 = -1, c1 = -1;  // 0-based, inclusive ends
};
Range parse_range(const Value& v);

/// Delimiter names MATLAB accepts ('comma', 'tab', 'space', 'semi', 'bar', '\t') or the text.
std::string delimiter_arg(const Value& v, std::string_view fname);

}  // namespace matfuse::text_import
