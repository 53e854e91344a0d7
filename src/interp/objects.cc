// Objects in expressions: property or method for obj.name, method calls (obj.m(...) and
// m(obj, ...)).
#include <algorithm>

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

namespace matfuse {

namespace {

Interpreter& interp_of(CallContext& ctx) { return static_cast<Interpreter&>(ctx); }

/// The class of a properties/methods argument: an instance, or a class name.
std::shared_ptr<ClassInfo> class_arg(Interpreter& in, const Value& v, std::string* name) {
  if (ClassObject* o = as_class_object(v)) {
    *name = o->cls->name;
    return o->cls;
  }
  if (v.is_text()) {
    *name = v.to_text();
    return in.find_class(*name);
  }
  *name = v.class_name();
  return nullptr;
}

/// properties(obj|'ClassName'): prints "Properties for class C:" and the public property names;
/// p = properties(...) returns them as a column cell instead. Objects implemented in C++ list
/// their properties too; other values have none.
Outputs bi_properties(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  Interpreter& in = interp_of(ctx);
  std::string name;
  std::vector<std::string> names;
  if (std::shared_ptr<ClassInfo> c = class_arg(in, args[0], &name)) {
    for (const auto& p : c->props)
      if (!p.hidden) names.push_back(p.name);
  } else if (IndexableObject* o = as_indexable(args[0])) {
    names = o->property_names();
  }
  if (nargout > 0) {
    CellArray cell(Dims(static_cast<int64_t>(names.size()), 1));
    for (size_t i = 0; i < names.size(); ++i)
      cell.at(static_cast<int64_t>(i)) = Value::from_chars(names[i]);
    return {Value(std::move(cell))};
  }
  std::ostream& os = *in.session_.out;
  if (names.empty()) {
    os << "No properties for class " << name << ".\n";
    return {};
  }
  os << "\nProperties for class " << name << ":\n\n";
  for (const auto& n : names) os << "    " << n << "\n";
  os << "\n";
  return {};
}

/// methods(obj|'ClassName'): prints "Methods for class C:" and the method names (accessors
/// get./set. excluded, static methods listed after "Static methods:"); m = methods(...) returns
/// all the names as a sorted column cell.
Outputs bi_methods(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  Interpreter& in = interp_of(ctx);
  std::string name;
  std::shared_ptr<ClassInfo> c = class_arg(in, args[0], &name);
  std::vector<std::string> plain, statics;
  if (c) {
    for (const auto& [n, m] : c->methods) {
      if (n.rfind("get.", 0) == 0 || n.rfind("set.", 0) == 0) continue;
      (m.is_static ? statics : plain).push_back(n);
    }
  }
  if (nargout > 0) {
    std::vector<std::string> all = plain;
    all.insert(all.end(), statics.begin(), statics.end());
    std::sort(all.begin(), all.end());
    CellArray cell(Dims(static_cast<int64_t>(all.size()), 1));
    for (size_t i = 0; i < all.size(); ++i)
      cell.at(static_cast<int64_t>(i)) = Value::from_chars(all[i]);
    return {Value(std::move(cell))};
  }
  std::ostream& os = *in.session_.out;
  if (plain.empty() && statics.empty()) {
    os << "No methods for class " << name << ".\n";
    return {};
  }
  os << "\nMethods for class " << name << ":\n\n";
  for (const auto& n : plain) os << "    " << n << "\n";
  if (!statics.empty()) {
    os << "\nStatic methods:\n\n";
    for (const auto& n : statics) os << "    " << n << "\n";
  }
  os << "\n";
  return {};
}

/// tf = isprop(obj, name): whether obj has a property of that name.
Outputs bi_isprop(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const std::string p = args[1].to_text("property name");
  bool r = false;
  if (ClassObject* o = as_class_object(args[0])) r = o->cls->prop_index(p) >= 0;
  else if (IndexableObject* o = as_indexable(args[0])) {
    const auto names = o->property_names();
    r = std::find(names.begin(), names.end(), p) != names.end();
  }
  (void)ctx;
  return {Value::logical(r)};
}

/// tf = ismethod(obj, methodName): whether obj's classdef class defines that method, or
/// whether methodName is a method of an object implemented in C++ (containers.Map).
Outputs bi_ismethod(CallContext& ctx, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  (void)ctx;
  const std::string m = args[1].to_text("method name");
  if (ClassObject* o = as_class_object(args[0]))
    return {Value::logical(o->cls->method(m) != nullptr)};
  if (args[0].is_object() && args[0].class_name() == "containers.Map") {
    static const char* ms[] = {"isKey", "keys", "values", "remove", "length", "Map", "size"};
    for (const char* s : ms)
      if (m == s) return {Value::logical(true)};
  }
  return {Value::logical(false)};
}

}  // namespace

void register_object_builtins(Registry& r) {
  r.add("properties", bi_properties);
  r.add("methods", bi_methods);
  r.add("isprop", bi_isprop);
  r.add("ismethod", bi_ismethod);
}

}  // namespace matfuse
