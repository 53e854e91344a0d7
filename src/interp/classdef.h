// classdef classes at run time: ClassInfo (one per class definition file) and ClassObject (an
// instance, Value::Kind::Object).
//
// Semantics implemented (MATLAB's): value classes copy on assignment (an obj.Prop = v on a
// shared instance copies it first), handle classes (< handle, directly or through a
// superclass) share one instance; property defaults are evaluated once per class; a
// constructor runs with its output preset to an instance holding the defaults; obj@Super(...)
// runs the superclass constructor on that instance, method@Super(obj, ...) the superclass
// method; get.Prop/set.Prop run on every read/write of Prop outside themselves; Dependent
// properties exist only through get.Prop; Constant properties and enumeration members are read
// as ClassName.Name; methods are called as obj.m(...), m(obj, ...), and for operators by name
// (plus, minus, times, mtimes, eq, lt, ...); disp/display overloads replace the default
// display. Not implemented: access control (every member is public), events and listeners,
// object arrays (an instance is 1x1), property validation functions beyond class and size.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "interp/interp.h"
#include "runtime/object_index.h"

namespace matfuse {

struct ClassInfo {
  struct Prop {
    std::string name;
    const ast::ClassProperty* decl = nullptr;
    ClassInfo* owner = nullptr;
    bool dependent = false, constant = false, hidden = false;
  };
  struct Method {
    std::string name;
    ast::FunctionDef* def = nullptr;
    std::shared_ptr<CodeUnit> unit;
    bool is_static = false;
    ClassInfo* owner = nullptr;
  };
  std::string name;
  std::shared_ptr<CodeUnit> unit;  ///< the classdef file
  const ast::ClassDefAst* ast = nullptr;
  std::vector<std::shared_ptr<ClassInfo>> supers;
  bool is_handle = false;
  std::vector<Prop> props;                 ///< superclasses' first, then own
  std::map<std::string, Method> methods;   ///< own and inherited (own win)
  std::vector<Value> defaults;             ///< per props; evaluated on first construction
  bool defaults_ready = false;
  std::map<std::string, Value> enum_values;  ///< enumeration members, made on first use
  std::unique_ptr<Layout> eval_layout;       ///< frame layout for defaults and enum arguments

  int prop_index(std::string_view n) const;
  const Method* method(std::string_view n) const;
  bool derives_from(std::string_view n) const;  ///< itself, a superclass, or "handle"
};

class ClassObject : public IndexableObject, public std::enable_shared_from_this<ClassObject> {
public:
  ClassObject(std::shared_ptr<ClassInfo> c, Interpreter* in) : cls(std::move(c)), in(in) {}
  std::string class_name() const override { return cls->name; }
  bool isa(std::string_view name) const override { return cls->derives_from(name); }
  bool paren_read(std::span<const Value> idx, Value& out) const override;
  bool paren_assign(std::span<const Value>, const Value&) override { return false; }
  bool get_property(std::string_view name, Value& out) const override;
  bool set_property(std::string_view name, const Value& rhs, Value& self) override;
  std::vector<std::string> property_names() const override;

  std::shared_ptr<ClassInfo> cls;
  std::vector<Value> values;  ///< per cls->props (Dependent and Constant ones unused)
  Interpreter* in;
  std::string enum_member;    ///< the member name of an enumeration value
};

/// The ClassObject of v, or null.
inline ClassObject* as_class_object(const Value& v) {
  return v.is_object() ? dynamic_cast<ClassObject*>(v.object().get()) : nullptr;
}

}  // namespace matfuse
