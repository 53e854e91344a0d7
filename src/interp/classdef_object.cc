// ClassObject: property reads and writes of classdef instances (get./set. methods, Dependent
// and Constant properties, validation, copy-on-write of value objects). See classdef.h.
#include <algorithm>

#include "interp/classdef.h"

namespace matfuse {

Value property_validated(Interpreter& in, const ClassInfo& cls, int k, Value v);

namespace {

/// Marks (cls, prop) as running its accessor for the guard's lifetime.
struct AccessorScope {
  std::vector<std::pair<const ClassInfo*, std::string>>& active;
  AccessorScope(std::vector<std::pair<const ClassInfo*, std::string>>& a, const ClassInfo* c,
                std::string p)
      : active(a) {
    active.emplace_back(c, std::move(p));
  }
  ~AccessorScope() { active.pop_back(); }
};

bool accessor_running(const Interpreter& in, const std::string& prop) {
  for (const auto& [c, p] : in.accessors_active_)
    if (p == prop) return true;
  return false;
}

}  // namespace

bool ClassObject::paren_read(std::span<const Value> idx, Value& out) const {
  for (const Value& i : idx) {
    if (i.is_char() && i.is_text() && i.to_text() == ":") continue;
    if (!(i.is_tensor() && i.numel() == 1 && !i.is_char() && i.to_double() == 1)) return false;
  }
  out = Value(std::static_pointer_cast<Object>(
      std::const_pointer_cast<ClassObject>(shared_from_this())));
  return true;
}

bool ClassObject::get_property(std::string_view name, Value& out) const {
  const int k = cls->prop_index(name);
  if (k < 0) return false;
  const ClassInfo::Prop& p = cls->props[static_cast<size_t>(k)];
  const std::string pname(name);
  if (p.constant) {
    Value v;
    in->class_member(p.owner->name, pname, v);
    out = v;
    return true;
  }
  const std::string getter = "get." + pname;
  if (cls->method(getter) && !accessor_running(*in, pname)) {
    AccessorScope scope(in->accessors_active_, cls.get(), pname);
    std::vector<Value> args{Value(std::static_pointer_cast<Object>(
        std::const_pointer_cast<ClassObject>(shared_from_this())))};
    Outputs r = in->call_class_method(*cls, getter, args, 1);
    out = r.empty() ? Value() : r[0];
    return true;
  }
  if (p.dependent && !cls->method(getter))
    throw_error("MATLAB:class:GetProhibited",
                "Unable to get the value of the Dependent property '%s' of class '%s': it has "
                "no get method.", pname.c_str(), cls->name.c_str());
  out = values[static_cast<size_t>(k)];
  return true;
}

bool ClassObject::set_property(std::string_view name, const Value& rhs, Value& self) {
  const int k = cls->prop_index(name);
  if (k < 0) return false;
  const ClassInfo::Prop& p = cls->props[static_cast<size_t>(k)];
  const std::string pname(name);
  if (p.constant)
    throw_error("MATLAB:class:SetProhibited",
                "Unable to set the '%s' property of class '%s' because it is a Constant "
                "property.", pname.c_str(), cls->name.c_str());
  const std::string setter = "set." + pname;
  if (cls->method(setter) && !accessor_running(*in, pname)) {
    AccessorScope scope(in->accessors_active_, cls.get(), pname);
    std::vector<Value> args{self, rhs};
    Outputs r = in->call_class_method(*cls, setter, args, cls->is_handle ? 0 : 1);
    if (!cls->is_handle && !r.empty()) self = r[0];
    return true;
  }
  if (p.dependent)
    throw_error("MATLAB:class:SetProhibited",
                "Unable to set the value of the Dependent property '%s' of class '%s': it has "
                "no set method.", pname.c_str(), cls->name.c_str());
  Value v = property_validated(*in, *cls, k, rhs);
  ClassObject* target = this;
  if (!cls->is_handle && self.object().use_count() > 1) {
    // Value semantics: another variable shares this instance; write into a copy.
    auto copy = std::make_shared<ClassObject>(*this);
    target = copy.get();
    self = Value(std::static_pointer_cast<Object>(copy));
  }
  target->values[static_cast<size_t>(k)] = std::move(v);
  return true;
}

std::vector<std::string> ClassObject::property_names() const {
  std::vector<std::string> r;
  for (const auto& p : cls->props)
    if (!p.hidden && !p.constant) r.push_back(p.name);
  return r;
}

}  // namespace matfuse
