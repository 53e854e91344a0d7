// MException value objects (see mexception.h).
#include "runtime/mexception.h"

namespace matfuse {

namespace {

Value stack_struct(const std::vector<StackFrame>& frames) {
  StructArray st(Dims(static_cast<int64_t>(frames.size()), 1));
  int ff = st.add_field("file"), fn = st.add_field("name"), fl = st.add_field("line");
  for (size_t i = 0; i < frames.size(); ++i) {
    st.at(static_cast<int64_t>(i), ff) = Value::from_chars(frames[i].file);
    st.at(static_cast<int64_t>(i), fn) = Value::from_chars(frames[i].name);
    st.at(static_cast<int64_t>(i), fl) = Value(static_cast<double>(frames[i].line));
  }
  return Value(std::move(st));
}

std::string text_field(const StructArray& s, const char* name) {
  int f = s.field_index(name);
  if (f < 0 || s.numel() < 1) return "";
  const Value& v = s.get(0, f);
  return v.is_text() ? v.to_text() : "";
}

}  // namespace

bool MException::paren_read(std::span<const Value> idx, Value& out) const {
  // ME(1) and ME(1, 1) are the object itself (a 1x1 array).
  for (const Value& i : idx) {
    if (i.is_text() && i.to_text() == ":") continue;
    if (!(i.is_tensor() && i.numel() == 1 && !i.is_char() && i.to_double() == 1)) return false;
  }
  out = Value(std::const_pointer_cast<MException>(shared_from_this()));
  return true;
}

bool MException::get_property(std::string_view name, Value& out) const {
  if (name == "identifier") {
    out = Value::from_chars(err_.identifier());
  } else if (name == "message") {
    out = Value::from_chars(err_.message());
  } else if (name == "stack") {
    out = stack_struct(err_.stack());
  } else if (name == "cause") {
    // No causes: {} (0x0), as MATLAB displays it; else an Nx1 cell.
    CellArray c(err_.causes().empty() ? Dims(0, 0)
                                      : Dims(static_cast<int64_t>(err_.causes().size()), 1));
    for (size_t i = 0; i < err_.causes().size(); ++i)
      c.at(static_cast<int64_t>(i)) = make_mexception(err_.causes()[i]);
    out = Value(std::move(c));
  } else if (name == "Correction") {
    out = Value();
  } else {
    return false;
  }
  return true;
}

std::vector<std::string> MException::property_names() const {
  return {"identifier", "message", "cause", "stack", "Correction"};
}

std::string MException::report() const {
  std::string s;
  if (!err_.raised_by().empty()) s += "Error using " + err_.raised_by() + "\n";
  s += err_.message();
  bool first = true;
  for (const auto& f : err_.stack()) {
    if (f.file.empty()) continue;
    s += first ? "\n\n" : "\n";
    first = false;
    s += "Error in " + f.name + " (line " + std::to_string(f.line) + ")";
  }
  if (!err_.causes().empty()) {
    s += "\n\nCaused by:";
    for (const auto& c : err_.causes()) {
      std::string r = MException(c).report();
      s += "\n    ";
      for (char ch : r) {
        s += ch;
        if (ch == '\n') s += "    ";
      }
    }
  }
  return s;
}

Value make_mexception(MatlabError e) {
  return Value(std::static_pointer_cast<Object>(std::make_shared<MException>(std::move(e))));
}

const MException* as_mexception(const Value& v) {
  return v.is_object() ? dynamic_cast<const MException*>(v.object().get()) : nullptr;
}

MatlabError error_from_value(const Value& v) {
  if (const MException* m = as_mexception(v)) return m->error();
  if (!v.is_struct() || v.numel() != 1)
    throw_error("MATLAB:rethrow:InvalidInput", "Input must be a structure or MException object.");
  const StructArray& s = v.struct_array();
  MatlabError err(text_field(s, "identifier"), text_field(s, "message"));
  int f = s.field_index("stack");
  if (f >= 0 && s.get(0, f).is_struct()) {
    const StructArray& st = s.get(0, f).struct_array();
    int kf = st.field_index("file"), kn = st.field_index("name"), kl = st.field_index("line");
    for (int64_t e = 0; e < st.numel(); ++e) {
      StackFrame fr;
      if (kf >= 0 && st.get(e, kf).is_text()) fr.file = st.get(e, kf).to_text();
      if (kn >= 0 && st.get(e, kn).is_text()) fr.name = st.get(e, kn).to_text();
      if (kl >= 0 && st.get(e, kl).is_tensor() && st.get(e, kl).numel() == 1)
        fr.line = static_cast<int>(st.get(e, kl).to_double());
      err.stack().push_back(fr);
    }
  }
  return err;
}

}  // namespace matfuse
