// Mechanical mutations of Herald source, chosen deterministically from a
// seed: what an editor holds while someone is typing, and worse.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace herald::robustness {

// splitmix64: the same sequence on every platform and standard library
// (std::uniform_int_distribution is implementation-defined).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform enough in [0, bound); bound > 0.
  std::size_t below(std::size_t bound) { return next() % bound; }

 private:
  std::uint64_t state_;
};

// FNV-1a, to derive a per-case seed from its name.
[[nodiscard]] std::uint64_t hashName(const std::string& name);

enum class MutationKind : std::uint8_t {
  DeleteToken,
  SwapIdentifiers,
  TruncateMidToken,
  TruncateAtByte,
  DuplicateLine,
  DropClosingBrace,
};

[[nodiscard]] const char* mutationKindName(MutationKind kind);

struct Mutation {
  MutationKind kind;
  std::string detail;  // what exactly changed, for the failure message
  std::string text;    // the mutated file
};

// The tokens of one file as byte ranges, from the real lexer (lexical
// errors are ignored: the ranges are all that is needed).
struct TokenSpan {
  std::uint32_t begin;
  std::uint32_t end;
  bool identifier;
  bool closingBrace;
};
[[nodiscard]] std::vector<TokenSpan> tokenize(const std::string& name,
                                              const std::string& text);

// Applies one mutation of `kind` to `text`. `ordinal` and `planned` say
// which of the `planned` mutations of this kind on this file it is: token
// deletions take every k-th token (k = tokens / planned), the middle one of
// each stride; the other kinds draw their position from `rng`. Returns
// false when the file offers nothing to mutate that way (no `}`, fewer than
// two distinct identifiers, ...).
bool mutate(MutationKind kind, const std::string& text,
            const std::vector<TokenSpan>& tokens, std::size_t ordinal,
            std::size_t planned, Rng& rng, Mutation& out);

}  // namespace herald::robustness
