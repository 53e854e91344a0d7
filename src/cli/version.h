// `matfuse --version`: the version and the optional features this build has.
#pragma once

#include <string>

namespace matfuse::cli {

/// "matfuse X.Y.Z\n" then one line per optional feature: "  NAME  yes|no  (what it enables)".
std::string version_text();

}  // namespace matfuse::cli
