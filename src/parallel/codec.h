// Function handles across processes: the interpreter's FunctionCodec (runtime/serialize.h).
#pragma once

#include "interp/interp.h"
#include "runtime/serialize.h"

namespace matfuse::parallel {

/// Sends a named handle as its text ("@sin") and an anonymous function as its text and the
/// variables it captured; rebuilds them in `in` (the receiving process's interpreter): a named
/// handle resolves its name there (path, builtins), an anonymous function is parsed again and
/// gets the captured values. encode refuses (returns false) handles it cannot describe by text.
class InterpFunctionCodec : public FunctionCodec {
public:
  explicit InterpFunctionCodec(Interpreter& in) : in_(in) {}
  bool encode(const FunctionObject& fn, FunctionParts& out) override;
  Value decode(const FunctionParts& parts) override;

private:
  Interpreter& in_;
};

}  // namespace matfuse::parallel
