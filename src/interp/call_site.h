// The call expression whose builtin is running, for MATLAB's inputname-style argument names
// (caller_arg_name in builtins/methods.h): set around each builtin call made from source text.
#pragma once

namespace matfuse {

namespace ast {
struct IndexExpr;
}

/// The call site of the running builtin, or null (calls.cc).
const ast::IndexExpr*& current_call_site();

/// Sets the call site for its lifetime (restores the previous one).
struct CallSiteScope {
  const ast::IndexExpr* prev;
  explicit CallSiteScope(const ast::IndexExpr* s) : prev(current_call_site()) {
    current_call_site() = s;
  }
  ~CallSiteScope() { current_call_site() = prev; }
  CallSiteScope(const CallSiteScope&) = delete;
  CallSiteScope& operator=(const CallSiteScope&) = delete;
};

}  // namespace matfuse
