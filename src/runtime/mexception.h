// MException: MATLAB's error object (the `err` of `catch err`, MException(id, fmt, ...)).
//
// A value object (Value::Kind::Object) whose properties are read-only, so sharing one instance
// between copies is value semantics. Properties (MATLAB's order): identifier (char row),
// message (char row), cause (Nx1 cell of MException), stack (Nx1 struct with fields file, name,
// line), Correction ([]). Methods are builtins that accept it: throw, rethrow, throwAsCaller,
// addCause, getReport (builtins/errors.cc); obj.method(...) syntax reaches them too.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/error.h"
#include "runtime/object_index.h"

namespace matfuse {

class MException : public IndexableObject, public std::enable_shared_from_this<MException> {
public:
  explicit MException(MatlabError e) : err_(std::move(e)) {}
  std::string class_name() const override { return "MException"; }
  bool paren_read(std::span<const Value> idx, Value& out) const override;
  bool paren_assign(std::span<const Value>, const Value&) override { return false; }
  bool get_property(std::string_view name, Value& out) const override;
  std::vector<std::string> property_names() const override;

  /// The error this object describes (identifier, message, stack, causes, raised_by).
  const MatlabError& error() const { return err_; }

  /// MATLAB's getReport text: "Error using NAME\nMESSAGE", the "Error in" lines of the stack,
  /// then "Caused by:" with each cause's report indented by four spaces. No trailing newline.
  std::string report() const;

private:
  MatlabError err_;
};

/// A Value holding an MException for e (stack as given).
Value make_mexception(MatlabError e);

/// The MException of v, or null.
const MException* as_mexception(const Value& v);

/// The error described by v: an MException, or a struct with fields identifier, message and
/// optionally stack (file, name, line) as rethrow and error(struct) accept. Other values raise
/// MATLAB:rethrow:InvalidInput ("Input must be a structure or MException object.").
MatlabError error_from_value(const Value& v);

}  // namespace matfuse
