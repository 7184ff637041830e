// Where each name written in a program points: for every use of a name the
// checker resolves (a type, an event, a field, a variant, a fn, a handler,
// a capability or its operation, a local, a parameter), the range of the
// name as written and the name range of the declaration it denotes (a
// local's binding is recorded as a use of itself). Filled
// while checking when the checker is asked to (checker.h: CheckOptions; a
// compilation does not need it) and sorted once at its end, so the
// declaration at a position and the uses of a declaration are binary
// searches.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/source.h"
#include "ir/types.h"

namespace herald::check {

struct NameUse {
  SourceRange use;   // the name as written
  SourceRange decl;  // the declared name it denotes
  // For a name that denotes a value (a local, a parameter, a key, a store,
  // a dependency, a field): its type as the checker settled it.
  const Type* type = nullptr;
};

class UseTable {
 public:
  // Until this is called, record() keeps nothing.
  void startRecording() { recording_ = true; }

  // A use of `decl` at `use`; ignored when either range is empty (a
  // first-party declaration has no source).
  void record(SourceRange use, SourceRange decl, const Type* type = nullptr);
  // Sorts by position and drops repeated records of one use; the checker
  // calls it once, when every use is recorded.
  void finish();

  // The use whose name covers `offset` of `file` (its end included, where
  // an editor's cursor stands after a name), or null.
  [[nodiscard]] const NameUse* at(FileId file, std::uint32_t offset) const;
  // Every use of `decl`, in source order. The first call indexes the
  // table by declaration (a sort), so a table never asked costs nothing.
  [[nodiscard]] std::vector<NameUse> usesOf(SourceRange decl) const;

  [[nodiscard]] const std::vector<NameUse>& all() const { return uses_; }

 private:
  bool recording_ = false;
  std::vector<NameUse> uses_;  // by use, after finish()
  // Indices into uses_, by decl; filled by the first usesOf().
  mutable std::vector<std::uint32_t> byDecl_;
  mutable bool indexed_ = false;
};

}  // namespace herald::check
