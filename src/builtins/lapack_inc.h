// Includes cblas.h and lapacke.h with LAPACKE's complex types mapped to std::complex, so that
// Tensor's interleaved complex data can be passed directly. Include this instead of the two
// headers.
#pragma once

#include <complex>
#ifndef lapack_complex_float
#define lapack_complex_float std::complex<float>
#endif
#ifndef lapack_complex_double
#define lapack_complex_double std::complex<double>
#endif
#include <cblas.h>
#include <lapacke.h>
