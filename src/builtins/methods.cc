// The table of methods of C++ value classes (methods.h).
#include "builtins/methods.h"

#include <unordered_map>

namespace matfuse {

namespace {

struct Hash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

/// "class/name" -> method; filled while builtins() registers the families.
std::unordered_map<std::string, Builtin, Hash, std::equal_to<>>& table() {
  static std::unordered_map<std::string, Builtin, Hash, std::equal_to<>> t;
  return t;
}

ArgNameHook g_arg_name = nullptr;

}  // namespace

void add_class_method(std::string cls, std::string name, BuiltinFn fn) {
  Builtin b;
  b.name = name;
  b.fn = fn;
  auto [it, inserted] = table().try_emplace(cls + "/" + name, std::move(b));
  MF_ASSERT(inserted, "method '" + it->first + "' is registered twice");
}

const Builtin* find_class_method(std::string_view cls, std::string_view name) {
  (void)builtins();  // the families register their methods with the builtins
  const auto& t = table();
  if (t.empty()) return nullptr;
  std::string key;
  key.reserve(cls.size() + name.size() + 1);
  key.append(cls).append("/").append(name);
  auto it = t.find(key);
  return it == t.end() ? nullptr : &it->second;
}

const Builtin* dispatch_class_method(std::string_view name, Args args) {
  for (const Value& a : args)
    if (a.is_object())
      if (const Builtin* b = find_class_method(a.object()->dispatch_name(), name)) return b;
  return nullptr;
}

namespace {
std::unordered_map<std::string, bool, Hash, std::equal_to<>>& sparse_aware() {
  static std::unordered_map<std::string, bool, Hash, std::equal_to<>> t;
  return t;
}
}  // namespace

void add_sparse_aware(std::string name) { sparse_aware().emplace(std::move(name), true); }

bool is_sparse_aware(std::string_view name) {
  (void)builtins();  // the sparse family registers its names with the builtins
  const auto& t = sparse_aware();
  return t.find(name) != t.end();
}

std::string caller_arg_name(CallContext& ctx, size_t k, size_t nargs) {
  return g_arg_name ? g_arg_name(ctx, k, nargs) : std::string();
}

void set_arg_name_hook(ArgNameHook hook) { g_arg_name = hook; }

}  // namespace matfuse
