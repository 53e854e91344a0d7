// The MATLAB printf engine (sprintf, fprintf, error, warning, assert) and small text helpers
// shared by the strings, cells_structs and misc families.
//
// Format language (MATLAB `formatSpec`):
//   %[flags][width][.precision][subtype]conversion
//   flags: '-' left-justify, '+' sign, ' ' space for sign, '0' zero pad, '#' alternate form;
//   width/precision: digits or '*' (taken from the data stream);
//   conversions: d i u o x X f F e E g G c s %%; subtypes l h b t are accepted and ignored.
//   Escapes (\n \t \\ \r \a \b \f \v \xHH \NNN octal, and '' for a quote in char literals is the
//   lexer's business) are decoded in the format text only, never in data arguments.
//
// Data: every argument is flattened column-major into one stream. A char array meeting %s (or
// %c) at its first element is consumed whole as text; otherwise its characters are numbers one by
// one. String arrays contribute one text item per element. Cell, struct, function handle and
// object arguments raise MATLAB:<fname>:InvalidInputType.
//
// Recycling: the format is applied repeatedly until the stream is exhausted. Output stops at the
// first conversion that finds no data (the literal text before it is still written). With no data
// arguments the format is written up to its first conversion; when arguments are given but all
// are empty, all literal text is written and conversions produce nothing.
//
// Value rules: an integer conversion (d i u o x X) or a text conversion (c s) applied to a
// non-integer (or, for u o x X, a negative) value switches to %e with the same flags, width and
// precision. Inf and NaN print as "Inf", "-Inf", "NaN" (width honoured, '0' ignored). Complex
// values print their real part. Logical values print as 0/1.
#pragma once

#include <cstdio>

#include <cstdint>
#include <string>
#include <string_view>

#include "builtins/registry.h"

namespace matfuse {

/// Decodes MATLAB escape sequences (\n \t \\ \r \a \b \f \v \xHH \NNN). Unknown escapes keep the
/// backslash and the character.
std::string decode_escapes(std::string_view s);

/// Formats data args with fmt (already UTF-8; escapes are decoded here). fname ("sprintf",
/// "fprintf", "error", ...) names the function in error identifiers.
std::string format_printf(std::string_view fmt, Args args, std::string_view fname);

/// Appends code point cp as UTF-8.
void append_utf8_cp(std::string& out, uint32_t cp);

/// A 1xN char row from UTF-8 (1x0 for empty text, as sprintf returns).
Value char_row(std::string_view utf8);

/// Text of a char row / string scalar argument, or MATLAB-style error naming the function.
std::string text_arg(const Value& v, std::string_view fname, int pos);

/// MATLAB message identifier test: at least two ':'-separated parts, each a letter followed by
/// letters, digits, '_' or '-', no whitespace (error/warning/assert use it to tell an identifier
/// from a message).
bool is_message_identifier(std::string_view s);

/// Registers sprintf, fprintf, fopen, fclose, fgetl, fgets, feof (called by register_strings).
void register_printf(Registry& r);
/// fscanf, textscan (scan.cc); called by register_printf.
void register_scan(Registry& r);
/// The stdio stream of a file identifier from fopen (printf.cc), ready for reading; nullptr for
/// a file opened for writing only ('w', 'a'), which reads as empty. Errors:
/// MATLAB:FileIO:InvalidFid.
std::FILE* fid_read_file(const Value& fid);

}  // namespace matfuse
