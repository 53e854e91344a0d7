// Parser: MATLAB source text to AST.
//
// Errors: a syntax error throws MatlabError with identifier "MATLAB:syntax" (unbalanced
// brackets: "MATLAB:unbalancedBrackets"; unterminated string: "MATLAB:unterminatedString";
// missing `end`: "MATLAB:missingEnd"), whose message reads
//   "file.m:LINE:COL: Parse error: expected X, found Y"  or, for unclosed blocks,
//   "file.m:LINE:COL: Parse error: 'for' opened at line L is missing its 'end'"
// and whose stack holds one frame with that file, line and column.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lang/ast.h"

namespace matfuse {

/// Parses a whole file (script or function file). `path` is used for messages and stored in the
/// result; `name` defaults to the file stem of path.
std::unique_ptr<ast::ParsedFile> parse_source(std::string_view source, const std::string& path);

/// Same, for input run in an existing workspace (REPL lines, -e): names in `known_variables` are
/// variables, so a statement `x -1` is the expression x - 1 rather than the command x('-1')
/// (MATLAB's command-syntax rule).
std::unique_ptr<ast::ParsedFile> parse_source(std::string_view source, const std::string& path,
                                              const std::vector<std::string>& known_variables);

}  // namespace matfuse

namespace matfuse {

/// Whether `source` (text typed at the prompt so far) is an unfinished statement that the next
/// line continues, as MATLAB's and Octave's prompts decide: a block (for, parfor, while, if,
/// switch, try, function, spmd) without its `end`, a bracket `[`/`{`/`(` not yet closed, or a
/// last line ending in a `...` continuation. Text that is complete, or that has a syntax error
/// before its end, is not incomplete (running it reports the error).
bool input_is_incomplete(std::string_view source,
                         const std::vector<std::string>& known_variables = {});

}  // namespace matfuse
