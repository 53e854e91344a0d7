// Builtins of the "errors" family: MException and its methods (throw, rethrow through the
// interpreter's rethrow, throwAsCaller, addCause, getReport). See runtime/mexception.h.
#include <string>

#include "builtins/argparse.h"
#include "builtins/format.h"
#include "builtins/registry.h"
#include "runtime/mexception.h"

namespace matfuse {

namespace {

const MException& mexception_arg(const Value& v, const char* fname) {
  const MException* m = as_mexception(v);
  if (!m)
    throw_error("MATLAB:UndefinedFunction",
                "Undefined function '%s' for input arguments of type '%s'.", fname,
                v.class_name().c_str());
  return *m;
}

/// ME = MException(errID, msg) | MException(errID, fmt, A...): msg is always a format (sprintf
/// rules). errID is '' or a message identifier ("component:mnemonic").
Outputs bi_MException(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, SIZE_MAX);
  check_nargout(nargout, 1);
  if (!args[0].is_text() || !args[1].is_text())
    throw_error("MATLAB:MException:MustBeText",
                "The identifier and message of an MException must be character vectors or "
                "string scalars.");
  std::string id = args[0].to_text();
  if (!id.empty() && !is_message_identifier(id))
    throw_error("MATLAB:MException:InvalidID",
                "The value of the identifier, '%s', is invalid. It must be of the form "
                "'component:mnemonic'.",
                id.c_str());
  const std::string msg = format_printf(args[1].to_text(), args.subspan(2), "MException");
  return {make_mexception(MatlabError(id, msg))};
}

/// throw(ME): raises ME with the stack of the place it is thrown from.
Outputs bi_throw(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, 1);
  check_nargout(nargout, 0);
  const MException& m = mexception_arg(args[0], "throw");
  MatlabError e(m.error().identifier(), m.error().message());
  e.causes() = m.error().causes();
  throw e;
}

/// ME2 = addCause(ME, causeException): ME with causeException appended to its cause list.
Outputs bi_addCause(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  const MException& m = mexception_arg(args[0], "addCause");
  const MException& c = mexception_arg(args[1], "addCause");
  MatlabError e = m.error();
  e.causes().push_back(c.error());
  return {make_mexception(std::move(e))};
}

/// report = getReport(ME) | getReport(ME, 'basic'|'extended', ...): the text MATLAB prints for
/// the error; 'basic' gives the message part only.
Outputs bi_getReport(CallContext&, Args args, int nargout) {
  check_nargin(args, 1, SIZE_MAX);
  check_nargout(nargout, 1);
  const MException& m = mexception_arg(args[0], "getReport");
  if (args.size() >= 2 && args[1].is_text() && args[1].to_text() == "basic") {
    std::string s;
    if (!m.error().raised_by().empty()) s = "Error using " + m.error().raised_by() + "\n";
    return {Value::from_chars(s + m.error().message())};
  }
  return {Value::from_chars(m.report())};
}

}  // namespace

void register_errors(Registry& r) {
  r.add("MException", bi_MException);
  r.add("throw", bi_throw);
  r.add("throwAsCaller", bi_throw);
  r.add("addCause", bi_addCause);
  r.add("getReport", bi_getReport);
}

}  // namespace matfuse
