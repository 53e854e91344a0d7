#include "parallel/codec.h"

namespace matfuse::parallel {

bool InterpFunctionCodec::encode(const FunctionObject& fn, FunctionParts& out) {
  if (const auto* named = dynamic_cast<const NamedFunction*>(&fn)) {
    out.anonymous = false;
    out.text = "@" + named->name();
    return true;
  }
  const auto* anon = dynamic_cast<const AnonFunction*>(&fn);
  if (!anon) return false;
  out.anonymous = true;
  out.text = anon->expr()->source();
  const auto& names = anon->layout()->names;
  const auto& cap = anon->captured();
  for (size_t i = anon->expr()->params.size(); i < cap.size() && i < names.size(); ++i)
    if (cap[i].set) out.workspace.emplace_back(names[i], cap[i].v);
  return true;
}

Value InterpFunctionCodec::decode(const FunctionParts& parts) {
  if (parts.text.size() < 2 || parts.text[0] != '@')
    throw_corrupt("function handle text");
  if (!parts.anonymous) return in_.make_named_handle(parts.text.substr(1));
  // The text is parsed as the body of a function so that the resolver gives the anonymous
  // function its own layout, as it does for one written in a file.
  auto unit = in_.unit_from_text(
      "function h__ = mf_parallel_handle__()\nh__ = " + parts.text + ";\nend\n", "");
  if (unit->file->functions.empty() || unit->file->functions[0]->body.size() != 1)
    throw_corrupt("function handle text");
  ast::FunctionDef& def = *unit->file->functions[0];
  in_.resolve_function_def(*unit, def);
  const auto& assign = static_cast<const ast::AssignStmt&>(*def.body[0]);
  if (assign.kind != ast::StmtKind::Assign || assign.rhs->kind != ast::ExprKind::AnonFn)
    throw_corrupt("function handle text");
  const auto& expr = static_cast<const ast::AnonFnExpr&>(*assign.rhs);
  Layout* layout = unit->layouts.at(&expr).get();
  std::vector<Slot> cap(layout->names.size());
  for (const auto& [name, value] : parts.workspace) {
    int slot = layout->find(name);
    if (slot < 0 || static_cast<size_t>(slot) >= cap.size()) continue;
    cap[static_cast<size_t>(slot)].v = value;
    cap[static_cast<size_t>(slot)].set = true;
  }
  return Value(std::shared_ptr<const FunctionObject>(
      std::make_shared<AnonFunction>(unit, &expr, layout, std::move(cap))));
}

}  // namespace matfuse::parallel
