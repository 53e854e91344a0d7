// Objects in expressions: property or method for obj.name, method calls (obj.m(...) and
// m(obj, ...)).
#include "interp/classdef.h"
#include "interp/interp.h"
#include "runtime/object_index.h"

namespace matfuse {

bool Interpreter::object_has_property(const Value& obj, const std::string& name) {
  IndexableObject* o = as_indexable(obj);
  if (!o) return false;
  Value r;
  return o->get_property(name, r);
}

Outputs Interpreter::call_method(const std::string& name, std::vector<Value>& args,
                                 int nargout) {
  if (ClassObject* o = as_class_object(args[0])) {
    if (o->cls->method(name)) return call_class_method(*o->cls, name, args, nargout);
  }
  ResolvedFn fn = resolve_function(name, cur_->unit);
  if (fn.kind == ResolvedFn::Kind::None)
    throw_error("MATLAB:noSuchMethodOrField",
                "Unrecognized method, property, or field '%s' for class '%s'.", name.c_str(),
                args[0].class_name().c_str());
  return call_resolved(fn, args, nargout);
}

}  // namespace matfuse
