// Helpers shared by the text family files (text.cc, text_regexp.cc, text_map.cc).
//
// A text argument comes in three shapes, as in MATLAB: a char row (one text), a cell array of
// char rows (elementwise), or a string array (elementwise, string results).
#pragma once

#include <string>
#include <vector>

#include "builtins/registry.h"

namespace matfuse::text_detail {

/// A text argument unpacked into UTF-8 items with the input's dims and kind.
struct TextItems {
  Dims dims = Dims::scalar();
  std::vector<std::string> items;
  bool is_cell = false;    ///< a cell array of char rows
  bool is_string = false;  ///< a string array
  bool single() const { return !is_cell && !is_string; }
};

/// Unpacks a char row / cell of char rows / string array. Anything else raises
/// `MATLAB:<fname>:InvalidInput`-style errors (identifier id, message msg).
/// <missing> string elements raise MATLAB:string:MissingToCharConversion.
TextItems text_items(const Value& v, const char* id, const char* msg);

/// Packs per-item text results back into the input's shape: a char row for a single text,
/// a cell of char rows for a cell, a string array for a string array.
Value pack_text(const TextItems& shape, const std::vector<std::string>& out);

/// Byte offset -> MATLAB character index (UTF-16 code units) map of s, size s.size()+1.
std::vector<int64_t> char_index_map(const std::string& s);

/// ASCII lower-casing.
std::string lower(std::string s);

}  // namespace matfuse::text_detail

namespace matfuse {
/// MATLAB string(v): string arrays as they are, char rows (char matrices: one string per row),
/// numbers as short text ("3.1416"), logicals as "true"/"false", cells of those element-wise.
/// MATLAB:string:MustBeConvertible for other values.
Value to_string_value(const Value& v);

void register_text_regexp(Registry& r);
void register_text_map(Registry& r);
void register_text_strings(Registry& r);  // text_strings.cc
}  // namespace matfuse
