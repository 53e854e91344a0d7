// parfor-loops (parfor.h).
#include "parallel/parfor.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

#include "interp/indexing.h"

namespace matfuse::parallel {

using namespace ast;

namespace {

// ---------------------------------------------------------------- classification cache

/// A loop's plan and the answers to "is this name a variable?" it was made with: the plan is
/// reused while the answers hold (the same loop run again from the same kind of workspace).
struct CachedPlan {
  ParforPlan plan;
  std::vector<std::pair<std::string, bool>> queries;
};

const ParforPlan& plan_for(Interpreter& in, const ForStmt& f) {
  static std::unordered_map<uint64_t, CachedPlan> cache;
  Frame* fr = in.cur_;
  auto is_var = [&](const std::string& name) {
    const int s = fr->layout->find(name);
    return s >= 0 && static_cast<size_t>(s) < fr->slots.size() && in.slot_value(s) != nullptr;
  };
  auto it = cache.find(f.id);
  if (it != cache.end()) {
    bool same = true;
    for (const auto& [name, was] : it->second.queries)
      if (is_var(name) != was) {
        same = false;
        break;
      }
    if (same) return it->second.plan;
  }
  CachedPlan c;
  auto recording = [&](const std::string& name) {
    const bool v = is_var(name);
    c.queries.emplace_back(name, v);
    return v;
  };
  c.plan = classify_parfor(f, recording);
  return cache[f.id] = std::move(c), cache[f.id].plan;
}

// ---------------------------------------------------------------- helpers

int slot_of(Frame& fr, const std::string& name) {
  int s = fr.layout->get_or_add(name);
  if (fr.slots.size() < fr.layout->names.size()) fr.slots.resize(fr.layout->names.size());
  return s;
}

const Value* value_in(Interpreter& in, Frame& fr, const std::string& name) {
  const int s = fr.layout->find(name);
  if (s < 0 || static_cast<size_t>(s) >= fr.slots.size()) return nullptr;
  const Slot& sl = fr.slots[static_cast<size_t>(s)];
  if (sl.ref) return sl.ref;
  return sl.set ? &sl.v : nullptr;
  (void)in;
}

/// Extent of x along subscript position p of nsubs subscripts (MATLAB's merging of trailing
/// dimensions into the last subscript).
int64_t extent(const Value& x, int p, int nsubs) {
  const Dims d = x.dims();
  if (nsubs == 1) return d.numel();
  if (p < nsubs - 1) return d[p];
  int64_t n = 1;
  for (int k = p; k < d.ndims(); ++k) n *= d[k];
  return n;
}

/// Subscripts ':' everywhere but position p, which gets lo:hi.
std::vector<Value> slice_subs(int p, int nsubs, int64_t lo, int64_t hi) {
  std::vector<Value> subs(static_cast<size_t>(nsubs), Value::from_chars(":"));
  Tensor r = Tensor::uninit(ClassId::Double, Dims(1, std::max<int64_t>(0, hi - lo + 1)));
  double* d = r.mutable_data<double>();
  for (int64_t k = lo; k <= hi; ++k) d[k - lo] = static_cast<double>(k);
  subs[static_cast<size_t>(p)] = Value(std::move(r));
  return subs;
}

/// The slice offset of a sliced variable (its constant, or its broadcast variable's value).
int64_t slice_offset(Interpreter& in, const std::string& name, const SliceInfo& s) {
  if (s.offset_var.empty()) return static_cast<int64_t>(s.offset);
  const Value* v = value_in(in, *in.cur_, s.offset_var);
  if (!v || !v->is_tensor() || v->numel() != 1 || v->to_double() != std::floor(v->to_double()))
    throw_error("MATLAB:parfor:UnclassifiedVariable",
                "The variable %s in a parfor cannot be classified.\nIts index offset %s must "
                "be an integer scalar defined before the loop.",
                name.c_str(), s.offset_var.c_str());
  return static_cast<int64_t>(v->to_double());
}

Value identity_of(ReductionKind k) {
  switch (k) {
    case ReductionKind::Plus: return Value(0.0);
    case ReductionKind::Times:
    case ReductionKind::TimesLeft:
    case ReductionKind::ElemTimes: return Value(1.0);
    case ReductionKind::And: return Value::logical(true);
    case ReductionKind::Or: return Value::logical(false);
    case ReductionKind::HorzRight:
    case ReductionKind::HorzLeft:
    case ReductionKind::VertRight:
    case ReductionKind::VertLeft: return Value();
    default: return Value();  // function forms: unset (see Interpreter::reduction_first_)
  }
}

bool has_identity(ReductionKind k) {
  return k != ReductionKind::FnRight && k != ReductionKind::FnLeft;
}

Value combine(Interpreter& in, const ReductionInfo& r, const Value& acc, const Value& part) {
  auto call2 = [&](const char* fn, const Value& a, const Value& b) {
    Value args[2] = {a, b};
    Outputs o = in.call_named(fn, Args(args, 2), 1);
    return o.empty() ? Value() : o[0];
  };
  switch (r.kind) {
    case ReductionKind::Plus: return call2("plus", acc, part);
    case ReductionKind::Times: return call2("mtimes", acc, part);
    case ReductionKind::TimesLeft: return call2("mtimes", part, acc);
    case ReductionKind::ElemTimes: return call2("times", acc, part);
    case ReductionKind::And: return call2("and", acc, part);
    case ReductionKind::Or: return call2("or", acc, part);
    case ReductionKind::HorzRight: return call2("horzcat", acc, part);
    case ReductionKind::HorzLeft: return call2("horzcat", part, acc);
    case ReductionKind::VertRight: return call2("vertcat", acc, part);
    case ReductionKind::VertLeft: return call2("vertcat", part, acc);
    case ReductionKind::FnRight: return call2(r.function.c_str(), acc, part);
    case ReductionKind::FnLeft: return call2(r.function.c_str(), part, acc);
  }
  return acc;
}

/// The loop's range as doubles (a row vector of increasing consecutive integers).
std::vector<double> range_values(Interpreter& in, const ForStmt& f) {
  Value r = in.eval(*f.range);
  if (!r.is_tensor() || r.is_char() || (r.numel() > 0 && !r.dims().is_row()))
    throw_error("MATLAB:parfor:InvalidRange",
                "The range of a parfor-loop must be increasing consecutive integers.");
  const Tensor t = r.tensor();
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t k = 0; k < t.numel(); ++k) v[static_cast<size_t>(k)] = t.get_double(k);
  check_parfor_range(v);
  return v;
}

Flow run_serial(Interpreter& in, const ForStmt& f, const ParforPlan& plan,
                const std::vector<double>& values) {
  Frame& fr = *in.cur_;
  std::vector<int> restore_slots;
  restore_slots.push_back(slot_of(fr, plan.loop_var));
  for (const auto& t : plan.temporaries) restore_slots.push_back(slot_of(fr, t));
  std::vector<Slot> saved;
  for (int s : restore_slots) saved.push_back(fr.slots[static_cast<size_t>(s)]);
  auto restore = [&] {
    Frame& cf = *in.cur_;
    for (size_t k = 0; k < restore_slots.size(); ++k) {
      Slot& sl = cf.slots[static_cast<size_t>(restore_slots[k])];
      if (sl.ref) continue;
      sl = saved[k];
    }
  };
  try {
    for (double v : values) {
      for (size_t k = 1; k < restore_slots.size(); ++k) {
        Slot& sl = fr.slots[static_cast<size_t>(restore_slots[k])];
        if (!sl.ref) sl.set = false;
      }
      in.set_slot(restore_slots[0], Value(v));
      Flow fl = in.exec_block(f.body);
      if (fl == Flow::Return || fl == Flow::Break) break;  // excluded by classification
      in.cur_->line = f.loc.line;
      in.cur_->stmt = &f;
    }
  } catch (...) {
    restore();
    throw;
  }
  restore();
  return Flow::Normal;
}

}  // namespace

// ---------------------------------------------------------------- replies

void write_error_reply(ValueWriter& out, const std::string& output, const MatlabError& e) {
  out.u8(1);
  out.str(output);
  out.str(e.identifier());
  out.str(e.message());
  out.u32(static_cast<uint32_t>(e.stack().size()));
  for (const auto& s : e.stack()) {
    out.str(s.file);
    out.str(s.name);
    out.i64(s.line);
  }
}

void read_reply_head(ValueReader& r, Session& session) {
  const uint8_t status = r.u8();
  const std::string output = r.str();
  if (!output.empty() && session.out) *session.out << output;
  if (status == 0) return;
  if (status != 1)
    throw_corrupt("reply status");
  std::string id = r.str();
  std::string msg = r.str();
  MatlabError e(id, msg);
  const uint32_t n = r.u32();
  for (uint32_t k = 0; k < n && k < 1000; ++k) {
    StackFrame s;
    s.file = r.str();
    s.name = r.str();
    s.line = static_cast<int>(r.i64());
    (void)s;  // the client reports the error at its own parfor/spmd line
  }
  throw e;
}

// ---------------------------------------------------------------- client

Flow run_parfor(Interpreter& in, const ForStmt& f, Pool* pool) {
  ParforPlan plan = plan_for(in, f);
  // A function handle called with the loop index, h(i), is a call, not a slice: broadcast.
  for (auto it = plan.sliced.begin(); it != plan.sliced.end();) {
    const Value* v = value_in(in, *in.cur_, it->first);
    if (v && (v->is_function() || (v->is_object() && !v->is_string())) && !it->second.output) {
      plan.vars[it->first] = VarClass::Broadcast;
      plan.broadcast.push_back(it->first);
      it = plan.sliced.erase(it);
    } else {
      ++it;
    }
  }
  std::vector<double> values = range_values(in, f);
  int64_t max_workers = -1;
  if (f.max_workers) {
    Value m = in.eval(*f.max_workers);
    const double d = m.to_double("the number of workers");
    if (!(d >= 0) || d != std::floor(d))
      throw_error("MATLAB:parfor:InvalidNumWorkers",
                  "The maximum number of workers of a parfor-loop must be a nonnegative "
                  "integer.");
    max_workers = static_cast<int64_t>(std::min(d, 1e9));
  }
  const int64_t n = static_cast<int64_t>(values.size());
  if (!pool || max_workers == 0 || n == 0) return run_serial(in, f, plan, values);

  Frame& fr = *in.cur_;
  const CodeUnit* code = fr.code ? fr.code : fr.unit;
  if (!code)
    throw_error("matfuse:parallel:noSource", "A parfor-loop here has no program text to send.");
  for (const auto& [name, r] : plan.reductions)
    if (!value_in(in, fr, name))
      throw_error("MATLAB:UndefinedFunction", "Unrecognized function or variable '%s'.",
                  name.c_str());
  int64_t nblocks = std::min<int64_t>(pool->size(), n);
  if (max_workers > 0) nblocks = std::min(nblocks, max_workers);

  InterpFunctionCodec codec(in);
  // What every block shares: the program text, the loop, the broadcast values.
  ValueWriter common(&codec);
  common.str(code->file ? code->file->path : "");
  common.str(code->source);
  common.u32(static_cast<uint32_t>(f.loc.line));
  common.u32(static_cast<uint32_t>(f.loc.column));
  common.u32(static_cast<uint32_t>(in.search_path().size()));
  for (const auto& p : in.search_path()) common.str(p);
  common.str(in.script_dir_);
  std::vector<std::pair<std::string, const Value*>> bvals;
  for (const auto& b : plan.broadcast)
    if (const Value* v = value_in(in, fr, b)) bvals.emplace_back(b, v);
  common.u32(static_cast<uint32_t>(bvals.size()));
  for (const auto& [name, v] : bvals) {
    common.str(name);
    common.value(*v);
  }

  std::vector<std::string> requests(static_cast<size_t>(pool->size()));
  std::vector<int64_t> first(static_cast<size_t>(nblocks)), count(static_cast<size_t>(nblocks));
  for (int64_t b = 0; b < nblocks; ++b) {
    const int64_t lo = b * n / nblocks, hi = (b + 1) * n / nblocks;
    first[static_cast<size_t>(b)] = static_cast<int64_t>(values[static_cast<size_t>(lo)]);
    count[static_cast<size_t>(b)] = hi - lo;
    ValueWriter w(&codec);
    w.u8(kParforBlock);
    std::string req = w.take() + common.bytes();
    ValueWriter tail(&codec);
    tail.i64(first[static_cast<size_t>(b)]);
    tail.i64(count[static_cast<size_t>(b)]);
    tail.u32(static_cast<uint32_t>(plan.sliced.size()));
    for (const auto& [name, s] : plan.sliced) {
      const int64_t a = first[static_cast<size_t>(b)] + slice_offset(in, name, s);
      const int64_t last = a + count[static_cast<size_t>(b)] - 1;
      tail.str(name);
      tail.u32(static_cast<uint32_t>(s.position));
      tail.u32(static_cast<uint32_t>(s.nsubs));
      tail.i64(a);
      tail.i64(last);
      const Value* x = value_in(in, fr, name);
      // The client's current slice travels for inputs, and for outputs too, so that elements
      // the block does not assign keep their values.
      if (x && a >= 1) {
        const int64_t hi_have = std::min(last, extent(*x, s.position, s.nsubs));
        if (hi_have >= a) {
          tail.u8(1);
          std::vector<Value> subs = slice_subs(s.position, s.nsubs, a, hi_have);
          tail.value(index_paren(*x, subs));
          continue;
        }
      }
      tail.u8(0);
    }
    tail.u32(static_cast<uint32_t>(plan.reductions.size()));
    for (const auto& [name, r] : plan.reductions) {
      tail.str(name);
      tail.u8(static_cast<uint8_t>(r.kind));
    }
    tail.u32(static_cast<uint32_t>(plan.temporaries.size()));
    for (const auto& t : plan.temporaries) tail.str(t);
    tail.str(plan.loop_var);
    requests[static_cast<size_t>(b)] = req + tail.take();
  }

  std::vector<std::string> replies = pool->exchange(requests);

  // Gather in block order: outputs printed, the first error raised, slices and reductions.
  std::map<std::string, Value> acc;
  for (const auto& [name, r] : plan.reductions) acc[name] = *value_in(in, fr, name);
  for (int64_t b = 0; b < nblocks; ++b) {
    ValueReader r(replies[static_cast<size_t>(b)], &codec);
    read_reply_head(r, in.session());
    const uint32_t ns = r.u32();
    for (uint32_t k = 0; k < ns; ++k) {
      std::string name = r.str();
      const uint8_t present = r.u8();
      if (!present) continue;
      const int64_t a = r.i64(), last = r.i64();
      Value slice = r.value();
      auto it = plan.sliced.find(name);
      if (it == plan.sliced.end() || last < a) continue;
      const int s = slot_of(fr, name);
      Frame& cf = *in.cur_;
      Slot& sl = cf.slots[static_cast<size_t>(s)];
      Value& target = sl.ref ? *sl.ref : sl.v;
      const bool defined = sl.ref != nullptr || sl.set;
      // Moved out of the variable and back, so that the assignment writes in place instead of
      // copying the whole array once per block.
      Value base = defined ? std::move(target) : Value();
      std::vector<Value> subs = slice_subs(it->second.position, it->second.nsubs, a, last);
      try {
        assign_paren(base, defined, subs, slice);
      } catch (...) {
        if (defined) target = std::move(base);
        throw;
      }
      in.set_slot(s, std::move(base));
    }
    const uint32_t nr = r.u32();
    for (uint32_t k = 0; k < nr; ++k) {
      std::string name = r.str();
      const uint8_t present = r.u8();
      if (!present) continue;
      Value part = r.value();
      auto it = plan.reductions.find(name);
      if (it == plan.reductions.end()) continue;
      acc[name] = combine(in, it->second, acc[name], part);
    }
    r.expect_end();
  }
  for (auto& [name, v] : acc) in.set_slot(slot_of(*in.cur_, name), std::move(v));
  return Flow::Normal;
}

// ---------------------------------------------------------------- worker

namespace {

const Stmt* find_stmt(const Block& b, int line, int column, StmtKind kind);

const Stmt* find_in(const Stmt& s, int line, int column, StmtKind kind) {
  if (s.kind == kind && s.loc.line == line && s.loc.column == column) return &s;
  switch (s.kind) {
    case StmtKind::If:
      for (const auto& c : static_cast<const IfStmt&>(s).clauses)
        if (const Stmt* r = find_stmt(c.body, line, column, kind)) return r;
      return nullptr;
    case StmtKind::For:
      return find_stmt(static_cast<const ForStmt&>(s).body, line, column, kind);
    case StmtKind::While:
      return find_stmt(static_cast<const WhileStmt&>(s).body, line, column, kind);
    case StmtKind::Spmd:
      return find_stmt(static_cast<const SpmdStmt&>(s).body, line, column, kind);
    case StmtKind::Switch:
      for (const auto& c : static_cast<const SwitchStmt&>(s).cases)
        if (const Stmt* r = find_stmt(c.body, line, column, kind)) return r;
      return nullptr;
    case StmtKind::Try: {
      const auto& t = static_cast<const TryStmt&>(s);
      if (const Stmt* r = find_stmt(t.body, line, column, kind)) return r;
      return find_stmt(t.handler, line, column, kind);
    }
    default:
      return nullptr;
  }
}

const Stmt* find_stmt(const Block& b, int line, int column, StmtKind kind) {
  for (const auto& s : b)
    if (const Stmt* r = find_in(*s, line, column, kind)) return r;
  return nullptr;
}

FunctionDef* find_def(std::vector<std::unique_ptr<FunctionDef>>& defs, int line, int column,
                      StmtKind kind, const Stmt** found) {
  for (auto& d : defs) {
    if ((*found = find_stmt(d->body, line, column, kind))) return d.get();
    if (FunctionDef* r = find_def(d->nested, line, column, kind, found)) return r;
  }
  return nullptr;
}

}  // namespace

WorkerFrame::WorkerFrame(WorkerState& w, const std::string& path, const std::string& source,
                         int line, int column, StmtKind kind)
    : in_(w.in), saved_(w.in.cur_) {
  const std::string key = path + std::string(1, '\0') + source;
  auto it = w.units.find(key);
  if (it == w.units.end()) it = w.units.emplace(key, w.in.unit_from_text(source, path)).first;
  std::shared_ptr<CodeUnit> unit = it->second;
  ParsedFile& file = *unit->file;
  Layout* layout = nullptr;
  FunctionDef* def = nullptr;
  if ((stmt = find_stmt(file.script_body, line, column, kind))) {
    auto& L = w.script_layouts[unit.get()];
    if (!L) {
      L = std::make_unique<Layout>();
      L->ans_slot = L->get_or_add("ans");
      w.in.resolve_script_into(*unit, *L);
    }
    layout = L.get();
  } else if ((def = find_def(file.functions, line, column, kind, &stmt))) {
    layout = w.in.resolve_function_def(*unit, *def);
  }
  if (!stmt)
    throw_error("matfuse:parallel:noSource",
                "The worker could not find the statement at line %d of the program text.", line);
  frame.layout = layout;
  frame.slots.resize(layout->names.size());
  frame.unit = unit.get();
  frame.code = unit.get();
  frame.def = def;
  frame.name = def ? def->name : file.name;
  frame.file = path;
  frame.line = line;
  frame.caller = saved_;
  in_.cur_ = &frame;
  ++in_.depth_;
}

WorkerFrame::~WorkerFrame() {
  in_.cur_ = saved_;
  --in_.depth_;
}

int WorkerFrame::slot(const std::string& name) { return slot_of(frame, name); }

void run_parfor_block(WorkerState& w, ValueReader& req, ValueWriter& out) {
  Interpreter& in = w.in;
  const std::string path = req.str();
  const std::string source = req.str();
  const int line = static_cast<int>(req.u32());
  const int column = static_cast<int>(req.u32());
  const uint32_t npaths = req.u32();
  std::vector<std::string> paths;
  for (uint32_t k = 0; k < npaths && req.remaining(); ++k) paths.push_back(req.str());
  const std::string script_dir = req.str();
  if (paths != in.search_path()) {
    for (const auto& p : std::vector<std::string>(in.search_path())) in.remove_path(p);
    for (auto p = paths.rbegin(); p != paths.rend(); ++p) in.add_path(*p);
  }
  if (in.script_dir_ != script_dir) {
    in.script_dir_ = script_dir;
    in.clear_functions();
  }
  WorkerFrame wf(w, path, source, line, column, StmtKind::For);
  const auto& f = static_cast<const ForStmt&>(*wf.stmt);
  // The same classification as the client's (the plan's broadcast names came with values).
  const uint32_t nb = req.u32();
  for (uint32_t k = 0; k < nb; ++k) {
    std::string name = req.str();
    Value v = req.value();
    in.set_slot(wf.slot(name), std::move(v));
  }
  const int64_t first = req.i64();
  const int64_t count = req.i64();
  if (count < 0 || count > (int64_t{1} << 40) || first < -(int64_t{1} << 52) ||
      first > (int64_t{1} << 52))
    throw_corrupt("iteration block");
  struct Sliced {
    std::string name;
    int position, nsubs;
    int64_t a, last;
    int slot;
  };
  std::vector<Sliced> sliced;
  const uint32_t ns = req.u32();
  for (uint32_t k = 0; k < ns; ++k) {
    Sliced s;
    s.name = req.str();
    s.position = static_cast<int>(req.u32());
    s.nsubs = static_cast<int>(req.u32());
    if (s.nsubs < 1 || s.position >= s.nsubs || s.nsubs > 64)
      throw_corrupt("slice");
    s.a = req.i64();
    s.last = req.i64();
    s.slot = wf.slot(s.name);
    if (req.u8()) {
      Value part = req.value();
      Value base;
      std::vector<Value> subs = slice_subs(s.position, s.nsubs, s.a, s.a + extent(part, s.position, s.nsubs) - 1);
      assign_paren(base, false, subs, part);
      in.set_slot(s.slot, std::move(base));
    }
    sliced.push_back(std::move(s));
  }
  struct Red {
    std::string name;
    ReductionKind kind;
    int slot;
  };
  std::vector<Red> reds;
  const uint32_t nr = req.u32();
  for (uint32_t k = 0; k < nr; ++k) {
    Red r;
    r.name = req.str();
    const uint8_t kind = req.u8();
    if (kind > static_cast<uint8_t>(ReductionKind::FnLeft))
      throw_corrupt("reduction kind");
    r.kind = static_cast<ReductionKind>(kind);
    r.slot = wf.slot(r.name);
    if (has_identity(r.kind)) in.set_slot(r.slot, identity_of(r.kind));
    reds.push_back(std::move(r));
  }
  std::vector<int> temps;
  const uint32_t nt = req.u32();
  for (uint32_t k = 0; k < nt; ++k) temps.push_back(wf.slot(req.str()));
  const int loop_slot = wf.slot(req.str());
  req.expect_end();

  // Function reductions start unset: their first statement assigns the other operand.
  {
    std::function<bool(const std::string&)> is_var = [&](const std::string& name) {
      const int s = wf.frame.layout->find(name);
      if (s < 0 || static_cast<size_t>(s) >= wf.frame.slots.size()) return false;
      return wf.frame.slots[static_cast<size_t>(s)].set;
    };
    // Reductions are set (identities) or unset (function forms) as on the client; the
    // function-form sites come from classifying the worker's own copy of the loop.
    for (const auto& r : reds)
      if (!has_identity(r.kind)) wf.frame.slots[static_cast<size_t>(r.slot)].set = true;
    ParforPlan plan = classify_parfor(f, is_var);
    for (const auto& r : reds) {
      if (has_identity(r.kind)) continue;
      wf.frame.slots[static_cast<size_t>(r.slot)].set = false;
      auto it = plan.reductions.find(r.name);
      if (it == plan.reductions.end()) continue;
      for (const auto& site : it->second.sites)
        in.reduction_first_[site.stmt] = Interpreter::ReductionFirst{site.other, r.slot};
    }
  }
  struct ClearSites {
    Interpreter& in;
    ~ClearSites() { in.reduction_first_.clear(); }
  } clear_sites{in};

  for (int64_t it = 0; it < count; ++it) {
    for (int t : temps) wf.frame.slots[static_cast<size_t>(t)].set = false;
    in.set_slot(loop_slot, Value(static_cast<double>(first + it)));
    Flow fl = in.exec_block(f.body);
    if (fl == Flow::Return || fl == Flow::Break) break;
  }

  out.u8(0);
  out.str(w.out.str());
  out.u32(static_cast<uint32_t>(sliced.size()));
  for (const auto& s : sliced) {
    out.str(s.name);
    const Slot& sl = wf.frame.slots[static_cast<size_t>(s.slot)];
    const int64_t have = sl.set ? std::min(s.last, extent(sl.v, s.position, s.nsubs)) : 0;
    if (!sl.set || have < s.a) {
      out.u8(0);
      continue;
    }
    out.u8(1);
    out.i64(s.a);
    out.i64(have);
    std::vector<Value> subs = slice_subs(s.position, s.nsubs, s.a, have);
    out.value(index_paren(sl.v, subs));
  }
  out.u32(static_cast<uint32_t>(reds.size()));
  for (const auto& r : reds) {
    out.str(r.name);
    const Slot& sl = wf.frame.slots[static_cast<size_t>(r.slot)];
    out.u8(sl.set ? 1 : 0);
    if (sl.set) out.value(sl.v);
  }
}

}  // namespace matfuse::parallel
