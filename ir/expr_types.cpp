#include "ir/expr_types.h"

#include <algorithm>
#include <tuple>

namespace herald::check {

void ExprTypeTable::record(SourceRange range, const Type* type) {
  if (!recording_ || range.begin >= range.end || type == nullptr ||
      !isWellFormed(type))
    return;
  exprs_.push_back({range, ExprType::kNone, type});
}

void ExprTypeTable::finish() {
  // By file and start; of two expressions starting together, the longer
  // (the one around the other) first.
  std::stable_sort(exprs_.begin(), exprs_.end(),
                   [](const ExprType& a, const ExprType& b) {
                     if (a.range.file != b.range.file)
                       return a.range.file < b.range.file;
                     if (a.range.begin != b.range.begin)
                       return a.range.begin < b.range.begin;
                     return a.range.end > b.range.end;
                   });
  exprs_.erase(std::unique(exprs_.begin(), exprs_.end(),
                           [](const ExprType& a, const ExprType& b) {
                             return a.range == b.range;
                           }),
               exprs_.end());
  // The expressions around the current one, innermost last: those that
  // end before it ends are behind it (or, in a malformed tree, overlap
  // it) and leave the stack for good.
  std::vector<std::uint32_t> around;
  for (std::uint32_t i = 0; i < exprs_.size(); ++i) {
    ExprType& e = exprs_[i];
    while (!around.empty() &&
           (exprs_[around.back()].range.file != e.range.file ||
            exprs_[around.back()].range.end < e.range.end))
      around.pop_back();
    e.enclosing = around.empty() ? ExprType::kNone : around.back();
    around.push_back(i);
  }
}

const ExprType* ExprTypeTable::at(FileId file, std::uint32_t offset) const {
  auto it = std::upper_bound(
      exprs_.begin(), exprs_.end(), std::make_tuple(file, offset),
      [](const std::tuple<FileId, std::uint32_t>& pos, const ExprType& e) {
        return pos < std::make_tuple(e.range.file, e.range.begin);
      });
  if (it == exprs_.begin()) return nullptr;
  --it;
  if (it->range.file != file) return nullptr;
  // Every expression holding `offset` is around this one, which begins
  // last: the walk out is as long as the nesting.
  for (auto i = static_cast<std::uint32_t>(it - exprs_.begin());
       i != ExprType::kNone; i = exprs_[i].enclosing)
    if (offset < exprs_[i].range.end) return &exprs_[i];
  return nullptr;
}

}  // namespace herald::check
