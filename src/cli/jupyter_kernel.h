// The Jupyter kernel (jupyter_kernel.cc, built when xeus is found: MATFUSE_HAVE_JUPYTER).
#pragma once

#include <string>

namespace matfuse::cli {

/// `matfuse --install-kernel [--prefix DIR]`: writes kernels/matfuse/kernel.json (argv: this
/// executable with --jupyter-kernel -f {connection_file}) into DIR/share/jupyter, or into the
/// user's Jupyter data folder ($JUPYTER_DATA_DIR, else $XDG_DATA_HOME/jupyter, else
/// ~/.local/share/jupyter). profile: the kernel prints the --profile table after every cell.
/// Returns the exit status (2 when this build has no kernel or the file cannot be written).
int install_kernel(const std::string& prefix, bool profile);

/// `matfuse --jupyter-kernel -f CONNECTION_FILE`: serves the Jupyter protocol until shutdown.
/// Cells run in one workspace; stdout/stderr are streamed; errors are shown with MATLAB's text;
/// figures changed by a cell are shown after it as PNG (runtime/figure_hook.h); a cell whose
/// first line is `%%profile` (or every cell, with profile) ends with the --profile table.
int run_jupyter_kernel(const std::string& connection_file, bool profile);

}  // namespace matfuse::cli
