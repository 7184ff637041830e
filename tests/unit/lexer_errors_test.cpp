// The lexer's diagnostics: each lexical error at its location, recovery
// after it, and termination on arbitrary bytes.
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "lexer_test_util.h"

using namespace std::string_literals;
using lexer_test::DiagnosticEngine;
using lexer_test::lex;
using lexer_test::Lexed;
using lexer_test::SourceFile;
using lexer_test::Token;
using lexer_test::TokenKind;

constexpr const char* kNoFit =
    "the value does not fit in Int (the largest is 9223372036854775807)";
constexpr const char* kOnlyNegated =
    "the value does not fit in Int (the largest is 9223372036854775807; "
    "only '-9223372036854775808' may be written)";

TEST_CASE("invalid integer literals are reported and lexing continues") {
  struct Case {
    std::string text;
    std::string reason;
  };
  for (const Case& c : {Case{"1__0", "'_' must sit between two digits"},
                        Case{"1_", "'_' must sit between two digits"},
                        Case{"1_000_", "'_' must sit between two digits"},
                        Case{"18446744073709551616", kNoFit},
                        Case{"99999999999999999999999", kNoFit},
                        Case{"9223372036854775809", kNoFit},
                        Case{"9223372036854775808", kOnlyNegated},
                        Case{"12abc", "'a' is not a decimal digit"},
                        Case{"1e5", "'e' is not a decimal digit"},
                        Case{"0x1F", "only decimal literals are supported"},
                        Case{"0b101", "only decimal literals are supported"}}) {
    CAPTURE(c.text);
    Lexed l = lex("x " + c.text + " y");
    CHECK(l.kinds() == std::vector<TokenKind>{TokenKind::Identifier,
                                              TokenKind::IntLiteral,
                                              TokenKind::Identifier});
    CHECK(l.tokens[1].intValue == 0);
    REQUIRE(l.errors() == std::vector<std::string>{
                              "E0005@2-" + std::to_string(2 + c.text.size())});
    CHECK(l.message() ==
          "invalid number literal '" + c.text + "': " + c.reason);
  }
}

TEST_CASE("2^63 after a binary minus or alone does not fit in Int") {
  for (const char* text :
       {"x -9223372036854775808", "f() -9223372036854775808",
        "a[0] - 9223372036854775808", "5.seconds -9223372036854775808",
        "true -9223372036854775808", "-(9223372036854775808)",
        "--9223372036854775808\n9223372036854775808"}) {
    CAPTURE(text);
    Lexed l = lex(text);
    REQUIRE(l.errors().size() == 1);
    CHECK(l.message() ==
          std::string("invalid number literal '9223372036854775808': ") +
              kOnlyNegated);
  }
}

TEST_CASE("invalid escapes are reported on the escape; the string goes on") {
  struct Case {
    std::string text;
    std::string error;
    std::string message;
    std::string value;
  };
  for (const Case& c : {
           Case{R"("a\qb")", "E0002@2-4",
                "invalid escape sequence '\\q' in string literal", "ab"},
           Case{R"("a\rb")", "E0002@2-4",
                "invalid escape sequence '\\r' in string literal", "ab"},
           Case{R"("\0")", "E0002@1-3",
                "invalid escape sequence '\\0' in string literal", ""},
           Case{"\"x\\\xC3\xA9y\"", "E0002@2-5",
                "invalid escape sequence '\\\xC3\xA9' in string literal", "xy"},
           Case{"\"x\\ y\"", "E0002@2-4",
                "invalid escape sequence '\\ followed by U+0020' in string "
                "literal",
                "xy"},
           Case{R"("\u{}")", "E0003@1-5",
                "invalid Unicode escape: '\\u{...}' takes 1 to 6 hex digits",
                ""},
           Case{R"("\u{1234567}")", "E0003@1-12",
                "invalid Unicode escape: '\\u{...}' takes 1 to 6 hex digits",
                ""},
           Case{R"("\u{110000}")", "E0003@1-11",
                "invalid Unicode escape: U+110000 is beyond U+10FFFF, the "
                "last Unicode scalar",
                ""},
           Case{R"("\u{D800}")", "E0003@1-9",
                "invalid Unicode escape: U+D800 is a surrogate, not a "
                "Unicode scalar",
                ""},
           Case{R"("\u{dfff}")", "E0003@1-9",
                "invalid Unicode escape: U+DFFF is a surrogate, not a "
                "Unicode scalar",
                ""},
           Case{R"("\u{12g}")", "E0003@1-8",
                "invalid Unicode escape: 'g' is not a hex digit", ""},
           Case{R"("\u{41 x")", "E0003@1-6",
                "invalid Unicode escape: missing '}' after the hex digits",
                " x"},
           Case{R"("\u41")", "E0003@1-3",
                "invalid Unicode escape: '\\u' must be followed by '{hex "
                "digits}'",
                "41"},
       }) {
    CAPTURE(c.text);
    Lexed l = lex(c.text + " next");
    REQUIRE(l.errors() == std::vector<std::string>{c.error});
    CHECK(l.message() == c.message);
    REQUIRE(l.kinds() == std::vector<TokenKind>{TokenKind::StringLiteral,
                                                TokenKind::Identifier});
    CHECK(l.tokens[0].stringValue == c.value);
  }
}

TEST_CASE("unterminated strings are reported at the opening quote") {
  SUBCASE("plain, then the next line lexes") {
    Lexed l = lex("x = \"abc\ny");
    CHECK(l.errors() == std::vector<std::string>{"E0001@4-5"});
    CHECK(l.message() == "unterminated string literal");
    REQUIRE(l.kinds() == std::vector<TokenKind>{
                             TokenKind::Identifier, TokenKind::Eq,
                             TokenKind::StringLiteral, TokenKind::Identifier});
    CHECK(l.tokens[2].stringValue == "abc");
    CHECK(l.text(l.tokens[2]) == "\"abc");
    CHECK(l.tokens[3].firstOnLine);
    // The fix-it closes the string at the end of the line.
    REQUIRE(l.diags.diagnostics()[0].fixits.size() == 1);
    CHECK(l.diags.diagnostics()[0].fixits[0].range.begin == 8);
    CHECK(l.diags.diagnostics()[0].fixits[0].replacement == "\"");
  }
  SUBCASE("at the end of the file") {
    Lexed l = lex("\"abc");
    CHECK(l.errors() == std::vector<std::string>{"E0001@0-1"});
    CHECK(l.kinds() == std::vector<TokenKind>{TokenKind::StringLiteral});
  }
  SUBCASE("with CRLF line ends") {
    Lexed l = lex("\"abc\r\ny");
    CHECK(l.errors() == std::vector<std::string>{"E0001@0-1"});
    CHECK(l.tokens[0].stringValue == "abc");
    CHECK(l.tokens[1].firstOnLine);
  }
  SUBCASE("after an interpolation") {
    Lexed l = lex("\"a \\(x) b\ny");
    CHECK(l.errors() == std::vector<std::string>{"E0001@0-1"});
    CHECK(l.kinds() ==
          std::vector<TokenKind>{TokenKind::StringHead, TokenKind::Identifier,
                                 TokenKind::StringTail, TokenKind::Identifier});
    CHECK(l.tokens[2].stringValue == " b");
  }
  SUBCASE("inside an interpolation: the string is closed with an empty tail") {
    Lexed l = lex("\"a \\(f(x\ny");
    CHECK(l.errors() == std::vector<std::string>{"E0001@0-1"});
    REQUIRE(l.kinds() == std::vector<TokenKind>{
                             TokenKind::StringHead, TokenKind::Identifier,
                             TokenKind::LParen, TokenKind::Identifier,
                             TokenKind::StringTail, TokenKind::Identifier});
    CHECK(l.tokens[4].range.begin == 8);
    CHECK(l.tokens[4].range.end == 8);
    CHECK(l.tokens[5].firstOnLine);
    // The note points at the `\(` left open.
    const herald::Diagnostic& d = l.diags.diagnostics()[0];
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].hasRange);
    CHECK(d.notes[0].range.begin == 3);
    CHECK(d.notes[0].range.end == 5);
    CHECK(d.notes[0].message == "this interpolation is not closed by ')'");
  }
  SUBCASE("a quote meant to close the string opens one inside the \\(") {
    Lexed l = lex("\"value \\(x\"\nnext");
    CHECK(l.errors() == std::vector<std::string>{"E0001@0-1"});
    CHECK(l.kinds() ==
          std::vector<TokenKind>{TokenKind::StringHead, TokenKind::Identifier,
                                 TokenKind::StringLiteral,
                                 TokenKind::StringTail, TokenKind::Identifier});
  }
  SUBCASE("nested strings inside an interpolation, at end of file") {
    Lexed l = lex("\"a \\(\"b \\(\"c");
    // One error for the whole nest, at the outermost string.
    CHECK(l.errors() == std::vector<std::string>{"E0001@0-1"});
    CHECK(l.kinds() ==
          std::vector<TokenKind>{TokenKind::StringHead, TokenKind::StringHead,
                                 TokenKind::StringLiteral,
                                 TokenKind::StringTail, TokenKind::StringTail});
  }
  SUBCASE("a backslash at the end of the line") {
    Lexed l = lex("\"abc\\\nx");
    CHECK(l.errors() == std::vector<std::string>{"E0002@4-5", "E0001@0-1"});
    CHECK(l.message(0) == "invalid escape sequence '\\' in string literal");
    CHECK(l.diags.diagnostics()[1].fixits.empty());
    CHECK(l.kinds().back() == TokenKind::Identifier);
  }
}

TEST_CASE("stray characters are named and skipped") {
  struct Case {
    std::string text;
    std::string error;
    std::string name;
  };
  for (const Case& c :
       {Case{"a $ b", "E0004@2-3", "'$'"}, Case{"a # b", "E0004@2-3", "'#'"},
        Case{"a ; b", "E0004@2-3", "';'"}, Case{"a & b", "E0004@2-3", "'&'"},
        Case{"a ' b", "E0004@2-3", "'''"}, Case{"a \\ b", "E0004@2-3", "'\\'"},
        Case{"a \x01 b", "E0004@2-3", "U+0001"},
        Case{"a \f b", "E0004@2-3", "U+000C"},
        Case{"a \x7F b", "E0004@2-3", "U+007F"},
        Case{"a \0 b"s, "E0004@2-3", "U+0000"},
        Case{"a \xC3\xA9 b", "E0004@2-4", "'\xC3\xA9' (U+00E9)"},
        Case{"a \xE2\x82\xAC b", "E0004@2-5", "'\xE2\x82\xAC' (U+20AC)"},
        Case{"a \xF0\x9F\x98\x80 b", "E0004@2-6",
             "'\xF0\x9F\x98\x80' (U+1F600)"}}) {
    CAPTURE(c.text);
    Lexed l = lex(c.text);
    REQUIRE(l.errors() == std::vector<std::string>{c.error});
    CHECK(l.message() == "unexpected character " + c.name + " in source");
    CHECK(l.kinds() ==
          std::vector<TokenKind>{TokenKind::Identifier, TokenKind::Identifier});
  }
  // A run of stray characters is one diagnostic over the run; a byte that
  // can begin a token (`&` of `&&`) or a blank ends it.
  Lexed run = lex("$$#");
  CHECK(run.errors() == std::vector<std::string>{"E0004@0-3"});
  CHECK(run.message() ==
        "unexpected character '$' and the 2 characters after it in source");
  CHECK(lex("$ $").errors() ==
        std::vector<std::string>{"E0004@0-1", "E0004@2-3"});
  CHECK(lex("$&&").errors() == std::vector<std::string>{"E0004@0-1"});
  // A NUL does not end the file.
  Lexed nul = lex("a\0b\0"s);
  CHECK(nul.kinds() ==
        std::vector<TokenKind>{TokenKind::Identifier, TokenKind::Identifier});
  CHECK(nul.errors() == std::vector<std::string>{"E0004@1-2", "E0004@3-4"});
  CHECK(nul.tokens.back().range.begin == 4);
}

TEST_CASE("invalid UTF-8 is one diagnostic per run of bad bytes") {
  SUBCASE("in code") {
    Lexed l = lex("a \xFF\xFE\x80 b \xC3 c");
    CHECK(l.errors() == std::vector<std::string>{"E0007@2-5", "E0007@8-9"});
    CHECK(l.message() == "source is not valid UTF-8");
    CHECK(l.kinds().size() == 3);
  }
  SUBCASE("overlong forms, surrogates and truncated sequences") {
    for (const std::string& bad :
         {"\xC0\x80"s, "\xE0\x80\x80"s, "\xED\xA0\x80"s, "\xF4\x90\x80\x80"s,
          "\xF8\x88\x80\x80\x80"s, "\xE2\x82"s}) {
      CAPTURE(bad.size());
      Lexed l = lex("x" + bad);
      REQUIRE(l.errors().size() == 1);
      CHECK(l.errors()[0] == "E0007@1-" + std::to_string(1 + bad.size()));
    }
  }
  SUBCASE("in a string: replaced by U+FFFD") {
    Lexed l =
        lex("\"a\xFF\xFE"
            "b\" c");
    CHECK(l.errors() == std::vector<std::string>{"E0007@2-4"});
    CHECK(l.tokens[0].stringValue ==
          "a\xEF\xBF\xBD"
          "b");
    CHECK(l.kinds().size() == 2);
  }
  SUBCASE("in a comment and a doc block") {
    Lexed l = lex("-- bad \xFF here\n---\ndoc \xC3\x28\n---\nx");
    CHECK(l.errors() == std::vector<std::string>{"E0007@7-8", "E0007@22-23"});
    CHECK(l.kinds() == std::vector<TokenKind>{TokenKind::Identifier});
  }
}

TEST_CASE("every lexical diagnostic can be produced") {
  // One input per E00xx code; a new lexical code needs an entry here.
  const std::map<std::string_view, std::string> samples = {
      {"E0001", "\"open"},   {"E0002", "\"\\q\""}, {"E0003", "\"\\u{}\""},
      {"E0004", "$"},        {"E0005", "1__0"},    {"E0006", "---\nx"},
      {"E0007", "\"\xFF\""},
  };
  for (herald::DiagKind kind : herald::allDiagKinds()) {
    const herald::DiagInfo& info = herald::diagInfo(kind);
    if (info.code.substr(0, 3) != "E00") continue;
    CAPTURE(info.code);
    auto it = samples.find(info.code);
    REQUIRE_MESSAGE(it != samples.end(), "no sample for a lexical diagnostic");
    Lexed l = lex(it->second);
    REQUIRE(l.diags.diagnostics().size() == 1);
    CHECK(l.diags.diagnostics()[0].kind == kind);
  }
}

TEST_CASE("next() keeps returning EndOfFile") {
  SourceFile file(0, "t", "x \"a \\(y");
  DiagnosticEngine diags;
  herald::Lexer lexer(file, diags);
  std::vector<TokenKind> kinds;
  kinds.reserve(8);
  for (int i = 0; i < 8; ++i) kinds.push_back(lexer.next().kind);
  CHECK(kinds ==
        std::vector<TokenKind>{TokenKind::Identifier, TokenKind::StringHead,
                               TokenKind::Identifier, TokenKind::StringTail,
                               TokenKind::EndOfFile, TokenKind::EndOfFile,
                               TokenKind::EndOfFile, TokenKind::EndOfFile});
  CHECK(diags.diagnostics().size() == 1);
}

TEST_CASE("arbitrary bytes: the lexer terminates with sane ranges") {
  // Bytes that matter to the scanner are over-represented.
  const std::string interesting = "\"\\(){}[]-.\n_0123456789u:=<>|&!ax \r\t";
  std::mt19937 random(20261130);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const auto length = static_cast<int>(random() % 120);
    for (int i = 0; i < length; ++i) {
      if (random() % 4 == 0) {
        text += static_cast<char>(random() % 256);
      } else {
        text += interesting[random() % interesting.size()];
      }
    }
    CAPTURE(round);
    SourceFile file(0, "random", text);
    DiagnosticEngine diags;
    herald::Lexer lexer(file, diags);
    std::vector<Token> tokens;
    // Every token consumes input except EndOfFile and the empty tail that
    // closes a string left open by a `\(`; each `\(` takes two bytes.
    const std::size_t bound = text.size() * 2 + 2;
    while (tokens.size() <= bound) {
      tokens.push_back(lexer.next());
      if (tokens.back().kind == TokenKind::EndOfFile) break;
    }
    REQUIRE(tokens.back().kind == TokenKind::EndOfFile);
    CHECK(tokens.back().range.begin == text.size());
    CHECK(lexer.next().kind == TokenKind::EndOfFile);
    std::uint32_t previousEnd = 0;
    for (const Token& token : tokens) {
      CHECK(token.range.begin <= token.range.end);
      CHECK(token.range.begin >= previousEnd);
      CHECK(token.range.end <= text.size());
      previousEnd = token.range.end;
    }
    for (const herald::Diagnostic& d : diags.diagnostics()) {
      CHECK(d.range.begin <= d.range.end);
      CHECK(d.range.end <= text.size());
    }
  }
}
