// The lexer (lang/lexer.re): every token kind, literals and their values,
// interpolation, comments and doc blocks. Errors: lexer_errors_test.cpp.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/lex_literals.h"
#include "lexer_test_util.h"

using namespace std::string_literals;
using herald::DurationUnit;
using lexer_test::lex;
using lexer_test::Lexed;
using lexer_test::Token;
using lexer_test::TokenKind;

namespace {

// A source that lexes to one token of `kind`, for the kinds whose spelling
// varies; keywords and punctuation use their own spelling.
const std::map<TokenKind, std::string>& variableKindSamples() {
  static const std::map<TokenKind, std::string> samples = {
      {TokenKind::EndOfFile, ""},
      {TokenKind::Identifier, "amount"},
      {TokenKind::IntLiteral, "1_000"},
      {TokenKind::FloatLiteral, "3.25"},
      {TokenKind::DurationLiteral, "7.days"},
      {TokenKind::StringLiteral, "\"text\""},
      {TokenKind::StringHead, "\"a \\(x) b\""},
      {TokenKind::StringMiddle, "\"a \\(x) b \\(y) c\""},
      {TokenKind::StringTail, "\"a \\(x) b\""},
  };
  return samples;
}

struct KindInfo {
  TokenKind kind;
  std::string_view name;
  std::string_view spelling;  // empty for TOKEN kinds
  bool hasFixedSpelling;
};

const std::vector<KindInfo>& allKinds() {
  static const std::vector<KindInfo> kinds = {
#define TOKEN(Id, Describe) {TokenKind::Id, #Id, "", false},
#define KEYWORD(Id, Spelling) {TokenKind::Id, #Id, Spelling, true},
#define PUNCT(Id, Spelling) {TokenKind::Id, #Id, Spelling, true},
#include "frontend/token_kinds.def"
  };
  return kinds;
}

}  // namespace

TEST_CASE("every token kind is produced from a sample") {
  for (const KindInfo& info : allKinds()) {
    CAPTURE(info.name);
    std::string sample;
    if (info.hasFixedSpelling) {
      sample = std::string(info.spelling);
    } else {
      auto it = variableKindSamples().find(info.kind);
      REQUIRE_MESSAGE(it != variableKindSamples().end(),
                      "no sample for a token kind");
      sample = it->second;
    }
    Lexed l = lex(sample);
    CHECK(l.errors().empty());
    bool found = false;
    for (const Token& token : l.tokens) found |= token.kind == info.kind;
    CHECK(found);
    if (info.hasFixedSpelling) {
      REQUIRE(l.tokens.size() == 2);
      CHECK(l.tokens[0].kind == info.kind);
      CHECK(l.tokens[0].range.begin == 0);
      CHECK(l.tokens[0].range.end == info.spelling.size());
    }
  }
}

TEST_CASE("token kinds have names and descriptions") {
  std::set<std::string_view> names;
  for (const KindInfo& info : allKinds()) {
    CAPTURE(info.name);
    CHECK(herald::tokenKindName(info.kind) == info.name);
    names.insert(herald::tokenKindName(info.kind));
    if (info.hasFixedSpelling) {
      CHECK(herald::describeTokenKind(info.kind) ==
            "'" + std::string(info.spelling) + "'");
    } else {
      CHECK_FALSE(herald::describeTokenKind(info.kind).empty());
    }
  }
  CHECK(names.size() == allKinds().size());
  CHECK(herald::describeTokenKind(TokenKind::LBrace) == "'{'");
  CHECK(herald::describeTokenKind(TokenKind::KwContext) == "'context'");
  CHECK(herald::describeTokenKind(TokenKind::Identifier) == "identifier");
}

TEST_CASE("keywords and identifiers") {
  for (const KindInfo& info : allKinds()) {
    if (!info.hasFixedSpelling || info.name.substr(0, 2) != "Kw") continue;
    CAPTURE(info.spelling);
    // A keyword is only a keyword as a whole word.
    for (const std::string& word :
         {std::string(info.spelling) + "s", std::string(info.spelling) + "_",
          "_" + std::string(info.spelling), std::string(info.spelling) + "1",
          "x" + std::string(info.spelling)}) {
      Lexed l = lex(word);
      REQUIRE(l.kinds().size() == 1);
      CHECK(l.kinds()[0] == TokenKind::Identifier);
    }
  }
  Lexed l = lex("Events schema self None Some Context _ _x __ _1 x_y9");
  CHECK(l.kinds() ==
        std::vector<TokenKind>{
            TokenKind::Identifier, TokenKind::Identifier, TokenKind::Identifier,
            TokenKind::Identifier, TokenKind::Identifier, TokenKind::Identifier,
            TokenKind::Underscore, TokenKind::Identifier, TokenKind::Identifier,
            TokenKind::Identifier, TokenKind::Identifier});
  CHECK(l.errors().empty());
  Lexed ev = lex("on event(e: E)");
  CHECK(ev.kinds()[1] == TokenKind::KwEvent);
}

TEST_CASE("multi-character operators are one token") {
  Lexed l = lex("a..b:=c=>d->e==f!=g<=h>=i&&j||k . : = - < > ! | @");
  std::vector<TokenKind> ops;
  for (TokenKind k : l.kinds()) {
    if (k != TokenKind::Identifier) ops.push_back(k);
  }
  CHECK(ops == std::vector<TokenKind>{
                   TokenKind::DotDot, TokenKind::ColonEq, TokenKind::FatArrow,
                   TokenKind::Arrow, TokenKind::EqEq, TokenKind::NotEq,
                   TokenKind::LtEq, TokenKind::GtEq, TokenKind::AmpAmp,
                   TokenKind::PipePipe, TokenKind::Dot, TokenKind::Colon,
                   TokenKind::Eq, TokenKind::Minus, TokenKind::Lt,
                   TokenKind::Gt, TokenKind::Bang, TokenKind::Pipe,
                   TokenKind::At});
  // Maximal munch: `...` is `..` then `.`, `-->`... is a comment.
  CHECK(lex("...").kinds() ==
        std::vector<TokenKind>{TokenKind::DotDot, TokenKind::Dot});
  CHECK(lex("x -->y").kinds() == std::vector<TokenKind>{TokenKind::Identifier});
  CHECK(lex("a->b").kinds()[1] == TokenKind::Arrow);
  CHECK(lex("a- >b").kinds()[1] == TokenKind::Minus);
}

TEST_CASE("integer literals") {
  struct Case {
    std::string text;
    std::uint64_t value;
  };
  for (const Case& c :
       {Case{"0", 0}, Case{"42", 42}, Case{"007", 7}, Case{"1_000", 1000},
        Case{"1_000_000", 1000000}, Case{"1_2_3", 123},
        Case{"9223372036854775807", INT64_MAX}}) {
    CAPTURE(c.text);
    Lexed l = lex(c.text);
    CHECK(l.errors().empty());
    REQUIRE(l.kinds() == std::vector<TokenKind>{TokenKind::IntLiteral});
    CHECK(l.tokens[0].intValue == c.value);
    CHECK(l.text(l.tokens[0]) == c.text);
  }
  // `-7` is unary minus applied to 7.
  Lexed neg = lex("-7");
  CHECK(neg.kinds() ==
        std::vector<TokenKind>{TokenKind::Minus, TokenKind::IntLiteral});
  CHECK(neg.tokens[1].intValue == 7);
}

TEST_CASE("the most negative Int is written only under a prefix minus") {
  for (const char* text :
       {"-9223372036854775808", "f(-9223372036854775808)",
        "1 - -9223372036854775808", "x\n-9223372036854775808",
        "if -9223372036854775808 < x", "[1, - 9223372036854775808]"}) {
    CAPTURE(text);
    Lexed l = lex(text);
    CHECK(l.errors().empty());
  }
  Lexed l = lex("-9223372036854775808");
  CHECK(l.tokens[1].intValue == 9223372036854775808ULL);
}

TEST_CASE("float literals") {
  struct Case {
    std::string text;
    double value;
  };
  for (const Case& c :
       {Case{"3.25", 3.25}, Case{"0.5", 0.5}, Case{"1_000.000_1", 1000.0001},
        Case{"10.0", 10.0}, Case{"0.1", 0.1}}) {
    CAPTURE(c.text);
    Lexed l = lex(c.text);
    CHECK(l.errors().empty());
    REQUIRE(l.kinds() == std::vector<TokenKind>{TokenKind::FloatLiteral});
    CHECK(l.tokens[0].floatValue == c.value);
  }
  for (const std::string& bad : {"1.5x"s, "1.2_"s, "1.0__1"s, "1__2.5"s}) {
    CAPTURE(bad);
    Lexed l = lex(bad);
    CHECK(l.kinds() == std::vector<TokenKind>{TokenKind::FloatLiteral});
    CHECK(l.errors() ==
          std::vector<std::string>{"E0005@0-" + std::to_string(bad.size())});
  }
  // Not floats: a range, member access on an integer, a trailing dot.
  CHECK(lex("1..5").kinds() == std::vector<TokenKind>{TokenKind::IntLiteral,
                                                      TokenKind::DotDot,
                                                      TokenKind::IntLiteral});
  CHECK(lex("1.foo").kinds() == std::vector<TokenKind>{TokenKind::IntLiteral,
                                                       TokenKind::Dot,
                                                       TokenKind::Identifier});
  CHECK(lex("1.").kinds() ==
        std::vector<TokenKind>{TokenKind::IntLiteral, TokenKind::Dot});
  CHECK(lex("x.1").kinds() == std::vector<TokenKind>{TokenKind::Identifier,
                                                     TokenKind::Dot,
                                                     TokenKind::IntLiteral});
}

TEST_CASE("duration literals, every unit") {
  struct Case {
    std::string text;
    std::uint64_t value;
    DurationUnit unit;
  };
  for (const Case& c : {Case{"250.ms", 250, DurationUnit::Milliseconds},
                        Case{"1.second", 1, DurationUnit::Seconds},
                        Case{"30.seconds", 30, DurationUnit::Seconds},
                        Case{"1.minute", 1, DurationUnit::Minutes},
                        Case{"5.minutes", 5, DurationUnit::Minutes},
                        Case{"1.hour", 1, DurationUnit::Hours},
                        Case{"2.hours", 2, DurationUnit::Hours},
                        Case{"1.day", 1, DurationUnit::Days},
                        Case{"7.days", 7, DurationUnit::Days},
                        Case{"1_000.ms", 1000, DurationUnit::Milliseconds}}) {
    CAPTURE(c.text);
    Lexed l = lex(c.text);
    CHECK(l.errors().empty());
    REQUIRE(l.kinds() == std::vector<TokenKind>{TokenKind::DurationLiteral});
    CHECK(l.tokens[0].intValue == c.value);
    CHECK(l.tokens[0].durationUnit == c.unit);
    CHECK(l.tokens[0].range.end == c.text.size());
  }
  CHECK(herald::durationUnitName(DurationUnit::Milliseconds) == "ms");
  CHECK(herald::durationUnitName(DurationUnit::Seconds) == "seconds");
  CHECK(herald::durationUnitName(DurationUnit::Minutes) == "minutes");
  CHECK(herald::durationUnitName(DurationUnit::Hours) == "hours");
  CHECK(herald::durationUnitName(DurationUnit::Days) == "days");

  // A longer word is not a unit: integer, `.`, identifier.
  for (const std::string& text :
       {"1.daysx"s, "1.msec"s, "1.day_"s, "2.hours2"s, "3.Days"s}) {
    CAPTURE(text);
    CHECK(lex(text).kinds() == std::vector<TokenKind>{TokenKind::IntLiteral,
                                                      TokenKind::Dot,
                                                      TokenKind::Identifier});
  }
  // Only directly attached: `7 .days` and `7. days` are not durations.
  CHECK(lex("7 .days").kinds()[0] == TokenKind::IntLiteral);
  CHECK(lex("7. days").kinds()[0] == TokenKind::IntLiteral);
  // A float cannot carry a unit.
  CHECK(lex("1.5.days").kinds() ==
        std::vector<TokenKind>{TokenKind::FloatLiteral, TokenKind::Dot,
                               TokenKind::Identifier});
  // A bad magnitude is reported on the digits only.
  Lexed bad = lex("1__0.ms");
  CHECK(bad.kinds() == std::vector<TokenKind>{TokenKind::DurationLiteral});
  CHECK(bad.errors() == std::vector<std::string>{"E0005@0-4"});
  CHECK(bad.tokens[0].durationUnit == DurationUnit::Milliseconds);
}

TEST_CASE("string literals and escapes") {
  struct Case {
    std::string text;
    std::string value;
  };
  for (const Case& c :
       {Case{R"("")", ""}, Case{R"("hello world")", "hello world"},
        Case{R"("a\nb")", "a\nb"}, Case{R"("a\tb")", "a\tb"},
        Case{R"("say \"hi\"")", "say \"hi\""},
        Case{R"("back\\slash")", "back\\slash"}, Case{R"("\u{41}")", "A"},
        Case{R"("\u{e9}")", "\xC3\xA9"}, Case{R"("\u{20AC}")", "\xE2\x82\xAC"},
        Case{R"("\u{1F600}")", "\xF0\x9F\x98\x80"},
        Case{R"("\u{10FFFF}")", "\xF4\x8F\xBF\xBF"},
        Case{R"("\u{000041}")", "A"},
        Case{"\"caf\xC3\xA9 \xE2\x82\xAC\"", "caf\xC3\xA9 \xE2\x82\xAC"},
        Case{"\"tab\tinside\"", "tab\tinside"},
        Case{"\"nul\0inside\""s, "nul\0inside"s},
        Case{R"("-- not a comment")", "-- not a comment"},
        Case{R"("( ) { } \\(")", "( ) { } \\("}}) {
    CAPTURE(c.text);
    Lexed l = lex(c.text);
    CHECK(l.errors().empty());
    REQUIRE(l.kinds() == std::vector<TokenKind>{TokenKind::StringLiteral});
    CHECK(l.tokens[0].stringValue == c.value);
    CHECK(l.tokens[0].range.begin == 0);
    CHECK(l.tokens[0].range.end == c.text.size());
  }
}

TEST_CASE("interpolation splits a string into head, middle and tail") {
  Lexed l = lex(R"("a \(x) b \(y) c")");
  CHECK(l.errors().empty());
  REQUIRE(l.kinds() ==
          std::vector<TokenKind>{TokenKind::StringHead, TokenKind::Identifier,
                                 TokenKind::StringMiddle, TokenKind::Identifier,
                                 TokenKind::StringTail});
  CHECK(l.tokens[0].stringValue == "a ");
  CHECK(l.tokens[2].stringValue == " b ");
  CHECK(l.tokens[4].stringValue == " c");
  // Each piece spans its delimiters: `"a \(`, `) b \(`, `) c"`.
  CHECK(l.text(l.tokens[0]) == R"("a \()");
  CHECK(l.text(l.tokens[1]) == "x");
  CHECK(l.text(l.tokens[2]) == R"() b \()");
  CHECK(l.text(l.tokens[4]) == R"() c")");

  Lexed bare = lex(R"~("\(x)")~");
  REQUIRE(bare.kinds() == std::vector<TokenKind>{TokenKind::StringHead,
                                                 TokenKind::Identifier,
                                                 TokenKind::StringTail});
  CHECK(bare.tokens[0].stringValue.empty());
  CHECK(bare.tokens[2].stringValue.empty());

  Lexed adjacent = lex(R"~("\(a)\(b)")~");
  CHECK(adjacent.kinds() ==
        std::vector<TokenKind>{TokenKind::StringHead, TokenKind::Identifier,
                               TokenKind::StringMiddle, TokenKind::Identifier,
                               TokenKind::StringTail});
  Lexed escaped = lex(R"("x\n\(a)\t\"")");
  CHECK(escaped.tokens[0].stringValue == "x\n");
  CHECK(escaped.tokens[2].stringValue == "\t\"");
}

TEST_CASE("interpolation nests parentheses, braces and strings") {
  Lexed parens = lex(R"("v=\(f(a, (b + c))) end")");
  CHECK(parens.errors().empty());
  CHECK(parens.kinds() ==
        std::vector<TokenKind>{
            TokenKind::StringHead, TokenKind::Identifier, TokenKind::LParen,
            TokenKind::Identifier, TokenKind::Comma, TokenKind::LParen,
            TokenKind::Identifier, TokenKind::Plus, TokenKind::Identifier,
            TokenKind::RParen, TokenKind::RParen, TokenKind::StringTail});
  CHECK(parens.tokens.back().kind == TokenKind::EndOfFile);
  CHECK(parens.tokens[11].stringValue == " end");

  Lexed braces = lex(R"("\(P { a: xs[0], b: { (1) } }) done")");
  CHECK(braces.errors().empty());
  CHECK(braces.kinds().back() == TokenKind::StringTail);
  CHECK(braces.tokens[braces.tokens.size() - 2].stringValue == " done");

  // A `)` inside a nested string is text, not the end of the interpolation.
  Lexed nested = lex(R"~("a \(f("b \(g(")")) c")) d")~");
  CHECK(nested.errors().empty());
  REQUIRE(nested.kinds() ==
          std::vector<TokenKind>{TokenKind::StringHead,     // "a \(
                                 TokenKind::Identifier,     // f
                                 TokenKind::LParen,         // (
                                 TokenKind::StringHead,     // "b \(
                                 TokenKind::Identifier,     // g
                                 TokenKind::LParen,         // (
                                 TokenKind::StringLiteral,  // ")"
                                 TokenKind::RParen,         // ) of g(
                                 TokenKind::StringTail,     // ) c"
                                 TokenKind::RParen,         // )
                                 TokenKind::StringTail});   // ) d"
  CHECK(nested.tokens[0].stringValue == "a ");
  CHECK(nested.tokens[3].stringValue == "b ");
  CHECK(nested.tokens[6].stringValue == ")");
  CHECK(nested.tokens[8].stringValue == " c");
  CHECK(nested.tokens[10].stringValue == " d");

  // Three levels deep.
  Lexed deep = lex(R"~("1\("2\("3\(x)")")")~");
  CHECK(deep.errors().empty());
  CHECK(deep.kinds() ==
        std::vector<TokenKind>{TokenKind::StringHead, TokenKind::StringHead,
                               TokenKind::StringHead, TokenKind::Identifier,
                               TokenKind::StringTail, TokenKind::StringTail,
                               TokenKind::StringTail});

  // After the string, brackets count normally again.
  Lexed after = lex(R"~(("\(x)"))~");
  CHECK(after.kinds() ==
        std::vector<TokenKind>{TokenKind::LParen, TokenKind::StringHead,
                               TokenKind::Identifier, TokenKind::StringTail,
                               TokenKind::RParen});
}

TEST_CASE("comments") {
  Lexed l =
      lex("a -- comment ( \" \\( \xE2\x82\xAC\nb--tight\n-- whole line\nc -- "
          "at end");
  CHECK(l.errors().empty());
  REQUIRE(l.kinds() == std::vector<TokenKind>{TokenKind::Identifier,
                                              TokenKind::Identifier,
                                              TokenKind::Identifier});
  CHECK(l.text(l.tokens[1]) == "b");
  CHECK(l.text(l.tokens[2]) == "c");
  CHECK(l.tokens[3].kind == TokenKind::EndOfFile);
  // `---` that is not alone on its line is an ordinary comment.
  for (const std::string& text :
       {"x ---\ny"s, "---x\ny"s, "--- text\ny"s, "----\ny"s, "  ---  y\nz"s}) {
    CAPTURE(text);
    Lexed c = lex(text);
    CHECK(c.errors().empty());
    for (const Token& token : c.tokens)
      CHECK(token.doc == herald::SourceRange{});
  }
}

TEST_CASE("doc blocks attach to the next token") {
  const std::string text =
      "x\n---\nFirst line.\n  Second line.\n---\n\n-- a comment\ncontext a\n";
  Lexed l = lex(text);
  CHECK(l.errors().empty());
  REQUIRE(l.kinds() == std::vector<TokenKind>{TokenKind::Identifier,
                                              TokenKind::KwContext,
                                              TokenKind::Identifier});
  CHECK(l.tokens[0].doc == herald::SourceRange{});
  const herald::SourceRange doc = l.tokens[1].doc;
  CHECK(doc.begin == 6);
  CHECK(l.docText(l.tokens[1]) == "First line.\n  Second line.");
  CHECK(l.tokens[1].firstOnLine);
  // Only the next token gets it.
  CHECK(l.tokens[2].doc == herald::SourceRange{});

  SUBCASE("markers with blanks around them and CRLF") {
    Lexed c = lex("  ---  \r\ndoc\r\n\t---\r\nfn");
    CHECK(c.errors().empty());
    REQUIRE(c.kinds() == std::vector<TokenKind>{TokenKind::KwFn});
    CHECK(c.docText(c.tokens[0]) == "doc");
  }
  SUBCASE("an empty block attaches nothing") {
    Lexed c = lex("---\n---\nfn");
    CHECK(c.errors().empty());
    CHECK(c.tokens[0].doc == herald::SourceRange{});
  }
  SUBCASE("the later of two blocks wins") {
    Lexed c = lex("---\none\n---\n---\ntwo\n---\nfn");
    CHECK(c.docText(c.tokens[0]) == "two");
  }
  SUBCASE("code-like text inside is not lexed") {
    Lexed c = lex("---\n\"unterminated $ 1__0\n---\nfn");
    CHECK(c.errors().empty());
    CHECK(c.kinds() == std::vector<TokenKind>{TokenKind::KwFn});
  }
  SUBCASE("unterminated") {
    Lexed c = lex("fn\n  ---\nnever closed\nfn x");
    CHECK(c.errors() == std::vector<std::string>{"E0006@5-8"});
    CHECK(c.message() == "doc comment opened with '---' is never closed");
    CHECK(c.kinds() == std::vector<TokenKind>{TokenKind::KwFn});
    Lexed atEnd = lex("---");
    CHECK(atEnd.errors() == std::vector<std::string>{"E0006@0-3"});
  }
}

TEST_CASE("firstOnLine") {
  Lexed l = lex("a b\n  c (d)\n-- comment\n\n(e\n---\ndoc\n---\n[f] -g\r\n-h");
  std::vector<std::pair<std::string, bool>> got;
  for (const Token& token : l.tokens) {
    if (token.kind != TokenKind::EndOfFile) {
      got.emplace_back(std::string(l.text(token)), token.firstOnLine);
    }
  }
  CHECK(got == std::vector<std::pair<std::string, bool>>{{"a", true},
                                                         {"b", false},
                                                         {"c", true},
                                                         {"(", false},
                                                         {"d", false},
                                                         {")", false},
                                                         {"(", true},
                                                         {"e", false},
                                                         {"[", true},
                                                         {"f", false},
                                                         {"]", false},
                                                         {"-", false},
                                                         {"g", false},
                                                         {"-", true},
                                                         {"h", false}});
  // Tokens inside an interpolation are never first on their line.
  Lexed s = lex("\"\\(x)\"");
  CHECK(s.tokens[0].firstOnLine);
  CHECK_FALSE(s.tokens[1].firstOnLine);
  CHECK_FALSE(s.tokens[2].firstOnLine);
  // A stray character is not a token: the next one is still first.
  Lexed stray = lex("a\n$ b");
  CHECK(stray.tokens[1].firstOnLine);
}

TEST_CASE("token ranges are byte offsets") {
  Lexed l = lex("let total := 1_000 + \"caf\xC3\xA9\" -- x\n  7.days");
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  for (const Token& token : l.tokens) {
    ranges.emplace_back(token.range.begin, token.range.end);
    CHECK(token.range.file == 0);
  }
  CHECK(ranges ==
        std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 3},
                                                             {4, 9},
                                                             {10, 12},
                                                             {13, 18},
                                                             {19, 20},
                                                             {21, 28},
                                                             {36, 42},
                                                             {42, 42}});
  // A byte-order mark is skipped.
  Lexed bom = lex("\xEF\xBB\xBFx");
  CHECK(bom.errors().empty());
  CHECK(bom.tokens[0].range.begin == 3);
  CHECK(bom.tokens[0].firstOnLine);
}

TEST_CASE("dumpTokens") {
  Lexed l =
      lex("---\nThe order.\n---\ncontext a {\n  let n = 1_000 + 2.5\n"
          "  x := \"paid \\(amount) at\\t\\(7.days)\"\n}");
  CHECK(herald::dumpTokens(*l.file, l.tokens) ==
        "4:1 KwContext 'context' doc \"The order.\"\n"
        "4:9 Identifier 'a'\n"
        "4:11 LBrace '{'\n"
        "5:3 KwLet 'let'\n"
        "5:7 Identifier 'n'\n"
        "5:9 Eq '='\n"
        "5:11 IntLiteral '1_000' = 1000\n"
        "5:17 Plus '+'\n"
        "5:19 FloatLiteral '2.5' = 2.5\n"
        "6:3 Identifier 'x'\n"
        "6:5 ColonEq ':='\n"
        "6:8 StringHead '\"paid \\\\(' = \"paid \"\n"
        "6:16 Identifier 'amount'\n"
        "6:22 StringMiddle ') at\\\\t\\\\(' = \" at\\t\"\n"
        "6:30 DurationLiteral '7.days' = 7 days\n"
        "6:36 StringTail ')\"' = \"\"\n"
        "7:1 RBrace '}'\n"
        "7:2 EndOfFile\n");
  // Bytes that would break the line-per-token format are escaped.
  Lexed raw = lex("\"a\0b\xFF'\""s);
  CHECK(herald::dumpTokens(*raw.file, raw.tokens) ==
        "1:1 StringLiteral '\"a\\x00b\\xFF\\'\"' = \"a\\x00b\xEF\xBF\xBD'\"\n"
        "1:8 EndOfFile\n");
}

TEST_CASE("literal helpers") {
  auto bytes = [](std::string_view s) {
    return reinterpret_cast<const unsigned char*>(s.data());
  };
  auto length = [&](std::string_view s) {
    return herald::lex::utf8Length(bytes(s), bytes(s) + s.size());
  };
  CHECK(length("a") == 1);
  CHECK(length("\xC2\x80") == 2);
  CHECK(length("\xDF\xBF") == 2);
  CHECK(length("\xE0\xA0\x80") == 3);
  CHECK(length("\xED\x9F\xBF") == 3);
  CHECK(length("\xEF\xBF\xBF") == 3);
  CHECK(length("\xF0\x90\x80\x80") == 4);
  CHECK(length("\xF4\x8F\xBF\xBF") == 4);
  CHECK(length("\xC1\xBF") == 0);
  CHECK(length("\x80") == 0);
  CHECK(length("\xF5\x80\x80\x80") == 0);
  // Bounded by `end` even when continuation bytes follow in memory.
  std::string_view cut("\xE2\x82\xAC", 3);
  CHECK(herald::lex::utf8Length(bytes(cut), bytes(cut) + 2) == 0);

  for (char32_t scalar : {U'\u0000', U'\u007F', U'\u0080', U'\u07FF', U'\u0800',
                          U'\uFFFF', U'\U00010000', U'\U0010FFFF'}) {
    std::string encoded;
    herald::lex::appendUtf8(encoded, scalar);
    const unsigned n = length(encoded);
    REQUIRE(n == encoded.size());
    CHECK(herald::lex::decodeUtf8(bytes(encoded), n) == scalar);
  }
}
