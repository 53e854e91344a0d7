// A minimal CallContext test double for builtin tests: calls builtins by name through
// builtins().find, plus a few test-only functions; captures session output.
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "builtins/registry.h"

namespace matfuse::testing {

/// A named function handle (@name).
class NamedFn : public FunctionObject {
public:
  explicit NamedFn(std::string n) : n_(std::move(n)) {}
  std::string display() const override { return "@" + n_; }
  std::string name() const override { return n_; }

private:
  std::string n_;
};

inline Value handle(const std::string& name) {
  return Value(std::shared_ptr<const FunctionObject>(std::make_shared<NamedFn>(name)));
}

class FakeCtx : public CallContext {
public:
  FakeCtx() {
    s.out = &out;
    s.err = &err;
  }
  Session& session() override { return s; }
  Outputs call(const Value& fn, Args args, int nargout) override {
    if (fn.is_text()) return call_named(fn.to_text(), args, nargout);
    if (fn.is_function()) return call_named(fn.function()->name(), args, nargout);
    throw_error("MATLAB:test", "not callable");
  }
  Outputs call_named(std::string_view name, Args args, int nargout) override {
    // Test-only functions.
    if (name == "twice") {  // [a, b] = twice(x): a = x, b = the char 'x' text length
      Outputs o{args[0]};
      if (nargout >= 2) o.push_back(Value(static_cast<double>(args[0].numel())));
      return o;
    }
    if (name == "pair") return {Value(Tensor::zeros(ClassId::Double, Dims(1, 2)))};
    if (name == "fail") throw_error("test:fail", "failed on purpose");
    if (name == "silent") return {};
    if (name == "handler") return {Value(-1.0)};
    if (name == "numel1") return {Value(static_cast<double>(args[0].numel()))};
    const Builtin* b = builtins().find(name);
    if (!b)
      throw_error("MATLAB:UndefinedFunction", "Undefined function '%s'.",
                  std::string(name).c_str());
    return b->fn(*this, args, nargout);
  }
  void display(const Value&, std::string_view) override {}
  int exist(std::string_view name) override {
    if (name == "myvar") return 1;
    return builtins().find(name) ? 5 : 0;
  }
  Outputs eval_text(std::string_view code, int) override {
    last_eval = std::string(code);
    if (!code.empty() && code[0] == '@') return {handle(std::string(code.substr(1)))};
    if (code == "[1 2 3]") {
      Tensor t = Tensor::uninit(ClassId::Double, Dims(1, 3));
      for (int i = 0; i < 3; ++i) t.set_double(i, i + 1);
      return {Value(t)};
    }
    throw_error("MATLAB:m_illegal_character", "Invalid text.");
  }

  /// Calls builtin `name` with args; returns its outputs.
  Outputs run(const std::string& name, std::vector<Value> args, int nargout = 1) {
    return call_named(name, args, nargout);
  }
  Value run1(const std::string& name, std::vector<Value> args) { return run(name, args, 1).at(0); }

  Session s;
  std::ostringstream out, err;
  std::string last_eval;
};

inline Value str(const char* s) { return Value::from_chars(s); }
inline Value row(std::vector<double> v) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(v.size())));
  for (size_t i = 0; i < v.size(); ++i) t.set_double(static_cast<int64_t>(i), v[i]);
  return Value(t);
}
inline Value cellrow(std::vector<Value> v) {
  CellArray c(Dims(1, static_cast<int64_t>(v.size())));
  for (size_t i = 0; i < v.size(); ++i) c.at(static_cast<int64_t>(i)) = v[i];
  return Value(c);
}
/// Identifier of the MatlabError thrown by f, or "" when none.
template <class F>
std::string error_id(F&& f) {
  try {
    f();
  } catch (const MatlabError& e) {
    return e.identifier();
  }
  return "";
}

}  // namespace matfuse::testing
