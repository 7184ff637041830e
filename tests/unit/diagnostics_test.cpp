// The diagnostics engine (registry, finalize) and its text and JSON renderers.
#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "frontend/diagnostic.h"
#include "frontend/diagnostic_render.h"
#include "frontend/source.h"

using namespace herald;

namespace {

// The range of the `occurrence`-th (0-based) `needle` in file `id`.
SourceRange find(const SourceManager& sm, FileId id, std::string_view needle,
                 int occurrence = 0) {
  std::string_view text = sm.file(id).text();
  std::size_t pos = text.find(needle);
  for (int i = 0; i < occurrence && pos != std::string_view::npos; ++i)
    pos = text.find(needle, pos + 1);
  REQUIRE(pos != std::string_view::npos);
  auto begin = static_cast<std::uint32_t>(pos);
  return {id, begin, begin + static_cast<std::uint32_t>(needle.size())};
}

SourceRange point(FileId id, std::uint32_t offset) {
  return {id, offset, offset};
}

// Replacement fields in a fmt format string (`{{` and `}}` are literal).
std::size_t countFields(std::string_view format) {
  std::size_t fields = 0;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] == '{') {
      if (i + 1 < format.size() && format[i + 1] == '{') {
        ++i;
        continue;
      }
      ++fields;
    } else if (format[i] == '}' && i + 1 < format.size() &&
               format[i + 1] == '}') {
      ++i;
    }
  }
  return fields;
}

template <typename D>
void reportWithDefaults(DiagnosticEngine& engine, SourceRange range) {
  std::apply([&](auto... args) { engine.report<D>(range, args...); },
             typename D::Args{});
}

bool isKebab(std::string_view name) {
  if (name.empty() || name.front() == '-' || name.back() == '-') return false;
  for (char c : name) {
    if (!(std::islower(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
      return false;
  }
  return name.find("--") == std::string_view::npos;
}

using Json = nlohmann::json;

const Json& objectAt(const Json& array, std::size_t i) {
  REQUIRE(array.is_array());
  REQUIRE(i < array.size());
  const Json& object = array[i];
  REQUIRE(object.is_object());
  return object;
}

std::string stringField(const Json& o, const char* key) {
  REQUIRE_MESSAGE((o.contains(key) && o[key].is_string()), key);
  return o[key].get<std::string>();
}

std::int64_t intField(const Json& o, const char* key) {
  REQUIRE_MESSAGE((o.contains(key) && o[key].is_number_integer()), key);
  return o[key].get<std::int64_t>();
}

Json parseArray(const std::string& text) {
  Json parsed = Json::parse(text, nullptr, false);
  if (parsed.is_discarded()) FAIL("invalid JSON:\n" << text);
  REQUIRE(parsed.is_array());
  return parsed;
}

}  // namespace

TEST_CASE("text: single-line range") {
  SourceManager sm;
  FileId f = sm.addFile("pay.herald", "context a.b\nlet x = foo(1;\n");
  DiagnosticEngine diags;
  diags.report<diag::UnexpectedToken>(find(sm, f, "foo"), "')'", "';'");
  CHECK(renderText(sm, diags.diagnostics()) ==
        "pay.herald:2:9: error[E0100]: expected ')', found ';'\n"
        "    2 | let x = foo(1;\n"
        "      |         ^~~\n"
        "1 error generated.\n");
}

TEST_CASE("text: a multi-line range underlines its first line") {
  SourceManager sm;
  FileId f = sm.addFile("m.herald", "type T = {\n  a: Int\n}\n");
  DiagnosticEngine diags;
  SourceRange r = SourceRange::join(find(sm, f, "{"), find(sm, f, "}"));
  diags.report<diag::UnexpectedToken>(r, "a type", "a record");
  CHECK(renderText(sm, diags.diagnostics()) ==
        "m.herald:1:10: error[E0100]: expected a type, found a record\n"
        "    1 | type T = {\n"
        "      |          ^\n"
        "1 error generated.\n");

  DiagnosticEngine wide;
  wide.report<diag::UnexpectedToken>(
      SourceRange::join(find(sm, f, "type"), find(sm, f, "a: Int")), "x", "y");
  CHECK(renderText(sm, wide.diagnostics()) ==
        "m.herald:1:1: error[E0100]: expected x, found y\n"
        "    1 | type T = {\n"
        "      | ^~~~~~~~~~\n"
        "1 error generated.\n");
}

TEST_CASE("text: notes with and without a location") {
  SourceManager sm;
  FileId a = sm.addFile("a.herald", "event E = { x: Int }\n");
  FileId b = sm.addFile("dir/b.herald", "emit E { x: 1 }\n");
  DiagnosticEngine diags;
  diags.report<diag::EmitOutsideOwner>(find(sm, b, "E"), "E", "ctx")
      .note(find(sm, a, "E"), "'{}' is declared here", "E")
      .note("only handlers of '{}' may emit it", "ctx");
  CHECK(renderText(sm, diags.diagnostics()) ==
        "dir/b.herald:1:6: error[E0501]: event 'E' can only be emitted by "
        "its own context 'ctx'\n"
        "    1 | emit E { x: 1 }\n"
        "      |      ^\n"
        "a.herald:1:7: note: 'E' is declared here\n"
        "    1 | event E = { x: Int }\n"
        "      |       ^\n"
        "note: only handlers of 'ctx' may emit it\n"
        "1 error generated.\n");
}

TEST_CASE("text: fix-its insert, replace and remove") {
  SourceManager sm;
  FileId f =
      sm.addFile("p.herald", "on Paid { region: Domestic }\nlet x := 1;\n");
  SourceRange domestic = find(sm, f, "Domestic");

  DiagnosticEngine insert;
  insert.report<diag::PatternMissingRest>(find(sm, f, "{ region"))
      .fixit(point(f, domestic.end), ", ..");
  CHECK(renderText(sm, insert.diagnostics()) ==
        "p.herald:1:9: error[E0515]: subscription pattern must end with '..' "
        "to show unlisted fields are unconstrained\n"
        "    1 | on Paid { region: Domestic }\n"
        "      |         ^~~~~~~~\n"
        "help: insert ', ..'\n"
        "    1 | on Paid { region: Domestic, .. }\n"
        "      |                           ++++\n"
        "1 error generated.\n");

  DiagnosticEngine replace;
  replace.report<diag::UnexpectedToken>(find(sm, f, ":="), "'='", "':='")
      .fixit(find(sm, f, ":="), "=");
  CHECK(renderText(sm, replace.diagnostics()) ==
        "p.herald:2:7: error[E0100]: expected '=', found ':='\n"
        "    2 | let x := 1;\n"
        "      |       ^~\n"
        "help: replace with '='\n"
        "    2 | let x = 1;\n"
        "      |       ~\n"
        "1 error generated.\n");

  DiagnosticEngine remove;
  remove.report<diag::UnexpectedToken>(find(sm, f, ";"), "a newline", "';'")
      .fixit(find(sm, f, ";"), "");
  CHECK(renderText(sm, remove.diagnostics()) ==
        "p.herald:2:11: error[E0100]: expected a newline, found ';'\n"
        "    2 | let x := 1;\n"
        "      |           ^\n"
        "help: remove ';'\n"
        "    2 | let x := 1;\n"
        "      |           -\n"
        "1 error generated.\n");
}

TEST_CASE("text: a multi-line fix-it is described without an excerpt") {
  SourceManager sm;
  FileId f = sm.addFile("p.herald", "fn f() {}\n");
  DiagnosticEngine diags;
  diags.report<diag::UnexpectedToken>(find(sm, f, "{}"), "a body", "'{}'")
      .fixit(find(sm, f, "{}"), "{\n    fail(\"todo\")\n}");
  CHECK(renderText(sm, diags.diagnostics()) ==
        "p.herald:1:8: error[E0100]: expected a body, found '{}'\n"
        "    1 | fn f() {}\n"
        "      |        ^~\n"
        "help: replace with '{\\n    fail(\"todo\")\\n}'\n"
        "1 error generated.\n");
}

TEST_CASE("text: zero-width ranges at end of line and end of file") {
  SourceManager sm;
  FileId f = sm.addFile("z.herald", "let x = (1\nlet y = 2\n");
  DiagnosticEngine eol;
  eol.report<diag::UnexpectedToken>(point(f, find(sm, f, "(1").end), "')'",
                                    "a newline");
  CHECK(renderText(sm, eol.diagnostics()) ==
        "z.herald:1:11: error[E0100]: expected ')', found a newline\n"
        "    1 | let x = (1\n"
        "      |           ^\n"
        "1 error generated.\n");

  // After the final newline the end of file is on the empty line that
  // follows, at column 1.
  auto size = static_cast<std::uint32_t>(sm.file(f).text().size());
  DiagnosticEngine eofNewline;
  eofNewline.report<diag::UnexpectedToken>(point(f, size), "'}'",
                                           "end of file");
  CHECK(renderText(sm, eofNewline.diagnostics()) ==
        "z.herald:3:1: error[E0100]: expected '}', found end of file\n"
        "    3 |\n"
        "      | ^\n"
        "1 error generated.\n");

  FileId g = sm.addFile("n.herald", "agent A {");
  DiagnosticEngine eof;
  eof.report<diag::UnexpectedToken>(point(g, 9), "'}'", "end of file");
  CHECK(renderText(sm, eof.diagnostics()) ==
        "n.herald:1:10: error[E0100]: expected '}', found end of file\n"
        "    1 | agent A {\n"
        "      |          ^\n"
        "1 error generated.\n");
}

TEST_CASE("text: tabs are expanded so the caret stays aligned") {
  SourceManager sm;
  FileId f = sm.addFile("t.herald", "\tlet x\t= 1\n");
  DiagnosticEngine diags;
  diags.report<diag::UnexpectedToken>(find(sm, f, "= 1"), "x", "y");
  // Byte column 8; on screen the '=' sits at cell 16 (tab stops of 8).
  CHECK(renderText(sm, diags.diagnostics()) ==
        "t.herald:1:8: error[E0100]: expected x, found y\n"
        "    1 |         let x   = 1\n"
        "      |                 ^~~\n"
        "1 error generated.\n");

  DiagnosticEngine overTab;
  overTab.report<diag::UnexpectedToken>(find(sm, f, "x\t="), "x", "y");
  CHECK(renderText(sm, overTab.diagnostics()) ==
        "t.herald:1:6: error[E0100]: expected x, found y\n"
        "    1 |         let x   = 1\n"
        "      |             ^~~~~\n"
        "1 error generated.\n");
}

TEST_CASE("text: UTF-8 columns are bytes, carets follow terminal cells") {
  SourceManager sm;
  FileId f = sm.addFile("u.herald", "let s = \"h\xC3\xA9\" + \xE4\xB8\xAD x\n");
  DiagnosticEngine diags;
  diags.report<diag::UnexpectedToken>(find(sm, f, "\xE4\xB8\xAD"), "x", "y");
  diags.report<diag::UnexpectedToken>(find(sm, f, " x"), "a", "b");
  CHECK(renderText(sm, diags.diagnostics()) ==
        "u.herald:1:17: error[E0100]: expected x, found y\n"
        "    1 | let s = \"h\xC3\xA9\" + \xE4\xB8\xAD x\n"
        "      |                ^~\n"
        "u.herald:1:20: error[E0100]: expected a, found b\n"
        "    1 | let s = \"h\xC3\xA9\" + \xE4\xB8\xAD x\n"
        "      |                  ^~\n"
        "2 errors generated.\n");
}

TEST_CASE("text: control characters and invalid UTF-8 are shown visibly") {
  SourceManager sm;
  FileId f = sm.addFile("c.herald", "a\x01 \xFF b\n");
  DiagnosticEngine diags;
  diags.report<diag::InvalidUtf8>(find(sm, f, "b"));
  CHECK(renderText(sm, diags.diagnostics()) ==
        "c.herald:1:6: error[E0007]: source is not valid UTF-8\n"
        "    1 | a<U+0001> <FF> b\n"
        "      |                ^\n"
        "1 error generated.\n");
}

TEST_CASE("text: a long line is clipped around the range") {
  SourceManager sm;
  std::string line = std::string(200, 'x') + "TARGET" + std::string(200, 'y');
  FileId f = sm.addFile("l.herald", line + "\n");
  DiagnosticEngine diags;
  diags.report<diag::StrayCharacter>(find(sm, f, "TARGET"), "'T'");
  // 64 bytes before the range, 256 bytes shown in all.
  std::string shown = "..." + line.substr(136, 256) + "...";
  CHECK(renderText(sm, diags.diagnostics()) ==
        "l.herald:1:201: error[E0004]: unexpected character 'T' in source\n"
        "    1 | " +
            shown +
            "\n"
            "      | " +
            std::string(67, ' ') +
            "^~~~~~\n"
            "1 error generated.\n");

  // Near the start only the end is cut; a range running past the clipped
  // part is underlined to the cut.
  DiagnosticEngine start;
  start.report<diag::StrayCharacter>(SourceRange{f, 2, 400}, "'x'");
  CHECK(renderText(sm, start.diagnostics()) ==
        "l.herald:1:3: error[E0004]: unexpected character 'x' in source\n"
        "    1 | " +
            line.substr(0, 256) +
            "...\n"
            "      |   ^" +
            std::string(253, '~') +
            "\n"
            "1 error generated.\n");
}

TEST_CASE("text: color") {
  SourceManager sm;
  FileId f = sm.addFile("k.herald", "abc\n");
  DiagnosticEngine diags;
  diags.report<diag::EventCycle>(find(sm, f, "b"), "E");
  diags.report<diag::StrayCharacter>(find(sm, f, "c"), "'c'")
      .note("why")
      .fixit(find(sm, f, "c"), "d");
  std::string plain = renderText(sm, diags.diagnostics(), {.color = false});
  CHECK(plain.find('\033') == std::string::npos);

  std::string colored = renderText(sm, diags.diagnostics(), {.color = true});
  CHECK(colored.find("\033[1mk.herald:1:2:\033[0m") != std::string::npos);
  CHECK(colored.find("\033[1;33mwarning[W0530]:\033[0m") != std::string::npos);
  CHECK(colored.find("\033[1;31merror[E0004]:\033[0m") != std::string::npos);
  CHECK(colored.find("\033[1munexpected character 'c' in source\033[0m") !=
        std::string::npos);
  CHECK(colored.find("\033[1;32m^\033[0m") != std::string::npos);
  CHECK(colored.find("\033[1;36mnote:\033[0m why") != std::string::npos);
  CHECK(colored.find("\033[1;32mhelp:\033[0m replace with 'd'") !=
        std::string::npos);
  // Removing the escapes gives back the plain rendering.
  std::string stripped;
  for (std::size_t i = 0; i < colored.size(); ++i) {
    if (colored[i] == '\033') {
      i = colored.find('m', i);
      continue;
    }
    stripped += colored[i];
  }
  CHECK(stripped == plain);
}

TEST_CASE("text: summary line") {
  SourceManager sm;
  FileId f = sm.addFile("s.herald", "abcdef\n");
  CHECK(renderText(sm, {}) == "");

  DiagnosticEngine warnings;
  warnings.report<diag::EventCycle>(find(sm, f, "a"), "E");
  std::string one = renderText(sm, warnings.diagnostics());
  CHECK(one.find("s.herald:1:1: warning[W0530]: events can flow in a cycle "
                 "through 'E'\n") == 0);
  CHECK(one.ends_with("\n1 warning generated.\n"));
  CHECK_FALSE(warnings.hasErrors());

  DiagnosticEngine mixed;
  mixed.report<diag::StrayCharacter>(find(sm, f, "b"), "'b'");
  mixed.report<diag::EventCycle>(find(sm, f, "c"), "E");
  mixed.report<diag::StrayCharacter>(find(sm, f, "d"), "'d'");
  mixed.report<diag::EventCycle>(find(sm, f, "e"), "F");
  mixed.report<diag::EventCycle>(find(sm, f, "f"), "G");
  CHECK(mixed.errorCount() == 2);
  CHECK(renderText(sm, mixed.diagnostics())
            .ends_with("\n2 errors, 3 warnings generated.\n"));
}

TEST_CASE("finalize sorts by location and drops exact repeats") {
  SourceManager sm;
  FileId a = sm.addFile("a.herald", "one two three\n");
  FileId b = sm.addFile("b.herald", "four\n");
  DiagnosticEngine diags;
  diags.report<diag::StrayCharacter>(find(sm, b, "four"), "'f'");
  diags.report<diag::StrayCharacter>(find(sm, a, "three"), "'t'");
  diags.report<diag::StrayCharacter>(find(sm, a, "two"), "'t'").note("n1");
  diags.report<diag::StrayCharacter>(find(sm, a, "two"), "'t'").note("n2");
  diags.report<diag::StrayCharacter>(find(sm, a, "two"), "'t'").note("n1");
  diags.report<diag::InvalidUtf8>(find(sm, a, "one"));
  diags.report<diag::StrayCharacter>(find(sm, a, "one"), "'o'");
  diags.report<diag::InvalidUtf8>(find(sm, a, "one"));
  // Same place and message, different fix-it: not a repeat.
  diags.report<diag::StrayCharacter>(find(sm, a, "three"), "'t'")
      .fixit(find(sm, a, "three"), "3");
  diags.finalize();

  const auto& d = diags.diagnostics();
  REQUIRE(d.size() == 7);
  // Same range: ordered by code.
  CHECK(d[0].kind == DiagKind::StrayCharacter);
  CHECK(d[0].range == find(sm, a, "one"));
  CHECK(d[1].kind == DiagKind::InvalidUtf8);
  CHECK(d[2].range == find(sm, a, "two"));
  CHECK(d[2].notes.at(0).message == "n1");
  CHECK(d[3].range == find(sm, a, "two"));
  CHECK(d[3].notes.at(0).message == "n2");
  CHECK(d[4].range == find(sm, a, "three"));
  CHECK(d[4].fixits.empty());
  CHECK(d[5].range == find(sm, a, "three"));
  CHECK(d[5].fixits.size() == 1);
  CHECK(d[6].range.file == b);

  // Deterministic: the order reports arrive in does not matter.
  DiagnosticEngine reversed;
  for (auto it = d.rbegin(); it != d.rend(); ++it) {
    auto builder =
        it->kind == DiagKind::InvalidUtf8
            ? reversed.report<diag::InvalidUtf8>(it->range)
            : reversed.report<diag::StrayCharacter>(
                  it->range, std::string_view(it->message).substr(21, 3));
    for (const auto& n : it->notes) builder.note("{}", n.message);
    for (const auto& fx : it->fixits) builder.fixit(fx.range, fx.replacement);
  }
  reversed.finalize();
  CHECK(renderText(sm, reversed.diagnostics()) ==
        renderText(sm, diags.diagnostics()));
}

TEST_CASE("json: shape and values") {
  SourceManager sm;
  FileId a = sm.addFile("dir/a.herald", "event E = { x: Int }\n");
  FileId b = sm.addFile("b.herald", "emit E { x: 1 }\nlet y = 2");
  DiagnosticEngine diags;
  diags.report<diag::EmitOutsideOwner>(find(sm, b, "E"), "E", "ctx")
      .note(find(sm, a, "event E"), "declared here")
      .note("no location")
      .fixit(point(b, 0), "-- ")
      .fixit(find(sm, b, "1"), "2");
  diags.report<diag::EventCycle>(
      SourceRange::join(find(sm, b, "emit"), find(sm, b, "let")), "E");
  diags.finalize();
  std::string text = renderJson(sm, diags.diagnostics());
  Json array = parseArray(text);
  REQUIRE(array.size() == 2);

  const Json& cycle = objectAt(array, 0);
  CHECK(intField(cycle, "version") == kJsonFormatVersion);
  CHECK(stringField(cycle, "severity") == "warning");
  CHECK(stringField(cycle, "code") == "W0530");
  CHECK(stringField(cycle, "name") == "event-cycle");
  CHECK(stringField(cycle, "file") == "b.herald");
  CHECK(intField(cycle, "line") == 1);
  CHECK(intField(cycle, "column") == 1);
  CHECK(intField(cycle, "endLine") == 2);
  CHECK(intField(cycle, "endColumn") == 4);
  CHECK(intField(cycle, "offset") == 0);
  CHECK(intField(cycle, "endOffset") == 19);

  const Json& emit = objectAt(array, 1);
  CHECK(stringField(emit, "severity") == "error");
  CHECK(stringField(emit, "code") == "E0501");
  CHECK(stringField(emit, "name") == "emit-outside-owner");
  CHECK(stringField(emit, "message") ==
        "event 'E' can only be emitted by its own context 'ctx'");
  CHECK(stringField(emit, "file") == "b.herald");
  CHECK(intField(emit, "line") == 1);
  CHECK(intField(emit, "column") == 6);
  CHECK(intField(emit, "endLine") == 1);
  CHECK(intField(emit, "endColumn") == 7);

  REQUIRE(emit.contains("notes"));
  const Json& notes = emit["notes"];
  REQUIRE(notes.size() == 2);
  const Json& located = objectAt(notes, 0);
  CHECK(stringField(located, "message") == "declared here");
  CHECK(stringField(located, "file") == "dir/a.herald");
  CHECK(intField(located, "line") == 1);
  CHECK(intField(located, "column") == 1);
  CHECK(intField(located, "endColumn") == 8);
  const Json& bare = objectAt(notes, 1);
  CHECK(stringField(bare, "message") == "no location");
  CHECK(bare.size() == 1);

  REQUIRE(emit.contains("fixits"));
  const Json& fixits = emit["fixits"];
  REQUIRE(fixits.size() == 2);
  const Json& insert = objectAt(fixits, 0);
  CHECK(stringField(insert, "file") == "b.herald");
  CHECK(intField(insert, "line") == 1);
  CHECK(intField(insert, "column") == 1);
  CHECK(intField(insert, "endLine") == 1);
  CHECK(intField(insert, "endColumn") == 1);
  CHECK(stringField(insert, "replacement") == "-- ");
  CHECK(stringField(insert, "label") == "insert '-- '");
  const Json& replace = objectAt(fixits, 1);
  CHECK(intField(replace, "column") == 13);
  CHECK(intField(replace, "endColumn") == 14);
  CHECK(intField(replace, "offset") == 12);
  CHECK(intField(replace, "endOffset") == 13);
  CHECK(stringField(replace, "replacement") == "2");
  CHECK(stringField(replace, "label") == "replace with '2'");

  // Field order is fixed, not alphabetical.
  std::size_t last = 0;
  for (std::string_view key :
       {"\"version\"", "\"severity\"", "\"code\"", "\"name\"", "\"message\"",
        "\"file\"", "\"line\"", "\"column\"", "\"offset\"", "\"endLine\"",
        "\"endColumn\"", "\"endOffset\"", "\"notes\"", "\"fixits\""}) {
    std::size_t at = text.find(key);
    REQUIRE_MESSAGE(at != std::string::npos, key);
    CHECK_MESSAGE(at >= last, key);
    last = at;
  }
}

TEST_CASE("json: nothing reported is an empty array") {
  SourceManager sm;
  std::string text = renderJson(sm, {});
  CHECK(parseArray(text).empty());
  CHECK(text == "[]\n");
}

TEST_CASE("json: invalid UTF-8 in a message still gives valid JSON") {
  SourceManager sm;
  FileId f = sm.addFile("bad\xFF.herald", "\xFF\n");
  DiagnosticEngine diags;
  diags.report<diag::StrayCharacter>(point(f, 0), "\xFF");
  Json array = parseArray(renderJson(sm, diags.diagnostics()));
  REQUIRE(array.size() == 1);
  CHECK(stringField(objectAt(array, 0), "message") ==
        "unexpected character \xEF\xBF\xBD in source");
  CHECK(stringField(objectAt(array, 0), "file") == "bad\xEF\xBF\xBD.herald");
}

TEST_CASE("out-of-range locations render without crashing") {
  SourceManager sm;
  FileId f = sm.addFile("o.herald", "abc");
  DiagnosticEngine diags;
  diags.report<diag::InvalidUtf8>(SourceRange{f, 50, 60});
  diags.report<diag::InvalidUtf8>(SourceRange{f, 2, 1});
  diags.report<diag::InvalidUtf8>(SourceRange{7, 0, 1});
  diags.finalize();
  CHECK(renderText(sm, diags.diagnostics()) ==
        "o.herald:1:3: error[E0007]: source is not valid UTF-8\n"
        "    1 | abc\n"
        "      |   ^\n"
        "o.herald:1:4: error[E0007]: source is not valid UTF-8\n"
        "    1 | abc\n"
        "      |    ^\n"
        "error[E0007]: source is not valid UTF-8\n"
        "3 errors generated.\n");
  Json array = parseArray(renderJson(sm, diags.diagnostics()));
  REQUIRE(array.size() == 3);
  CHECK(objectAt(array, 2)["file"].is_null());
}

TEST_CASE("every registry entry formats with its declared argument types") {
  SourceManager sm;
  FileId f = sm.addFile("r.herald", "x\n");
  DiagnosticEngine engine;
  std::size_t entries = 0;
#define DIAG(Id, Code, Sev, Name, Format, ...)                             \
  ++entries;                                                               \
  CHECK_NOTHROW_MESSAGE(reportWithDefaults<diag::Id>(engine, point(f, 0)), \
                        #Id);                                              \
  CHECK_MESSAGE(countFields(Format) == std::tuple_size_v<diag::Id::Args>,  \
                #Id ": format fields and declared arguments differ");
#include "frontend/diagnostics.def"
#undef DIAG
  CHECK(entries == allDiagKinds().size());
  CHECK(engine.diagnostics().size() == entries);
  // Every message renders in both formats.
  CHECK(!renderText(sm, engine.diagnostics()).empty());
  CHECK(parseArray(renderJson(sm, engine.diagnostics())).size() == entries);
}

TEST_CASE("registry codes and names are unique and well-formed") {
  std::set<std::string_view> codes;
  std::set<std::string_view> names;
  for (DiagKind kind : allDiagKinds()) {
    const DiagInfo& info = diagInfo(kind);
    CAPTURE(info.code);
    CHECK(codes.insert(info.code).second);
    CHECK(names.insert(info.name).second);
    CHECK(isKebab(info.name));
    REQUIRE(info.code.size() == 5);
    char prefix = info.severity == Severity::Error     ? 'E'
                  : info.severity == Severity::Warning ? 'W'
                                                       : 'N';
    CHECK(info.code[0] == prefix);
    for (char c : info.code.substr(1))
      CHECK(std::isdigit(static_cast<unsigned char>(c)));
  }
}

TEST_CASE("error limit: the first N errors in sorted order, the rest counted") {
  SourceManager sm;
  FileId f = sm.addFile("l.herald", "a b c d e f\n");
  DiagnosticEngine diags;
  diags.setErrorLimit(2);
  // Reported out of order, with a repeat and warnings between.
  diags.report<diag::StrayCharacter>(find(sm, f, "e"), "'e'");
  diags.report<diag::EventCycle>(find(sm, f, "b"), "E");
  diags.report<diag::StrayCharacter>(find(sm, f, "c"), "'c'");
  diags.report<diag::StrayCharacter>(find(sm, f, "a"), "'a'");
  diags.report<diag::StrayCharacter>(find(sm, f, "a"), "'a'");
  CHECK(diags.errorLimitReached());
  diags.report<diag::EventCycle>(find(sm, f, "f"), "F");
  diags.report<diag::StrayCharacter>(find(sm, f, "d"), "'d'");
  diags.finalize();

  REQUIRE(diags.diagnostics().size() == 3);
  CHECK(diags.diagnostics()[0].range.begin == 0);  // a
  CHECK(diags.diagnostics()[1].kind == DiagKind::EventCycle);
  CHECK(diags.diagnostics()[2].range.begin == 4);  // c
  CHECK(diags.errorCount() == 2);
  CHECK(diags.omittedErrors() == 2);  // d, e; the repeat of a is no error
  CHECK(diags.omittedWarnings() == 1);
  std::optional<RunMessage> note = errorLimitNote(diags);
  REQUIRE(note.has_value());
  CHECK(note->severity == Severity::Note);
  CHECK(note->name == "error-limit");
  CHECK(note->message ==
        "error limit of 2 reached: 2 more errors and 1 warning not shown "
        "(--error-limit=0 shows all)");

  std::string text = renderText(sm, diags.diagnostics(), {}, {*note});
  CHECK(text.ends_with(
      "note: error limit of 2 reached: 2 more errors and 1 warning not shown "
      "(--error-limit=0 shows all)\n2 errors, 1 warning generated.\n"));
  Json array = parseArray(renderJson(sm, diags.diagnostics(), {*note}));
  REQUIRE(array.size() == 4);
  const Json& last = objectAt(array, 3);
  CHECK(stringField(last, "severity") == "note");
  CHECK(stringField(last, "name") == "error-limit");
  CHECK(last["code"].is_null());
  CHECK(last["line"].is_null());
  CHECK(intField(last, "version") == kJsonFormatVersion);
}

TEST_CASE("error limit: within the limit, or none, nothing is dropped") {
  SourceManager sm;
  FileId f = sm.addFile("n.herald", "a b c\n");
  for (std::size_t limit : {std::size_t{0}, std::size_t{3}}) {
    DiagnosticEngine diags;
    diags.setErrorLimit(limit);
    for (std::string_view c : {"a", "b", "c"})
      diags.report<diag::StrayCharacter>(find(sm, f, c), c);
    CHECK_FALSE(diags.errorLimitReached());
    diags.finalize();
    CHECK(diags.diagnostics().size() == 3);
    CHECK(diags.omittedErrors() == 0);
    CHECK_FALSE(errorLimitNote(diags).has_value());
  }
}

TEST_CASE("error limit: a phase that stops early says so in the note") {
  SourceManager sm;
  FileId f = sm.addFile("s.herald", "a b\n");
  DiagnosticEngine diags;
  diags.setErrorLimit(1);
  diags.report<diag::StrayCharacter>(find(sm, f, "a"), "'a'");
  CHECK_FALSE(diags.errorLimitReached());
  diags.report<diag::StrayCharacter>(find(sm, f, "b"), "'b'");
  CHECK(diags.errorLimitReached());
  diags.stopEarly();
  diags.finalize();
  std::optional<RunMessage> note = errorLimitNote(diags);
  REQUIRE(note.has_value());
  CHECK(note->message ==
        "error limit of 1 reached: 1 more error not shown, and heraldc "
        "stopped looking for more (--error-limit=0 shows all)");
}
