#include "builtins/methods.h"

#include <map>

namespace matfuse {

namespace {

std::map<std::string, Builtin, std::less<>>& method_table() {
  static std::map<std::string, Builtin, std::less<>> t;
  return t;
}

ArgNameHook g_arg_name = nullptr;

}  // namespace

void add_builtin_method(std::string_view cls, std::string_view name, BuiltinFn fn) {
  Builtin b;
  b.name = std::string(name);
  b.fn = fn;
  std::string key = std::string(cls) + "/" + std::string(name);
  auto [it, inserted] = method_table().try_emplace(key, std::move(b));
  MF_ASSERT(inserted, "method '" + it->first + "' is registered twice");
}

const Builtin* find_builtin_method(std::string_view cls, std::string_view name) {
  (void)builtins();  // the families register their methods with the builtin table
  const auto& t = method_table();
  if (t.empty()) return nullptr;
  auto it = t.find(std::string(cls) + "/" + std::string(name));
  return it == t.end() ? nullptr : &it->second;
}

std::string caller_arg_name(CallContext& ctx, size_t k, size_t nargs) {
  return g_arg_name ? g_arg_name(ctx, k, nargs) : std::string();
}

void set_arg_name_hook(ArgNameHook hook) { g_arg_name = hook; }

}  // namespace matfuse
