// Table display (display_table.cc), used by display.cc.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "runtime/session.h"
#include "runtime/value.h"

namespace matfuse {
class TableObject;
}

namespace matfuse::display_detail {

/// Inner text of one cell element as a cell array display shows it between the braces, and
/// whether it is a bracketed number (padded inside its brackets) (display.cc).
std::pair<std::string, bool> cell_element_text(const Value& v, const Session& s);

/// The lines of a table display after the size line: variable names, underlines, a blank
/// (empty string) and one line per row.
std::vector<std::string> table_body(const TableObject& t, const Session& s);
/// "  3×2 table" / "  0×2 empty table".
std::string table_size_line(const TableObject& t);

}  // namespace matfuse::display_detail
