// Builtins subsref, subsasgn and substruct: indexing by a subscript struct (MATLAB's
// functional forms of A(i), A{i}, A.f and their assignments), on the interpreter's own indexing
// (index_paren, index_brace, get_field, assign_paren, assign_brace, set_field).
#include <string>
#include <vector>

#include "builtins/registry.h"
#include "interp/indexing.h"
#include "runtime/error.h"

namespace matfuse {

namespace {

struct Level {
  enum Kind { Paren, Brace, Dot } kind;
  std::vector<Value> subs;  ///< Paren/Brace
  std::string field;        ///< Dot
};

/// The levels of subscript struct S (fields type and subs, one element a level).
std::vector<Level> levels(const Value& S, const char* fname) {
  if (!S.is_struct())
    throw_error("MATLAB:subsArgNotStruc", "Second argument must be a structure with fields "
                "'type' and 'subs'.");
  const StructArray& sa = S.struct_array();
  int ft = sa.field_index("type"), fs = sa.field_index("subs");
  if (ft < 0 || fs < 0)
    throw_error("MATLAB:subsMissingTypeOrSubs", "Second argument must be a structure with "
                "fields 'type' and 'subs'.");
  std::vector<Level> out;
  for (int64_t i = 0; i < sa.numel(); ++i) {
    const Value& t = sa.get(i, ft);
    const Value& s = sa.get(i, fs);
    std::string type = t.is_text() ? t.to_text() : std::string();
    Level l{Level::Paren, {}, {}};
    if (type == "()" || type == "{}") {
      l.kind = type == "()" ? Level::Paren : Level::Brace;
      if (s.is_cell()) {
        const CellArray& c = s.cell();
        for (int64_t k = 0; k < c.numel(); ++k) l.subs.push_back(c[k]);
      } else if (s.is_char() && s.to_text() == ":") {
        l.subs.push_back(s);
      } else {
        throw_error("MATLAB:subsSubsNotCell", "Subscripts of type '%s' must be a cell array.",
                    type.c_str());
      }
    } else if (type == ".") {
      l.kind = Level::Dot;
      if (!s.is_text())
        throw_error("MATLAB:subsSubsNotString", "Subscript of type '.' must be a character "
                    "vector or string scalar.");
      l.field = s.to_text();
    } else {
      throw_error("MATLAB:subsTypeMustBeSquigglyOrSmooth",
                  "Subscript type must be '()', '{}', or '.'. (%s)", fname);
    }
    out.push_back(std::move(l));
  }
  if (out.empty())
    throw_error("MATLAB:subsArgNotStruc", "Second argument must be a nonempty structure with "
                "fields 'type' and 'subs'.");
  return out;
}

Value read_level(const Value& base, const Level& l) {
  switch (l.kind) {
    case Level::Paren: return index_paren(base, l.subs);
    case Level::Brace: {
      std::vector<Value> r = index_brace(base, l.subs);
      if (r.empty())
        throw_error("MATLAB:index:expected_one_output_from_expression",
                    "Brace indexing produced no results.");
      return r[0];
    }
    case Level::Dot: {
      std::vector<Value> r = get_field(base, l.field);
      if (r.empty())
        throw_error("MATLAB:index:expected_one_output_from_expression",
                    "Dot indexing produced no results.");
      return r[0];
    }
  }
  return Value();
}

/// B = subsref(A, S): A indexed by the levels of S in turn (S = substruct(...) or a struct array
/// with fields type ('()', '{}', '.') and subs (a cell of subscripts or a field name)).
Outputs bi_subsref(CallContext&, Args args, int nargout) {
  check_nargin(args, 2, 2);
  check_nargout(nargout, 1);
  Value v = args[0];
  for (const Level& l : levels(args[1], "subsref")) v = read_level(v, l);
  return {v};
}

void assign_levels(Value& base, bool defined, const std::vector<Level>& ls, size_t k,
                   const Value& rhs) {
  const Level& l = ls[k];
  if (k + 1 == ls.size()) {
    switch (l.kind) {
      case Level::Paren: assign_paren(base, defined, l.subs, rhs); return;
      case Level::Brace: assign_brace(base, defined, l.subs, rhs); return;
      case Level::Dot: set_field(base, defined, l.field, rhs); return;
    }
  }
  // Read the inner part (or start it empty), assign into it, write it back.
  Value inner;
  bool inner_defined = false;
  if (defined) {
    try {
      inner = read_level(base, l);
      inner_defined = true;
    } catch (const MatlabError&) {
      inner_defined = false;
    }
  }
  assign_levels(inner, inner_defined, ls, k + 1, rhs);
  switch (l.kind) {
    case Level::Paren: assign_paren(base, defined, l.subs, inner); return;
    case Level::Brace: assign_brace(base, defined, l.subs, inner); return;
    case Level::Dot: set_field(base, defined, l.field, inner); return;
  }
}

/// A = subsasgn(A, S, B): A with the part that S selects set to B (A(i) = B, A{i} = B,
/// A.f = B and chains of them), growing A as indexed assignment does.
Outputs bi_subsasgn(CallContext&, Args args, int nargout) {
  check_nargin(args, 3, 3);
  check_nargout(nargout, 1);
  Value a = args[0];
  assign_levels(a, true, levels(args[1], "subsasgn"), 0, args[2]);
  return {a};
}

/// S = substruct(type1, subs1, type2, subs2, ...): the 1xN subscript struct (fields type, subs)
/// for subsref/subsasgn. Errors: MATLAB:substruct:nargin for an odd count,
/// MATLAB:substruct:BadType, MATLAB:substruct:DotSubsNotString, MATLAB:substruct:BadSubs.
Outputs bi_substruct(CallContext&, Args args, int nargout) {
  check_nargout(nargout, 1);
  if (args.size() < 2 || args.size() % 2)
    throw_error("MATLAB:substruct:nargin", "Number of input arguments must be a positive even "
                "number.");
  int64_t n = static_cast<int64_t>(args.size() / 2);
  StructArray s(Dims(1, n));
  int ft = s.add_field("type"), fs = s.add_field("subs");
  for (int64_t i = 0; i < n; ++i) {
    const Value& t = args[2 * i];
    const Value& v = args[2 * i + 1];
    std::string type = t.is_text() ? t.to_text() : std::string();
    if (type != "()" && type != "{}" && type != ".")
      throw_error("MATLAB:substruct:BadType", "TYPE must be one of '()', '{}', or '.'.");
    if (type == "." && !v.is_text())
      throw_error("MATLAB:substruct:DotSubsNotString", "SUBS must be a character vector or "
                  "string scalar for '.' TYPE.");
    if (type != "." && !v.is_cell() && !(v.is_char() && v.to_text() == ":"))
      throw_error("MATLAB:substruct:BadSubs", "SUBS must be a cell array or ':' for '()' or "
                  "'{}' TYPE.");
    s.at(i, ft) = Value::from_chars(type);
    s.at(i, fs) = v;
  }
  return {Value(std::move(s))};
}

}  // namespace

void register_subs_builtins(Registry& r) {
  r.add("subsref", bi_subsref);
  r.add("subsasgn", bi_subsasgn);
  r.add("substruct", bi_substruct);
}

}  // namespace matfuse
