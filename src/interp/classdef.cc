// classdef classes: loading a class (ClassInfo), construction, method dispatch, superclass
// calls, class members (Constant properties, enumeration members, static methods), operators
// and display overloads. Instances are ClassObject (classdef_object.cc). See classdef.h.
#include "interp/classdef.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "builtins/methods.h"
#include "builtins/operators.h"
#include "lang/ast.h"

namespace matfuse {

using namespace ast;

namespace {

bool attr_true(const std::vector<ClassAttr>& attrs, const char* name) {
  for (const auto& a : attrs)
    if (a.name == name) return a.value != "false";
  return false;
}

struct ClassFrameGuard {
  Interpreter& in;
  Frame* saved;
  ClassFrameGuard(Interpreter& i, Frame* f) : in(i), saved(i.cur_) {
    f->caller = saved;
    in.cur_ = f;
    ++in.depth_;
  }
  ~ClassFrameGuard() {
    in.cur_ = saved;
    --in.depth_;
  }
};

}  // namespace

int ClassInfo::prop_index(std::string_view n) const {
  for (size_t i = 0; i < props.size(); ++i)
    if (props[i].name == n) return static_cast<int>(i);
  return -1;
}

const ClassInfo::Method* ClassInfo::method(std::string_view n) const {
  auto it = methods.find(std::string(n));
  return it == methods.end() ? nullptr : &it->second;
}

bool ClassInfo::derives_from(std::string_view n) const {
  if (n == name || (n == "handle" && is_handle)) return true;
  for (const auto& s : supers)
    if (s->derives_from(n)) return true;
  return false;
}

std::shared_ptr<ClassInfo> Interpreter::find_class(const std::string& name) {
  if (name.find('.') != std::string::npos || name.find('@') != std::string::npos) return nullptr;
  std::shared_ptr<CodeUnit> u = find_path_unit(name);
  if (!u || !u->file->classdef) return nullptr;
  return class_for_unit(u);
}

std::shared_ptr<ClassInfo> Interpreter::class_for_unit(const std::shared_ptr<CodeUnit>& unit) {
  auto it = classes_.find(unit.get());
  if (it != classes_.end()) return it->second;
  const ClassDefAst& cd = *unit->file->classdef;
  auto ci = std::make_shared<ClassInfo>();
  classes_[unit.get()] = ci;
  ci->name = cd.name;
  ci->unit = unit;
  ci->ast = &cd;
  for (const auto& s : cd.supers) {
    if (s == "handle") {
      ci->is_handle = true;
      continue;
    }
    std::shared_ptr<ClassInfo> sup = find_class(s);
    if (!sup) {
      classes_.erase(unit.get());
      throw_error("MATLAB:class:undefinedSuperclass",
                  "The specified superclass '%s' contains a parse error, cannot be found on "
                  "MATLAB's search path, or is shadowed by another file with the same name.",
                  s.c_str());
    }
    if (sup->is_handle) ci->is_handle = true;
    for (const auto& p : sup->props)
      if (ci->prop_index(p.name) < 0) ci->props.push_back(p);
    for (const auto& [n, m] : sup->methods)
      if (n != sup->name) ci->methods.emplace(n, m);
    ci->supers.push_back(std::move(sup));
  }
  for (const auto& p : cd.properties) {
    ClassInfo::Prop pr;
    pr.name = p.name;
    pr.decl = &p;
    pr.owner = ci.get();
    pr.dependent = attr_true(p.attrs, "Dependent");
    pr.constant = attr_true(p.attrs, "Constant");
    pr.hidden = attr_true(p.attrs, "Hidden");
    int k = ci->prop_index(p.name);
    if (k >= 0) ci->props[static_cast<size_t>(k)] = pr;
    else ci->props.push_back(pr);
  }
  auto add_method = [&](const std::string& name, FunctionDef* def,
                        const std::shared_ptr<CodeUnit>& u, bool is_static) {
    ClassInfo::Method m{name, def, u, is_static, ci.get()};
    ci->methods[name] = m;
  };
  for (const auto& m : cd.methods) {
    if (!m.has_body) continue;
    auto f = unit->locals.find(m.name);
    if (f != unit->locals.end())
      add_method(m.name, f->second, unit, attr_true(m.attrs, "Static"));
  }
  // Methods in separate files of an @ClassName folder.
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(unit->file->path).parent_path();
  if (dir.filename().string() == "@" + cd.name) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".m" || e.path().stem() == cd.name) continue;
      std::shared_ptr<CodeUnit> mu = load_unit(e.path().string());
      if (mu->file->functions.empty()) continue;
      bool is_static = false;
      for (const auto& m : cd.methods)
        if (m.name == e.path().stem().string()) is_static = attr_true(m.attrs, "Static");
      add_method(e.path().stem().string(), mu->file->functions[0].get(), mu, is_static);
    }
  }
  return ci;
}

Value Interpreter::eval_class_block(ClassInfo& cls, Block& block, const std::string& var,
                                    bool* set) {
  if (!cls.eval_layout) cls.eval_layout = std::make_unique<Layout>();
  Layout& L = *cls.eval_layout;
  resolve_block_into(*cls.unit, block, L);
  Frame fr;
  fr.layout = &L;
  fr.slots.resize(L.names.size());
  fr.unit = cls.unit.get();
  fr.code = cls.unit.get();
  fr.name = cls.name;
  fr.file = cls.unit->file->path;
  {
    ClassFrameGuard g(*this, &fr);
    exec_block(block);
  }
  const int k = L.find(var);
  *set = k >= 0 && fr.slots[static_cast<size_t>(k)].set;
  return *set ? fr.slots[static_cast<size_t>(k)].v : Value();
}

/// Converts a property value to the declared class and checks the declared size, as MATLAB's
/// property validation does for `Name (m,n) CLASS`.
static Value validate_property(Interpreter& in, const ClassInfo::Prop& p, const ClassInfo& cls,
                               Value v) {
  if (!p.decl) return v;
  const ClassProperty& d = *p.decl;
  if (!d.cls.empty() && v.class_name() != d.cls) {
    const bool numeric = d.cls == "double" || d.cls == "single" || d.cls == "logical" ||
                         d.cls == "char" || d.cls == "string" || d.cls == "cell" ||
                         d.cls.rfind("int", 0) == 0 || d.cls.rfind("uint", 0) == 0;
    if (numeric) {
      try {
        std::vector<Value> a{v};
        v = in.call_named(d.cls, a, 1).at(0);
      } catch (const MatlabError&) {
        throw_error("MATLAB:validation:UnableToConvert",
                    "Error setting property '%s' of class '%s'. Value must be convertible to "
                    "%s.", p.name.c_str(), cls.name.c_str(), d.cls.c_str());
      }
    } else if (!(v.is_object() && v.object()->isa(d.cls))) {
      throw_error("MATLAB:validation:UnableToConvert",
                  "Error setting property '%s' of class '%s'. Value must be of class %s.",
                  p.name.c_str(), cls.name.c_str(), d.cls.c_str());
    }
  }
  if (!d.size.empty()) {
    const Dims vd = v.dims();
    bool ok = vd.ndims() <= static_cast<int>(d.size.size()) || d.size.size() < 2;
    for (size_t k = 0; ok && k < d.size.size(); ++k)
      if (d.size[k] != ":" && std::to_string(vd[static_cast<int>(k)]) != d.size[k]) ok = false;
    if (!ok) {
      std::string want;
      for (size_t k = 0; k < d.size.size(); ++k) want += (k ? "x" : "") + d.size[k];
      throw_error("MATLAB:validation:IncompatibleSize",
                  "Error setting property '%s' of class '%s'. Value must be %s.",
                  p.name.c_str(), cls.name.c_str(), want.c_str());
    }
  }
  for (const auto& vexpr : d.validators) {
    // {mustBePositive, mustBeInteger}: call each named validator with the value.
    if (vexpr->kind != ExprKind::Ident) continue;
    std::vector<Value> a{v};
    in.call_named(static_cast<const IdentExpr&>(*vexpr).name, a, 0);
  }
  return v;
}

Value property_validated(Interpreter& in, const ClassInfo& cls, int k, Value v) {
  return validate_property(in, cls.props[static_cast<size_t>(k)], cls, std::move(v));
}

static void ensure_defaults(Interpreter& in, ClassInfo& cls) {
  if (cls.defaults_ready) return;
  cls.defaults.assign(cls.props.size(), Value());
  for (size_t i = 0; i < cls.props.size(); ++i) {
    const ClassInfo::Prop& p = cls.props[i];
    if (!p.decl || p.decl->default_block.empty()) {
      if (p.decl && !p.decl->cls.empty() && p.decl->cls == "string")
        cls.defaults[i] = Value(StringArray::scalar(""));
      continue;
    }
    bool set = false;
    Value v = in.eval_class_block(*p.owner, const_cast<Block&>(p.decl->default_block),
                                  "__value__", &set);
    cls.defaults[i] = validate_property(in, p, cls, std::move(v));
  }
  cls.defaults_ready = true;
}

Outputs Interpreter::construct(const std::shared_ptr<ClassInfo>& cls, Args args, int nargout) {
  if (cls->ast && !cls->ast->enumeration.empty() && !cls->method(cls->name) && !args.empty())
    throw_error("MATLAB:class:EnumerationConstructor",
                "Cannot call the constructor of enumeration class '%s'.", cls->name.c_str());
  ensure_defaults(*this, *cls);
  auto obj = std::make_shared<ClassObject>(cls, this);
  obj->values = cls->defaults;
  Value v(std::static_pointer_cast<Object>(obj));
  const ClassInfo::Method* ctor = cls->method(cls->name);
  if (ctor && ctor->owner == cls.get()) {
    Outputs r = call_class_method(*cls, cls->name, args, std::max(nargout, 1), &v);
    return r;
  }
  // No constructor: the superclass constructor with the same arguments (MATLAB's implicit
  // constructor passes no arguments; a class without one accepts none).
  if (!args.empty())
    throw_error("MATLAB:TooManyInputs", "Too many input arguments.");
  return {v};
}

Outputs Interpreter::call_class_method(const ClassInfo& cls, const std::string& name, Args args,
                                       int nargout, const Value* preset) {
  const ClassInfo::Method* m = cls.method(name);
  MF_ASSERT(m, "call_class_method: no method " + name);
  if (!preset) return call_user(m->unit, m->def, args, nargout);
  // Constructors: the output variable starts as the instance.
  std::optional<Value> saved = std::move(preset_output_);
  preset_output_ = *preset;
  try {
    Outputs r = call_user(m->unit, m->def, args, nargout);
    preset_output_ = std::move(saved);
    return r;
  } catch (...) {
    preset_output_ = std::move(saved);
    throw;
  }
}

const void* Interpreter::find_dispatch(const std::string& name, Args args,
                                       const ClassInfo** out) {
  for (const Value& a : args) {
    if (!a.is_object()) continue;
    ClassObject* o = as_class_object(a);
    if (!o) continue;
    const ClassInfo::Method* m = o->cls->method(name);
    if (m && name != o->cls->name) {
      *out = o->cls.get();
      return m;
    }
  }
  return nullptr;
}

bool Interpreter::class_member(const std::string& cname, const std::string& member,
                               Value& out) {
  std::shared_ptr<ClassInfo> cls = find_class(cname);
  if (!cls) return false;
  const int k = cls->prop_index(member);
  if (k >= 0 && cls->props[static_cast<size_t>(k)].constant) {
    ensure_defaults(*this, *cls);
    out = cls->defaults[static_cast<size_t>(k)];
    return true;
  }
  if (cls->ast) {
    for (auto& m : const_cast<ClassDefAst*>(cls->ast)->enumeration) {
      if (m.name != member) continue;
      auto it = cls->enum_values.find(member);
      if (it != cls->enum_values.end()) {
        out = it->second;
        return true;
      }
      std::vector<Value> args;
      for (size_t i = 0; i < m.nargs; ++i) {
        bool set = false;
        args.push_back(eval_class_block(*cls, m.args, "__a" + std::to_string(i + 1) + "__",
                                        &set));
      }
      Value v;
      if (cls->method(cls->name)) {
        ensure_defaults(*this, *cls);
        auto obj = std::make_shared<ClassObject>(cls, this);
        obj->values = cls->defaults;
        obj->enum_member = member;
        Value pre(std::static_pointer_cast<Object>(obj));
        v = call_class_method(*cls, cls->name, args, 1, &pre).at(0);
        if (ClassObject* o = as_class_object(v)) o->enum_member = member;
      } else {
        ensure_defaults(*this, *cls);
        auto obj = std::make_shared<ClassObject>(cls, this);
        obj->values = cls->defaults;
        obj->enum_member = member;
        v = Value(std::static_pointer_cast<Object>(obj));
      }
      cls->enum_values[member] = v;
      out = v;
      return true;
    }
  }
  return false;
}

Outputs Interpreter::super_call(const std::string& name, std::vector<Value>& args,
                                int nargout) {
  const size_t at = name.find('@');
  const std::string left = name.substr(0, at), super = name.substr(at + 1);
  std::shared_ptr<ClassInfo> sup = find_class(super);
  if (!sup)
    throw_error("MATLAB:class:InvalidSuperClass", "'%s' is not a superclass.", super.c_str());
  bool found = false;
  Value self = variable_value(*cur_, left, &found);
  if (found && as_class_object(self)) {
    // obj@Super(args): the superclass constructor on this instance.
    if (!sup->method(sup->name) || sup->method(sup->name)->owner != sup.get()) return {self};
    return call_class_method(*sup, sup->name, args, std::max(nargout, 1), &self);
  }
  // method@Super(obj, args...)
  if (!sup->method(left))
    throw_error("MATLAB:class:MethodNotFound", "No method '%s' in superclass '%s'.",
                left.c_str(), super.c_str());
  return call_class_method(*sup, left, args, nargout);
}

bool Interpreter::object_operator(const char* method, std::vector<Value> args, Value& out) {
  const ClassInfo* cls = nullptr;
  if (!find_dispatch(method, args, &cls)) {
    // The operator method of a C++ value class (datetime, duration, ...).
    const Builtin* b = dispatch_class_method(method, args);
    if (!b) return false;
    Outputs r;
    try {
      r = b->fn(*this, args, 1);
    } catch (MatlabError& e) {
      // MATLAB names an operator method's errors by its symbol ("Error using  + ").
      static const std::pair<const char*, const char*> symbols[] = {
          {"plus", " + "},   {"minus", " - "}, {"times", " .* "}, {"mtimes", " * "},
          {"rdivide", " ./ "}, {"mrdivide", " / "}, {"eq", " == "}, {"ne", " ~= "},
          {"lt", " < "},     {"le", " <= "},   {"gt", " > "},    {"ge", " >= "},
          {"uminus", " - "}, {"colon", " : "}};
      if (e.raised_by().empty() && e.stack().empty()) {
        e.raised_by() = method;
        for (const auto& [m, sym] : symbols)
          if (std::strcmp(m, method) == 0) e.raised_by() = sym;
      }
      throw;
    }
    if (r.empty()) throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
    out = std::move(r[0]);
    return true;
  }
  Outputs r = call_class_method(*cls, method, args, 1);
  if (r.empty())
    throw_error("MATLAB:TooManyOutputs", "Too many output arguments.");
  out = std::move(r[0]);
  return true;
}

bool Interpreter::object_display(const Value& v, std::string_view name) {
  ClassObject* o = as_class_object(v);
  if (!o) return false;
  std::vector<Value> args{v};
  if (!name.empty() && o->cls->method("display")) {
    call_class_method(*o->cls, "display", args, 0);
    return true;
  }
  if (o->cls->method("disp")) {
    if (!name.empty()) {
      *session_.out << std::string(name) << " = \n";
      if (!session_.compact) *session_.out << "\n";
    }
    call_class_method(*o->cls, "disp", args, 0);
    if (!name.empty() && !session_.compact) *session_.out << "\n";
    return true;
  }
  if (!o->enum_member.empty()) {
    if (!name.empty()) {
      *session_.out << std::string(name) << " = \n";
      if (!session_.compact) *session_.out << "\n";
      *session_.out << "  " << o->cls->name << " enumeration\n";
      if (!session_.compact) *session_.out << "\n";
    }
    *session_.out << "    " << o->enum_member << "\n";
    if (!name.empty() && !session_.compact) *session_.out << "\n";
    return true;
  }
  return false;
}

}  // namespace matfuse
