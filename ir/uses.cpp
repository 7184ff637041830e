#include "ir/uses.h"

#include <algorithm>
#include <tuple>

namespace herald::check {

namespace {

auto key(const SourceRange& r) { return std::tie(r.file, r.begin, r.end); }

}  // namespace

void UseTable::record(SourceRange use, SourceRange decl, const Type* type) {
  if (!recording_ || use.begin >= use.end || decl.begin >= decl.end) return;
  uses_.push_back({use, decl, type});
}

void UseTable::finish() {
  std::stable_sort(uses_.begin(), uses_.end(),
                   [](const NameUse& a, const NameUse& b) {
                     return key(a.use) < key(b.use);
                   });
  // A name checked twice (a default checked for its value and its type)
  // is recorded twice with the same target; one record is kept.
  uses_.erase(std::unique(uses_.begin(), uses_.end(),
                          [](const NameUse& a, const NameUse& b) {
                            return a.use == b.use;
                          }),
              uses_.end());
  byDecl_.clear();
  indexed_ = false;
}

const NameUse* UseTable::at(FileId file, std::uint32_t offset) const {
  // Uses are names, which never overlap: the last one beginning at or
  // before `offset` is the only candidate.
  auto it = std::upper_bound(
      uses_.begin(), uses_.end(), std::make_tuple(file, offset),
      [](const std::tuple<FileId, std::uint32_t>& pos, const NameUse& u) {
        return pos < std::make_tuple(u.use.file, u.use.begin);
      });
  if (it == uses_.begin()) return nullptr;
  --it;
  if (it->use.file != file || offset > it->use.end) return nullptr;
  return &*it;
}

std::vector<NameUse> UseTable::usesOf(SourceRange decl) const {
  if (!indexed_) {
    byDecl_.resize(uses_.size());
    for (std::uint32_t i = 0; i < uses_.size(); ++i) byDecl_[i] = i;
    std::stable_sort(byDecl_.begin(), byDecl_.end(),
                     [&](std::uint32_t a, std::uint32_t b) {
                       return key(uses_[a].decl) < key(uses_[b].decl);
                     });
    indexed_ = true;
  }
  auto first = std::lower_bound(byDecl_.begin(), byDecl_.end(), decl,
                                [&](std::uint32_t i, const SourceRange& d) {
                                  return key(uses_[i].decl) < key(d);
                                });
  auto last = std::upper_bound(first, byDecl_.end(), decl,
                               [&](const SourceRange& d, std::uint32_t i) {
                                 return key(d) < key(uses_[i].decl);
                               });
  // byDecl_ was sorted stably from uses_ in source order, so the uses of
  // one declaration are in source order already.
  std::vector<NameUse> out;
  out.reserve(static_cast<std::size_t>(last - first));
  for (auto it = first; it != last; ++it) out.push_back(uses_[*it]);
  return out;
}

}  // namespace herald::check
