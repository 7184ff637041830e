// The type the checker inferred for each expression written in a program:
// for every expression node of a body (a literal, a name, a field access, a
// call, an operator, a record, list or map literal, an `if`, a `match`, a
// parenthesised expression, `fail`), its range as written and its type as
// checked, before any coercion to what its context expects. A block is not
// recorded: its value is its last expression's, which is, and its range
// spans statements that belong to no expression. An expression whose type
// is an error (or holds one) is not recorded either. Filled while checking
// when the checker is asked to (checker.h: CheckOptions, the same switch as
// the use table; a compilation does not need it) and sorted once at its
// end, so the innermost expression at a position is a binary search and a
// walk out through the expressions around it.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/source.h"
#include "ir/types.h"

namespace herald::check {

struct ExprType {
  // No expression around this one.
  static constexpr std::uint32_t kNone = UINT32_MAX;

  SourceRange range;  // the expression as written
  // The innermost recorded expression around this one (its index in
  // ExprTypeTable::all()), or kNone; set by finish().
  std::uint32_t enclosing = kNone;
  const Type* type = nullptr;
};

class ExprTypeTable {
 public:
  // Until this is called, record() keeps nothing.
  void startRecording() { recording_ = true; }
  [[nodiscard]] bool recording() const { return recording_; }

  // `range` was checked as `type`; ignored for an empty range and for a
  // type that is null or not well formed. An expression checked twice
  // (one range recorded again) keeps its first record.
  void record(SourceRange range, const Type* type);
  // Sorts by position (an expression before those inside it), drops the
  // records repeated, and links each expression to the one around it; the
  // checker calls it once, when every expression is recorded.
  void finish();

  // The innermost expression whose range holds the byte at `offset` of
  // `file` (its end excluded), or null. Ranges nest as the syntax tree's
  // do, so this is the last expression beginning at or before `offset`,
  // or the nearest one around it that reaches past `offset`.
  [[nodiscard]] const ExprType* at(FileId file, std::uint32_t offset) const;

  [[nodiscard]] const std::vector<ExprType>& all() const { return exprs_; }

 private:
  bool recording_ = false;
  std::vector<ExprType> exprs_;  // by position, after finish()
};

}  // namespace herald::check
