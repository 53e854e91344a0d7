// regexp, regexpi, regexprep through PCRE2 (MATFUSE_HAVE_PCRE2).
//
// MATLAB regular expressions are translated to PCRE2 where they differ:
//   \< and \> (word start / end)      -> \b(?=\w) and \b(?<=\w)
//   '.' matches newline by default    -> PCRE2_DOTALL unless 'dotexceptnewline'
//   '$' matches only at the very end  -> PCRE2_DOLLAR_ENDONLY unless 'lineanchors'
//   named tokens (?<name>...)         -> identical in PCRE2
// Replacement text of regexprep: $0 is the whole match, $N the N-th token, ${N} too, and the
// escapes \n \t \\ \$ ... are decoded (decode_escapes).
// Matches are found left to right without overlap; zero-length matches are skipped unless
// 'emptymatch' is given (MATLAB's default 'noemptymatch').
// Character positions (start, end, tokenExtents) are 1-based MATLAB character indices.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

#include "builtins/format.h"
#include "builtins/text_util.h"

#if MATFUSE_HAVE_PCRE2
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif

namespace matfuse {

namespace {

using text_detail::TextItems;

[[maybe_unused]] [[noreturn]] void not_available(const char* fname) {
  throw_error("matfuse:notAvailable",
              "%s requires PCRE2, which this build of matfuse does not include.", fname);
}

#if MATFUSE_HAVE_PCRE2

struct RegexOpts {
  bool once = false;
  bool icase = false;
  bool emptymatch = false;
  bool lineanchors = false;
  bool dotall = true;
  bool freespacing = false;
  int64_t nth = 0;  ///< regexprep: replace only the nth match (0: all)
  bool preservecase = false;  ///< regexprep: replacement takes the matched text's case
};

/// MATLAB pattern -> PCRE2 pattern (see the file comment).
std::string translate_pattern(const std::string& p) {
  std::string out;
  out.reserve(p.size() + 8);
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      char n = p[i + 1];
      if (!in_class && n == '<') out += "\\b(?=\\w)";
      else if (!in_class && n == '>') out += "\\b(?<=\\w)";
      else { out += c; out += n; }
      ++i;
      continue;
    }
    if (c == '[' && !in_class) {
      in_class = true;
      out += c;
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];
      continue;
    }
    if (c == ']' && in_class) in_class = false;
    out += c;
  }
  return out;
}

struct CodeDeleter {
  void operator()(pcre2_code* c) const { pcre2_code_free(c); }
};
struct MatchDataDeleter {
  void operator()(pcre2_match_data* m) const { pcre2_match_data_free(m); }
};

/// A compiled pattern with its group count and group names (index = group number).
struct Regex {
  std::unique_ptr<pcre2_code, CodeDeleter> code;
  uint32_t ngroups = 0;
  std::vector<std::string> group_names;  ///< size ngroups + 1; "" for unnamed groups
  std::vector<int> named_groups;         ///< group numbers of named groups, in order
};

Regex compile(const std::string& pattern, const RegexOpts& o, const char* fname) {
  uint32_t flags = PCRE2_UTF;
  if (o.icase) flags |= PCRE2_CASELESS;
  if (o.dotall) flags |= PCRE2_DOTALL;
  if (o.lineanchors) flags |= PCRE2_MULTILINE;
  else flags |= PCRE2_DOLLAR_ENDONLY;
  if (o.freespacing) flags |= PCRE2_EXTENDED;
  std::string pat = translate_pattern(pattern);
  int err = 0;
  PCRE2_SIZE erroff = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pat.data()), pat.size(), flags,
                                   &err, &erroff, nullptr);
  if (!code) {
    PCRE2_UCHAR buf[256];
    pcre2_get_error_message(err, buf, sizeof buf);
    std::string id = std::string("MATLAB:") + fname + ":InvalidPattern";
    throw_error(id.c_str(), "Invalid regular expression '%s': %s at position %zu.",
                pattern.c_str(), reinterpret_cast<const char*>(buf), static_cast<size_t>(erroff));
  }
  Regex r;
  r.code.reset(code);
  pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &r.ngroups);
  r.group_names.assign(r.ngroups + 1, "");
  uint32_t count = 0, entry = 0;
  PCRE2_SPTR table = nullptr;
  pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &count);
  pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &entry);
  pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &table);
  for (uint32_t k = 0; k < count; ++k) {
    const PCRE2_SPTR e = table + static_cast<size_t>(k) * entry;
    int num = (e[0] << 8) | e[1];
    r.group_names[num] = reinterpret_cast<const char*>(e + 2);
    r.named_groups.push_back(num);
  }
  std::sort(r.named_groups.begin(), r.named_groups.end());
  return r;
}

/// One match: byte ranges of the whole match and of each group (-1 when unset).
struct Match {
  size_t s = 0, e = 0;
  std::vector<std::pair<int64_t, int64_t>> groups;
};

std::vector<Match> find_matches(const Regex& re, const std::string& subj, bool once,
                                bool emptymatch) {
  std::vector<Match> out;
  std::unique_ptr<pcre2_match_data, MatchDataDeleter> md(
      pcre2_match_data_create_from_pattern(re.code.get(), nullptr));
  const auto* sp = reinterpret_cast<PCRE2_SPTR>(subj.data());
  size_t off = 0;
  uint32_t extra = 0;
  while (off <= subj.size()) {
    uint32_t f = extra | (emptymatch ? 0 : PCRE2_NOTEMPTY);
    int rc = pcre2_match(re.code.get(), sp, subj.size(), off, f, md.get(), nullptr);
    if (rc == PCRE2_ERROR_NOMATCH) {
      if (extra == 0) break;
      // An empty match was found here before: step one character and retry.
      extra = 0;
      ++off;
      while (off < subj.size() && (static_cast<unsigned char>(subj[off]) & 0xC0) == 0x80) ++off;
      continue;
    }
    if (rc < 0) {
      PCRE2_UCHAR buf[256];
      pcre2_get_error_message(rc, buf, sizeof buf);
      throw_error("MATLAB:regexp:matchError", "Regular expression matching failed: %s.",
                  reinterpret_cast<const char*>(buf));
    }
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md.get());
    Match m;
    m.s = ov[0];
    m.e = ov[1];
    for (uint32_t g = 1; g <= re.ngroups; ++g) {
      if (static_cast<int>(g) < rc && ov[2 * g] != PCRE2_UNSET)
        m.groups.emplace_back(static_cast<int64_t>(ov[2 * g]), static_cast<int64_t>(ov[2 * g + 1]));
      else
        m.groups.emplace_back(-1, -1);
    }
    out.push_back(std::move(m));
    if (once) break;
    off = ov[1];
    extra = ov[0] == ov[1] ? (PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED) : 0;
  }
  return out;
}

/// Parses trailing option arguments of regexp/regexprep. Output keywords (regexp only) are
/// appended to `order`.
RegexOpts parse_options(Args args, size_t from, const char* fname, bool is_rep,
                        std::vector<std::string>* order, RegexOpts o = {}) {
  for (size_t k = from; k < args.size(); ++k) {
    if (is_rep && args[k].is_tensor() && !args[k].is_char()) {
      // A positive integer; past int64 (Inf) it names no match (the cast would be undefined).
      const double n = args[k].to_double("occurrence");
      if (!(n >= 1) || n != std::floor(n))
        throw_error("MATLAB:regexprep:invalidOccurrence",
                    "The occurrence to replace must be a positive integer.");  // unverified
      o.nth = n < 9.2e18 ? static_cast<int64_t>(n) : INT64_MAX;
      continue;
    }
    std::string s = text_detail::lower(text_arg(args[k], fname, static_cast<int>(k) + 1));
    if (s == "once") o.once = true;
    else if (s == "ignorecase") o.icase = true;
    else if (s == "matchcase") o.icase = false;
    else if (s == "emptymatch") o.emptymatch = true;
    else if (s == "noemptymatch") o.emptymatch = false;
    else if (s == "lineanchors") o.lineanchors = true;
    else if (s == "stringanchors") o.lineanchors = false;
    else if (s == "dotall") o.dotall = true;
    else if (s == "dotexceptnewline") o.dotall = false;
    else if (s == "freespacing") o.freespacing = true;
    else if (s == "literalspacing") o.freespacing = false;
    else if (s == "preservecase") {
      o.preservecase = true;
      o.icase = true;  // matching ignores case
    } else if (s == "warnings") {
    } else if (!is_rep && order &&
               (s == "start" || s == "end" || s == "tokenextents" || s == "match" ||
                s == "tokens" || s == "names" || s == "split")) {
      if (std::find(order->begin(), order->end(), s) == order->end()) order->push_back(s);
    } else {
      std::string id = std::string("MATLAB:") + fname + ":InvalidOption";
      throw_error(id.c_str(), "Invalid option '%s'.",
                  text_arg(args[k], fname, static_cast<int>(k) + 1).c_str());
    }
  }
  return o;
}

/// Text result: char row, or string scalar for string inputs.
Value text_val(const std::string& s, bool as_string) {
  return as_string ? Value::from_string(s) : char_row(s);
}

/// A 1xN row of texts: cell of char rows, or a string array.
Value text_row(const std::vector<std::string>& v, bool as_string) {
  const auto n = static_cast<int64_t>(v.size());
  if (as_string) {
    StringArray a(Dims(1, n));
    for (int64_t i = 0; i < n; ++i) a.at(i) = v[static_cast<size_t>(i)];
    return Value(std::move(a));
  }
  CellArray c(Dims(1, n));
  for (int64_t i = 0; i < n; ++i) c.at(i) = char_row(v[static_cast<size_t>(i)]);
  return Value(std::move(c));
}

Value double_row(const std::vector<double>& v) {
  Tensor t = Tensor::uninit(ClassId::Double, Dims(1, static_cast<int64_t>(v.size())));
  for (size_t i = 0; i < v.size(); ++i) t.set_double(static_cast<int64_t>(i), v[i]);
  return Value(std::move(t));
}

/// All regexp outputs of one subject, by keyword.
struct RegexpResult {
  Value start, end, extents, match, tokens, names, split;
  const Value& get(const std::string& k) const {
    if (k == "start") return start;
    if (k == "end") return end;
    if (k == "tokenextents") return extents;
    if (k == "match") return match;
    if (k == "tokens") return tokens;
    if (k == "names") return names;
    return split;
  }
};

RegexpResult regexp_one(const Regex& re, const std::string& subj, const RegexOpts& o,
                        bool as_string) {
  const std::vector<Match> ms = find_matches(re, subj, o.once, o.emptymatch);
  const std::vector<int64_t> ci = text_detail::char_index_map(subj);
  auto piece = [&](int64_t a, int64_t b) { return subj.substr(a, b - a); };
  RegexpResult r;
  std::vector<double> st, en;
  std::vector<std::string> mt;
  std::vector<Value> toks, exts;
  for (const Match& m : ms) {
    st.push_back(static_cast<double>(ci[m.s] + 1));
    en.push_back(static_cast<double>(ci[m.e]));
    mt.push_back(piece(m.s, m.e));
    std::vector<std::string> tk;
    Tensor ex;
    if (re.ngroups == 0) {
      tk.push_back(mt.back());
      ex = Tensor::uninit(ClassId::Double, Dims(1, 2));
      ex.set_double(0, st.back());
      ex.set_double(1, en.back());
    } else {
      const auto ng = static_cast<int64_t>(re.ngroups);
      ex = Tensor::uninit(ClassId::Double, Dims(ng, 2));
      for (int64_t g = 0; g < ng; ++g) {
        auto [a, b] = m.groups[static_cast<size_t>(g)];
        if (a < 0) {
          tk.emplace_back();
          ex.set_double(g, st.back());
          ex.set_double(g + ng, st.back() - 1);
        } else {
          tk.push_back(piece(a, b));
          ex.set_double(g, static_cast<double>(ci[a] + 1));
          ex.set_double(g + ng, static_cast<double>(ci[b]));
        }
      }
    }
    toks.push_back(text_row(tk, as_string));
    exts.push_back(Value(std::move(ex)));
  }
  // names: one struct element per match (1x1 with no fields when the pattern has no names).
  const bool has_names = !re.named_groups.empty();
  const int64_t nn = !has_names ? 1 : o.once ? std::min<int64_t>(1, ms.size()) : ms.size();
  StructArray names(has_names && ms.empty() ? Dims(0, 0) : Dims(1, nn));
  for (int g : re.named_groups) names.add_field(re.group_names[g]);
  if (has_names) {
    for (int64_t i = 0; i < static_cast<int64_t>(ms.size()) && i < nn; ++i)
      for (size_t f = 0; f < re.named_groups.size(); ++f) {
        auto [a, b] = ms[i].groups[re.named_groups[f] - 1];
        names.at(i, static_cast<int>(f)) = text_val(a < 0 ? "" : piece(a, b), as_string);
      }
  }
  r.names = Value(std::move(names));
  // split: the text between matches.
  std::vector<std::string> sp;
  size_t prev = 0;
  for (const Match& m : ms) {
    sp.push_back(subj.substr(prev, m.s - prev));
    prev = m.e;
  }
  sp.push_back(subj.substr(prev));
  r.split = text_row(sp, as_string);
  if (o.once) {
    const bool hit = !ms.empty();
    r.start = hit ? Value(st[0]) : Value();
    r.end = hit ? Value(en[0]) : Value();
    r.extents = hit ? exts[0] : Value();
    r.match = hit ? text_val(mt[0], as_string) : as_string ? Value::from_string("") : char_row("");
    if (!hit && !as_string) r.match = Value(Tensor::zeros(ClassId::Char, Dims(0, 0)));
    r.tokens = hit ? toks[0] : Value(CellArray(Dims(0, 0)));
    return r;
  }
  r.start = double_row(st);
  r.end = double_row(en);
  r.match = text_row(mt, as_string);
  CellArray tc(Dims(1, static_cast<int64_t>(toks.size())));
  CellArray ec(Dims(1, static_cast<int64_t>(exts.size())));
  for (size_t i = 0; i < toks.size(); ++i) {
    tc.at(static_cast<int64_t>(i)) = toks[i];
    ec.at(static_cast<int64_t>(i)) = exts[i];
  }
  r.tokens = Value(std::move(tc));
  r.extents = Value(std::move(ec));
  return r;
}

/// Items of a pattern/subject argument, with MATLAB's errors for other types.
TextItems items_arg(const Value& v, const char* fname) {
  std::string id = std::string("MATLAB:") + fname + ":InvalidInput";
  return text_detail::text_items(
      v, id.c_str(),
      "All inputs must be character vectors, cell arrays of character vectors, or string arrays.");
}

Outputs regexp_impl(Args args, int nargout, const char* fname, bool icase_default) {
  check_nargin(args, 2, SIZE_MAX);
  std::vector<std::string> order;
  RegexOpts o0;
  o0.icase = icase_default;
  RegexOpts o = parse_options(args, 2, fname, false, &order, o0);
  static const char* kDefault[] = {"start", "end", "tokenextents", "match", "tokens", "names",
                                   "split"};
  for (const char* k : kDefault)
    if (std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
  check_nargout(nargout, 7);
  const int nout = std::max(nargout, 1);
  TextItems subj = items_arg(args[0], fname);
  TextItems pat = items_arg(args[1], fname);
  const bool elementwise = !subj.single() || !pat.single();
  if (!elementwise) {
    Regex re = compile(pat.items[0], o, fname);
    RegexpResult r = regexp_one(re, subj.items[0], o, subj.is_string);
    Outputs out;
    for (int i = 0; i < nout; ++i) out.push_back(r.get(order[static_cast<size_t>(i)]));
    return out;
  }
  // Elementwise over a cell / string array of subjects and/or patterns.
  const size_t ns = subj.items.size(), np = pat.items.size();
  if (ns != 1 && np != 1 && ns != np)
    throw_error("MATLAB:regexp:cellArrayMismatch",
                "Cell arrays of strings and expressions must have the same size.");
  const Dims d = ns != 1 || np == 1 ? (subj.single() ? pat.dims : subj.dims) : pat.dims;
  // An empty cell of subjects or expressions gives empty outputs of its size.
  const size_t n = ns == 0 || np == 0 ? 0 : std::max(ns, np);
  std::vector<CellArray> cells(static_cast<size_t>(nout), CellArray(d));
  for (size_t i = 0; i < n; ++i) {
    Regex re = compile(pat.items[np == 1 ? 0 : i], o, fname);
    RegexpResult r = regexp_one(re, subj.items[ns == 1 ? 0 : i], o, subj.is_string);
    for (int k = 0; k < nout; ++k)
      cells[static_cast<size_t>(k)].at(static_cast<int64_t>(i)) = r.get(order[static_cast<size_t>(k)]);
  }
  Outputs out;
  for (auto& c : cells) out.push_back(Value(std::move(c)));
  return out;
}

/// Replacement text for one match: $0, $N, ${N} substituted; escapes were decoded before.
std::string expand_replacement(const std::string& rep, const std::string& subj, const Match& m) {
  std::string out;
  for (size_t i = 0; i < rep.size(); ++i) {
    char c = rep[i];
    if (c == '$' && i + 1 < rep.size()) {
      size_t j = i + 1;
      bool brace = rep[j] == '{';
      if (brace) ++j;
      size_t k = j;
      while (k < rep.size() && std::isdigit(static_cast<unsigned char>(rep[k]))) ++k;
      if (k > j && (!brace || (k < rep.size() && rep[k] == '}'))) {
        size_t g = std::stoul(rep.substr(j, k - j));
        if (g == 0) {
          out += subj.substr(m.s, m.e - m.s);
        } else if (g <= m.groups.size() && m.groups[g - 1].first >= 0) {
          auto [a, b] = m.groups[g - 1];
          out += subj.substr(a, b - a);
        }
        i = brace ? k : k - 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/// Replacement escapes: like decode_escapes, but `\$` stays a literal dollar sign marker.
std::string decode_replacement(const std::string& rep) {
  std::string out;
  size_t start = 0;
  // Split on "\$" so that decode_escapes does not see it; protect with a marker.
  for (;;) {
    size_t p = rep.find("\\$", start);
    out += decode_escapes(rep.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    out += '\x1f';  // literal '$' marker, restored after expansion
    start = p + 2;
  }
  return out;
}

/// 'preservecase': character k of the replacement takes the case of character k of the
/// matched text (letters only); characters past the match's length take the case of its last
/// letter.
std::string apply_case(std::string r, const std::string& matched) {
  int last = 0;  // +1 upper, -1 lower, 0 unknown
  for (size_t k = 0; k < r.size(); ++k) {
    if (k < matched.size()) {
      const unsigned char c = static_cast<unsigned char>(matched[k]);
      if (std::isupper(c)) last = 1;
      else if (std::islower(c)) last = -1;
    }
    const unsigned char rc = static_cast<unsigned char>(r[k]);
    if (!std::isalpha(rc)) continue;
    if (last > 0) r[k] = static_cast<char>(std::toupper(rc));
    else if (last < 0) r[k] = static_cast<char>(std::tolower(rc));
  }
  return r;
}

std::string regexprep_one(const std::string& subj, const Regex& re, const std::string& rep,
                          const RegexOpts& o) {
  const std::vector<Match> ms =
      find_matches(re, subj, o.once && o.nth <= 1, o.emptymatch);
  std::string out;
  size_t prev = 0;
  for (size_t i = 0; i < ms.size(); ++i) {
    if (o.nth > 0 && static_cast<int64_t>(i) + 1 != o.nth) continue;
    const Match& m = ms[i];
    out += subj.substr(prev, m.s - prev);
    std::string r = expand_replacement(rep, subj, m);
    std::replace(r.begin(), r.end(), '\x1f', '$');
    if (o.preservecase) r = apply_case(r, subj.substr(m.s, m.e - m.s));
    out += r;
    prev = m.e;
  }
  out += subj.substr(prev);
  return out;
}

#endif  // MATFUSE_HAVE_PCRE2

/// [tok, mat] = regexp(str, expression, outkeys..., options...): see the file comment.
/// Outputs in keyword order, then the rest in the default order
/// start, end, tokenExtents, match, tokens, names, split.
Outputs bi_regexp(CallContext&, Args args, int nargout) {
#if MATFUSE_HAVE_PCRE2
  return regexp_impl(args, nargout, "regexp", false);
#else
  (void)args, (void)nargout;
  not_available("regexp");
#endif
}

/// regexpi: regexp with 'ignorecase' as the default.
Outputs bi_regexpi(CallContext&, Args args, int nargout) {
#if MATFUSE_HAVE_PCRE2
  return regexp_impl(args, nargout, "regexpi", true);
#else
  (void)args, (void)nargout;
  not_available("regexpi");
#endif
}

/// newStr = regexprep(str, expression, replace, options...): replaces matches of expression.
/// Cell arrays of expressions (and replacements) apply one after another; a cell of subjects
/// gives a cell result. Options: 'once', N (only the N-th match), 'ignorecase', 'emptymatch', ...
Outputs bi_regexprep(CallContext&, Args args, int nargout) {
#if MATFUSE_HAVE_PCRE2
  check_nargin(args, 3, SIZE_MAX);
  check_nargout(nargout, 1);
  RegexOpts o = parse_options(args, 3, "regexprep", true, nullptr);
  TextItems subj = items_arg(args[0], "regexprep");
  TextItems pat = items_arg(args[1], "regexprep");
  TextItems rep = items_arg(args[2], "regexprep");
  if (rep.items.size() != 1 && rep.items.size() != pat.items.size())
    throw_error("MATLAB:regexprep:cellArrayMismatch",
                "Cell arrays of expressions and replacements must have the same size.");
  std::vector<Regex> res;
  std::vector<std::string> reps;
  for (size_t k = 0; k < pat.items.size(); ++k) {
    res.push_back(compile(pat.items[k], o, "regexprep"));
    reps.push_back(decode_replacement(rep.items[rep.items.size() == 1 ? 0 : k]));
  }
  std::vector<std::string> out;
  for (const std::string& s0 : subj.items) {
    std::string s = s0;
    for (size_t k = 0; k < res.size(); ++k) s = regexprep_one(s, res[k], reps[k], o);
    out.push_back(s);
  }
  return {text_detail::pack_text(subj, out)};
#else
  (void)args, (void)nargout;
  not_available("regexprep");
#endif
}

}  // namespace

void register_text_regexp(Registry& r) {
  r.add("regexp", bi_regexp);
  r.add("regexpi", bi_regexpi);
  r.add("regexprep", bi_regexprep);
}

}  // namespace matfuse
