#include "frontend/token.h"

#include <llvm/Support/ErrorHandling.h>

namespace herald {

std::string_view describeTokenKind(TokenKind kind) {
  switch (kind) {
#define TOKEN(Id, Describe) \
  case TokenKind::Id:       \
    return Describe;
#define KEYWORD(Id, Spelling) \
  case TokenKind::Id:         \
    return "'" Spelling "'";
#define PUNCT(Id, Spelling) \
  case TokenKind::Id:       \
    return "'" Spelling "'";
#include "frontend/token_kinds.def"
  }
  llvm_unreachable("TokenKind out of range");
}

std::string_view tokenKindName(TokenKind kind) {
  switch (kind) {
#define TOKEN(Id, Describe) \
  case TokenKind::Id:       \
    return #Id;
#define KEYWORD(Id, Spelling) \
  case TokenKind::Id:         \
    return #Id;
#define PUNCT(Id, Spelling) \
  case TokenKind::Id:       \
    return #Id;
#include "frontend/token_kinds.def"
  }
  llvm_unreachable("TokenKind out of range");
}

std::string_view durationUnitName(DurationUnit unit) {
  switch (unit) {
    case DurationUnit::Milliseconds:
      return "ms";
    case DurationUnit::Seconds:
      return "seconds";
    case DurationUnit::Minutes:
      return "minutes";
    case DurationUnit::Hours:
      return "hours";
    case DurationUnit::Days:
      return "days";
  }
  llvm_unreachable("DurationUnit out of range");
}

}  // namespace herald
