#include "frontend/parser_keywords.h"

#include <algorithm>
#include <array>

namespace herald {
namespace {

using Sym = yy::Parser::symbol_kind;

constexpr std::array kSpellableDeclKeywords = {
    DeclKeyword{"type", TokenKind::KwType, Sym::S_KW_TYPE},
    DeclKeyword{"event", TokenKind::KwEvent, Sym::S_KW_EVENT},
    DeclKeyword{"actor", TokenKind::KwActor, Sym::S_KW_ACTOR},
    DeclKeyword{"capability", TokenKind::KwCapability, Sym::S_KW_CAPABILITY},
    DeclKeyword{"agent", TokenKind::KwAgent, Sym::S_KW_AGENT},
    DeclKeyword{"service", TokenKind::KwService, Sym::S_KW_SERVICE},
    DeclKeyword{"consumes", TokenKind::KwConsumes, Sym::S_KW_CONSUMES},
    DeclKeyword{"context", TokenKind::KwContext, Sym::S_KW_CONTEXT},
    DeclKeyword{"store", TokenKind::KwStore, Sym::S_KW_STORE},
    DeclKeyword{"invariant", TokenKind::KwInvariant, Sym::S_KW_INVARIANT},
};

}  // namespace

const DeclKeyword* misspeltDeclKeyword(llvm::StringRef word) {
  const auto limit =
      std::max<unsigned>(1, static_cast<unsigned>((word.size() + 2) / 3));
  const DeclKeyword* best = nullptr;
  unsigned bestDistance = limit + 1;
  for (const DeclKeyword& k : kSpellableDeclKeywords) {
    const llvm::StringRef spelling(k.spelling.data(), k.spelling.size());
    if (spelling == word) continue;
    const unsigned d = spelling.edit_distance(word, true, limit);
    if (d < bestDistance) {
      bestDistance = d;
      best = &k;
    }
  }
  return best;
}

}  // namespace herald
