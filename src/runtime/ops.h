// Op identifiers, names and static properties, all derived from runtime/ops.def (DESIGN.md
// decision 3). The scalar semantics of each op live in runtime/scalar_ops.h; the eager
// broadcasting engine is runtime/elementwise.h.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace matfuse {

enum class OpCategory : uint8_t { Arith, Compare, Logical, Math, Rounding, Predicate };

/// Property bits of an op (see ops.def for their meaning).
enum OpFlag : uint32_t {
  kIntOk = 1u << 0,
  kComplexOk = 1u << 1,
  kRealToComplex = 1u << 2,
  kLogicalOut = 1u << 3,
  kRealOut = 1u << 4,
  kCommutative = 1u << 5,
  kKeepsClass = 1u << 6,
  kRecompute = 1u << 7,
  kComplexFused = 1u << 8,
  kRealOnNonneg = 1u << 9,
  kReplayable = 1u << 10,
  kScalarFast = 1u << 11,
};

/// When an op's real result is known to be >= 0 (ops.def's sign column).
enum class OpSign : uint8_t { Any, Always, Both, Either, Operand, EvenPower };

enum class OpId : uint8_t {
#define MF_OP(id, name, arity, cat, flags, identity, cost, sign) id,
#include "runtime/ops.def"
#undef MF_OP
};

inline constexpr int kNumOps = 0
#define MF_OP(id, name, arity, cat, flags, identity, cost, sign) +1
#include "runtime/ops.def"
#undef MF_OP
    ;

namespace ops_detail {
struct OpInfo {
  std::string_view name;
  int arity;
  OpCategory category;
  uint32_t flags;
  double identity;
  double cost;
  OpSign sign;
};
inline constexpr OpInfo kOpInfo[] = {
#define MF_OP(id, name, arity, cat, flags, identity, cost, sign) \
  {name, arity, OpCategory::cat, static_cast<uint32_t>(flags), identity, cost, OpSign::sign},
#include "runtime/ops.def"
#undef MF_OP
};
}  // namespace ops_detail

/// MATLAB builtin name of op ("plus", "sin", ...).
constexpr std::string_view op_name(OpId op) { return ops_detail::kOpInfo[int(op)].name; }
/// 1 or 2.
constexpr int op_arity(OpId op) { return ops_detail::kOpInfo[int(op)].arity; }
constexpr OpCategory op_category(OpId op) { return ops_detail::kOpInfo[int(op)].category; }
constexpr uint32_t op_flags(OpId op) { return ops_detail::kOpInfo[int(op)].flags; }
constexpr bool op_has(OpId op, OpFlag f) { return (op_flags(op) & f) != 0; }
/// Reduction identity (0 for plus, 1 for times, -Inf for max ...); NaN when the op has none.
constexpr double op_identity(OpId op) { return ops_detail::kOpInfo[int(op)].identity; }
/// Relative cost of one evaluation (placement's cost model; ops.def's cost column).
constexpr double op_cost(OpId op) { return ops_detail::kOpInfo[int(op)].cost; }
/// When the real result is known to be >= 0 (ops.def's sign column).
constexpr OpSign op_sign(OpId op) { return ops_detail::kOpInfo[int(op)].sign; }
constexpr bool op_returns_logical(OpId op) { return op_has(op, kLogicalOut); }
constexpr bool op_is_binary(OpId op) { return op_arity(op) == 2; }

/// Op with the given MATLAB name, or nullopt.
inline std::optional<OpId> op_from_name(std::string_view name) {
  for (int i = 0; i < kNumOps; ++i)
    if (ops_detail::kOpInfo[i].name == name) return static_cast<OpId>(i);
  return std::nullopt;
}

}  // namespace matfuse
