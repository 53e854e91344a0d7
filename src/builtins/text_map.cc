// containers.Map: a key-value handle object (reference semantics), and its functions keys,
// values, isKey, remove. Indexing m(key), m(key) = v and the properties Count, KeyType,
// ValueType go through IndexableObject (runtime/object_index.h).
//
// Keys are either text ('char' KeyType; char rows or string scalars) or real numeric scalars
// ('double', 'single', 'int32', 'uint32', 'int64', 'uint64'); keys(m) lists them sorted (text in
// code-unit order, numbers ascending). size(m) is Count x 1, so length(m) is Count and
// isempty(m) is true for an empty map, as in MATLAB.
#include <map>
#include <variant>

#include "builtins/format.h"
#include "builtins/text_util.h"
#include "runtime/object_index.h"

namespace matfuse {

namespace {

[[noreturn]] void no_key(const std::string& shown) {
  if (shown.empty())
    throw_error("MATLAB:Containers:Map:NoKey", "The specified key is not present in this container.");
  throw_error("MATLAB:Containers:Map:NoKey", "The specified key '%s' is not present in this container.",
              shown.c_str());
}
[[noreturn]] void key_type_mismatch() {
  throw_error("MATLAB:Containers:TypeMismatch",
              "Specified key type does not match the type expected for this container.");
}

bool is_numeric_key_type(const std::string& t) {
  return t == "double" || t == "single" || t == "int32" || t == "uint32" || t == "int64" ||
         t == "uint64";
}

class MapObject : public IndexableObject {
public:
  MapObject(std::string key_type, std::string value_type)
      : key_type_(std::move(key_type)), value_type_(std::move(value_type)) {}

  std::string class_name() const override { return "containers.Map"; }
  Dims dims() const override { return Dims(count(), 1); }

  int64_t count() const {
    return static_cast<int64_t>(numeric() ? num_.size() : text_.size());
  }
  bool numeric() const { return key_type_ != "char"; }
  const std::string& key_type() const { return key_type_; }
  const std::string& value_type() const { return value_type_; }

  /// Checks a key value against KeyType; returns it as text or number.
  std::variant<std::string, double> key_of(const Value& k) const {
    if (!numeric()) {
      if (!k.is_text()) key_type_mismatch();
      return k.to_text();
    }
    if (!k.is_tensor() || k.is_char() || k.numel() != 1) key_type_mismatch();
    Tensor t = k.tensor();
    if (t.is_complex()) key_type_mismatch();
    return t.get_double(0);
  }
  bool has(const Value& k) const {
    auto key = key_of(k);
    if (numeric()) return num_.count(std::get<double>(key)) > 0;
    return text_.count(std::get<std::string>(key)) > 0;
  }
  const Value& get(const Value& k) const {
    auto key = key_of(k);
    if (numeric()) {
      auto it = num_.find(std::get<double>(key));
      if (it == num_.end()) no_key("");
      return it->second;
    }
    auto it = text_.find(std::get<std::string>(key));
    if (it == text_.end()) no_key(std::get<std::string>(key));
    return it->second;
  }
  void set(const Value& k, const Value& v) {
    Value stored = checked_value(v);
    auto key = key_of(k);
    if (numeric()) num_[std::get<double>(key)] = std::move(stored);
    else text_[std::get<std::string>(key)] = std::move(stored);
  }
  void erase(const Value& k) {
    auto key = key_of(k);
    if (numeric()) {
      if (!num_.erase(std::get<double>(key))) no_key("");
    } else if (!text_.erase(std::get<std::string>(key))) {
      no_key(std::get<std::string>(key));
    }
  }
  /// Keys in sorted order as Values of the key class.
  std::vector<Value> key_values() const {
    std::vector<Value> out;
    if (numeric()) {
      const ClassId c = class_from_name(key_type_).value_or(ClassId::Double);
      for (const auto& [k, v] : num_) out.push_back(Value(Tensor::scalar(k, c)));
    } else {
      for (const auto& [k, v] : text_) out.push_back(char_row(k));
    }
    return out;
  }
  std::vector<Value> value_list() const {
    std::vector<Value> out;
    if (numeric())
      for (const auto& [k, v] : num_) out.push_back(v);
    else
      for (const auto& [k, v] : text_) out.push_back(v);
    return out;
  }

  bool paren_read(std::span<const Value> idx, Value& out) const override {
    if (idx.size() != 1)
      throw_error("MATLAB:Containers:Map:OnlyOneKey", "Only one level of indexing is supported by a containers.Map.");
    out = get(idx[0]);
    return true;
  }
  bool paren_assign(std::span<const Value> idx, const Value& rhs) override {
    if (idx.size() != 1)
      throw_error("MATLAB:Containers:Map:OnlyOneKey", "Only one level of indexing is supported by a containers.Map.");
    set(idx[0], rhs);
    return true;
  }
  bool get_property(std::string_view name, Value& out) const override;

private:
  /// Enforces a ValueType other than 'any': numeric/logical types need a scalar of that kind
  /// (converted to the class), 'char' needs a char row.
  Value checked_value(const Value& v) const {
    if (value_type_ == "any") return v;
    if (value_type_ == "char") {
      if (!v.is_char() || v.dims().rows() > 1)
        throw_error("MATLAB:Containers:Map:ValueTypeMismatch",
                    "Specified value type does not match the type expected for this container.");
      return v;
    }
    if (!v.is_tensor() || v.is_char() || v.numel() != 1)
      throw_error("MATLAB:Containers:Map:ValueTypeMismatch",
                  "Specified value type does not match the type expected for this container.");
    auto c = class_from_name(value_type_);
    return c ? Value(v.tensor().to_class(*c)) : v;
  }

  std::string key_type_, value_type_;
  std::map<std::string, Value> text_;
  std::map<double, Value> num_;
};

Value cell_row(const std::vector<Value>& v) {
  CellArray c(Dims(1, static_cast<int64_t>(v.size())));
  for (size_t i = 0; i < v.size(); ++i) c.at(static_cast<int64_t>(i)) = v[i];
  return Value(std::move(c));
}

bool MapObject::get_property(std::string_view name, Value& out) const {
  if (name == "Count") {  // uint64, as in MATLAB
    Tensor t = Tensor::zeros(ClassId::UInt64, Dims(1, 1));
    t.set_double(0, static_cast<double>(count()));
    out = Value(t);
  } else if (name == "KeyType") out = char_row(key_type_);
  else if (name == "ValueType") out = char_row(value_type_);
  else if (name == "keys") out = cell_row(key_values());
  else if (name == "values") out = cell_row(value_list());
  else
    throw_error("MATLAB:noSuchMethodOrField",
                "Unrecognized method, property, or field '%.*s' for class 'containers.Map'.",
                static_cast<int>(name.size()), name.data());
  return true;
}

MapObject& map_arg(const Value& v, const char* fname) {
  auto* m = v.is_object() ? dynamic_cast<MapObject*>(v.object().get()) : nullptr;
  if (!m)
    throw_error("MATLAB:UndefinedFunction", "Undefined function '%s' for input arguments of type '%s'.",
                fname, v.class_name().c_str());
  return *m;
}

/// The keys of a key argument: a cell array gives its elements, a numeric array its elements,
/// a text a single key.
std::vector<Value> key_list(const Value& k, bool* is_cell = nullptr) {
  std::vector<Value> out;
  if (is_cell) *is_cell = k.is_cell();
  if (k.is_cell()) return k.cell().elems();
  if (k.is_string() && k.numel() != 1) {
    for (const auto& s : k.string_array().elems()) out.push_back(Value::from_string(s.value_or("")));
    return out;
  }
  if (k.is_tensor() && !k.is_char() && k.numel() != 1) {
    Tensor t = k.tensor();
    for (int64_t i = 0; i < t.numel(); ++i) out.push_back(Value(Tensor::scalar(t.get_double(i), t.cls())));
    return out;
  }
  out.push_back(k);
  return out;
}

/// The KeyType a key value implies ('char' for text, the class for numeric keys).
std::string key_type_of(const Value& k) {
  if (k.is_text() || k.is_char()) return "char";
  if (k.is_tensor() && !k.is_char()) {
    std::string c(class_name(k.cls()));
    return is_numeric_key_type(c) ? c : "double";
  }
  throw_error("MATLAB:Containers:Map:InvalidKeyType",
              "Specified key type does not match the type expected for this container.");
}

/// The ValueType inferred from values with UniformValues: a common numeric/logical scalar
/// class, 'char' for char rows, else 'any'.
std::string infer_value_type(const std::vector<Value>& vals) {
  if (vals.empty()) return "any";
  std::string t;
  for (const Value& v : vals) {
    std::string c;
    if (v.is_char() && v.dims().rows() <= 1) c = "char";
    else if (v.is_tensor() && v.numel() == 1 && !v.tensor().is_complex()) c = std::string(class_name(v.cls()));
    else return "any";
    if (!t.empty() && c != t) return "any";
    t = c;
  }
  return t;
}

/// M = containers.Map(), containers.Map(keySet, valueSet, ['UniformValues', tf]),
/// containers.Map('KeyType', kt, 'ValueType', vt). keySet: one key or a cell/numeric array
/// of keys; valueSet: one value for one key, else a cell (or array) with one value per key.
/// Errors: MATLAB:Containers:Map:KeyValueNumberMismatch for count mismatches,
/// MATLAB:Containers:Map:InvalidKeyType / InvalidValueType for unsupported types.
Outputs bi_containers_Map(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  auto is_opt = [&](size_t k, const char* name) {
    return k < args.size() && args[k].is_text() &&
           text_detail::lower(args[k].to_text()) == text_detail::lower(name);
  };
  std::string kt = "char", vt = "any";
  bool uniform = true, kt_given = false, vt_given = false;
  size_t k = 0;
  const bool name_value_only = is_opt(0, "KeyType") || is_opt(0, "ValueType") ||
                               is_opt(0, "UniformValues");
  if (!name_value_only && args.size() >= 2) k = 2;
  else if (!name_value_only && args.size() == 1)
    throw_error("MATLAB:Containers:Map:NeedValues", "The number of keys and values must be the same.");
  for (; k < args.size(); k += 2) {
    if (k + 1 >= args.size())
      throw_error("MATLAB:Containers:Map:InvalidParameter", "Parameter value is missing.");
    std::string name = text_detail::lower(text_arg(args[k], "containers.Map", static_cast<int>(k) + 1));
    if (name == "keytype") {
      kt = text_detail::lower(text_arg(args[k + 1], "containers.Map", static_cast<int>(k) + 2));
      if (kt != "char" && !is_numeric_key_type(kt))
        throw_error("MATLAB:Containers:Map:InvalidKeyType",
                    "Specified key type is not valid. Valid key types are 'char', 'double', "
                    "'single', 'int32', 'uint32', 'int64', 'uint64'.");
      kt_given = true;
    } else if (name == "valuetype") {
      vt = text_detail::lower(text_arg(args[k + 1], "containers.Map", static_cast<int>(k) + 2));
      if (vt != "any" && vt != "char" && vt != "logical" && !class_from_name(vt))
        throw_error("MATLAB:Containers:Map:InvalidValueType",
                    "Specified value type is not valid.");
      vt_given = true;
    } else if (name == "uniformvalues") {
      uniform = args[k + 1].truthy();
    } else {
      throw_error("MATLAB:Containers:Map:InvalidParameter", "Invalid parameter name '%s'.",
                  name.c_str());
    }
  }
  if (name_value_only || args.empty())
    return {Value(std::shared_ptr<Object>(std::make_shared<MapObject>(kt, vt)))};
  std::vector<Value> keys = key_list(args[0]);
  std::vector<Value> vals;
  if (keys.size() == 1 && !args[1].is_cell()) vals.push_back(args[1]);
  else if (args[1].is_cell()) vals = args[1].cell().elems();
  else vals = key_list(args[1]);
  if (keys.size() != vals.size())
    throw_error("MATLAB:Containers:Map:KeyValueNumberMismatch",
                "The number of keys and values must be the same.");
  if (!kt_given && !keys.empty()) kt = key_type_of(keys[0]);
  if (!vt_given) vt = uniform ? infer_value_type(vals) : "any";
  auto m = std::make_shared<MapObject>(kt, vt);
  for (size_t i = 0; i < keys.size(); ++i) m->set(keys[i], vals[i]);
  return {Value(std::shared_ptr<Object>(m))};
}

/// keySet = keys(M): 1xN cell of the keys in sorted order.
Outputs bi_keys(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 1);
  return {cell_row(map_arg(args[0], "keys").key_values())};
}

/// valueSet = values(M) (1xN cell in key order) or values(M, keySet) (cell shaped like the
/// keySet cell). Missing keys raise MATLAB:Containers:Map:NoKey.
Outputs bi_values(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 2);
  check_nargout(nargout, 1);
  MapObject& m = map_arg(args[0], "values");
  if (args.size() == 1) return {cell_row(m.value_list())};
  if (!args[1].is_cell())
    throw_error("MATLAB:Containers:Map:InvalidKeysArgument",
                "Specified keys must be in a cell array.");
  const CellArray& ks = args[1].cell();
  CellArray out(ks.dims());
  for (int64_t i = 0; i < ks.numel(); ++i) out.at(i) = m.get(ks[i]);
  return {Value(std::move(out))};
}

/// tf = isKey(M, keySet): logical scalar for one key, logical array shaped like a cell keySet.
Outputs bi_isKey(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  MapObject& m = map_arg(args[0], "isKey");
  auto test = [&](const Value& k) {
    try {
      return m.has(k);
    } catch (const MatlabError&) {
      return false;  // a key of the wrong type is simply not present
    }
  };
  if (!args[1].is_cell()) return {Value::logical(test(args[1]))};
  const CellArray& ks = args[1].cell();
  Tensor t = Tensor::zeros(ClassId::Logical, ks.dims());
  for (int64_t i = 0; i < ks.numel(); ++i) t.mutable_data<bool>()[i] = test(ks[i]);
  return {Value(std::move(t))};
}

/// M = remove(M, keySet): deletes one key or a cell of keys (all must exist); returns the map.
Outputs bi_remove(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  MapObject& m = map_arg(args[0], "remove");
  std::vector<Value> keys = key_list(args[1]);
  for (const Value& k : keys)
    if (!m.has(k)) m.get(k);  // raises NoKey before anything is removed
  for (const Value& k : keys) m.erase(k);
  if (nargout == 0) return {};
  return {args[0]};
}

}  // namespace

void register_text_map(Registry& r) {
  r.add("containers.Map", bi_containers_Map);
  r.add("keys", bi_keys);
  r.add("values", bi_values);
  r.add("isKey", bi_isKey);
  r.add("remove", bi_remove);
}

}  // namespace matfuse
