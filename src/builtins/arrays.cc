// Builtins of the "arrays" family (registration entry point; the functions live in arrays*.cc):
// arrays_shape.cc (flip, rot90, circshift, tril/triu, issquare) and arrays_grid.cc (meshgrid,
// ndgrid, kron, blkdiag, sub2ind, ind2sub).
#include "builtins/registry.h"

namespace matfuse {

void register_arrays_shape(Registry& r);
void register_arrays_grid(Registry& r);
void register_arrays_special(Registry& r);  // toeplitz, hankel (arrays_special.cc)

void register_arrays(Registry& r) {
  register_arrays_shape(r);
  register_arrays_grid(r);
  register_arrays_special(r);
}

}  // namespace matfuse
