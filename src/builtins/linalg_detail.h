// Internal to the linalg family: warnings and operand preparation.
#pragma once

#include <string>

#include "runtime/session.h"
#include "runtime/value.h"

namespace matfuse::linalg_detail {

/// Prints "Warning: MSG" to the current session's err stream (std::cerr when none is set),
/// honouring warning('off', id) / warning('off','all') switches, and records lastwarn.
void warn(const char* id, const std::string& msg);

/// RAII: makes ctx's session the warning target while a builtin runs.
class SessionScope {
public:
  explicit SessionScope(Session* s);
  ~SessionScope();
  SessionScope(const SessionScope&) = delete;
  SessionScope& operator=(const SessionScope&) = delete;

private:
  Session* prev_;
};

/// Operand class for matrix products and solves: single when either is single, otherwise
/// double (logical and char become double). Integer operands are the caller's business.
ClassId float_class_of(const Tensor& a, const Tensor& b);

/// x converted to class c, complex when `complex` is set.
Tensor prepare(const Tensor& x, ClassId c, bool complex);

/// Throws MATLAB:UndefinedFunction for non-numeric kinds (cell, struct, ...).
Tensor numeric_operand(const Value& v, const char* fname);

/// expm(a) of a square single or double matrix (real or complex), computed in double and
/// returned in a's class with zero imaginary parts dropped (linalg_ext_eig.cc: Higham's scaling
/// and squaring).
Tensor expm_tensor(const Tensor& a);

}  // namespace matfuse::linalg_detail
