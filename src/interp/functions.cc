// Function handles: @name (NamedFunction) and @(x) ... (AnonFunction, see eval_expr.cc for its
// creation), func2str / str2func, and the name resolution order for calls.
#include "interp/interp.h"

namespace matfuse {

ResolvedFn Interpreter::resolve_function(std::string_view name_sv, const CodeUnit* unit) {
  ResolvedFn r;
  r.name = std::string(name_sv);
  const std::string& name = r.name;
  // 0. Inside a classdef file, the class name is the class (its constructor runs through it).
  if (unit && unit->file && unit->file->classdef && unit->file->classdef->name == name) {
    r.kind = ResolvedFn::Kind::Class;
    r.cls = class_for_unit(const_cast<CodeUnit*>(unit)->shared_from_this());
    return r;
  }
  // 1. Local (or nested) function of the same file.
  if (unit) {
    auto it = unit->locals.find(name);
    if (it != unit->locals.end()) {
      r.kind = ResolvedFn::Kind::User;
      r.def = it->second;
      r.unit = const_cast<CodeUnit*>(unit)->shared_from_this();
      return r;
    }
  }
  // 2. Function or script file on the path.
  if (name.find('.') == std::string::npos) {
    if (std::shared_ptr<CodeUnit> u = find_path_unit(name)) {
      if (u->file->is_script) {
        r.kind = ResolvedFn::Kind::Script;
      } else if (u->file->classdef) {
        r.kind = ResolvedFn::Kind::Class;
        r.cls = class_for_unit(u);
      } else if (!u->file->functions.empty()) {
        r.kind = ResolvedFn::Kind::User;
        r.def = u->file->functions[0].get();
      }
      r.unit = std::move(u);
      if (r.kind != ResolvedFn::Kind::None) return r;
    }
  }
  // 3. Builtins: the interpreter's own first, then the library table.
  const Builtin* b = own_builtins_.find(name);
  if (!b) b = builtins().find(name);
  if (b) {
    r.kind = ResolvedFn::Kind::Builtin;
    r.builtin = b;
    if (const std::optional<OpId> op = op_from_name(name); op && op_has(*op, kScalarFast))
      r.scalar_fast = op;
  }
  return r;
}

Value Interpreter::make_named_handle(const std::string& name) {
  CodeUnit* u = cur_ ? cur_->unit : nullptr;
  ResolvedFn r = resolve_function(name, u);
  std::shared_ptr<CodeUnit> keep = u ? u->shared_from_this() : nullptr;
  return Value(std::shared_ptr<const FunctionObject>(
      std::make_shared<NamedFunction>(name, std::move(keep), std::move(r))));
}

Value Interpreter::fn_value_for(const ResolvedFn& fn) {
  return Value(std::shared_ptr<const FunctionObject>(
      std::make_shared<NamedFunction>(fn.name, fn.unit, fn)));
}

}  // namespace matfuse
