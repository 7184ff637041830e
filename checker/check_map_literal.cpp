// Map literals, `[:]` and `["a": 1, "b": 2]`. Typed against an expected
// `Map[K, V]`, or else from their entries: the first key and the first value
// that say what they are decide K and V, and every other entry is checked
// against them (the same rule as for list elements). `[:]` needs an expected
// type, as `[]` does. Two keys that are the same constant are
// duplicate-map-key. Any value type can be a key: keys are compared with
// `==`, which every value type has.
#include <cstdint>
#include <optional>
#include <string>

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>

#include "checker/body_checker.h"
#include "checker/eval.h"

namespace herald::check {

InstId BodyChecker::checkMapLit(const ast::MapLitExpr* e,
                                const Type* expected) {
  TypeTable& tt = types();
  const bool typed = expected != nullptr && expected->kind == TypeKind::Map;
  const Type* key = typed ? expected->arg0 : nullptr;
  const Type* value = typed ? expected->arg1 : nullptr;
  if (e->entries.empty()) {
    if (typed) return emit(InstKind::MapLit, expected, e->range, list({}));
    if (expected != nullptr && quiet(expected)) return invalid(e->range);
    sema()
        .diags.report<diag::CannotInfer>(e->range, "'[:]'")
        .note(
            "give the binding a type, e.g. 'let counts: Map[String, Int] = "
            "[:]'");
    return invalid(e->range);
  }
  // Keys and values alternate: [k1, v1, k2, v2, ...].
  llvm::SmallVector<InstId, 16> operands;
  operands.reserve(e->entries.size() * 2);
  auto checkPart = [&](const ast::Expr* part, const Type*& type) {
    if (type != nullptr) return checkAgainst(part, type);
    InstId v = checkUsed(part, nullptr);
    if (typeOf(v)->kind != TypeKind::Never) type = typeOf(v);
    return v;
  };
  for (const ast::MapEntry& entry : e->entries) {
    operands.push_back(checkPart(entry.key, key));
    operands.push_back(checkPart(entry.value, value));
  }
  if (key == nullptr || value == nullptr || quiet(key) || quiet(value))
    return invalid(e->range);
  // Duplicated constant keys: the later entry would silently replace the
  // earlier one.
  // Constants of one type are equal exactly when their renderings are.
  llvm::StringMap<SourceRange> seen;
  for (std::size_t i = 0; i < e->entries.size(); ++i) {
    const ast::MapEntry& entry = e->entries[i];
    std::optional<ConstValue> k = constantOf(sema().program, operands[2 * i]);
    if (!k) continue;
    std::string text = render(*k);
    auto [it, inserted] = seen.try_emplace(text, entry.key->range);
    if (inserted) continue;
    sema()
        .diags.report<diag::DuplicateMapKey>(entry.key->range, text)
        .note(it->second, "first given here");
  }
  const Type* type = typed && key == expected->arg0 && value == expected->arg1
                         ? expected
                         : tt.map(key, value);
  return emit(InstKind::MapLit, type, e->range, list(operands));
}

}  // namespace herald::check
