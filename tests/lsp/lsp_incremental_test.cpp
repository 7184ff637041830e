// A server that has seen a sequence of edits (and reparsed only what each
// changed) publishes the diagnostics a fresh server publishes for the
// final texts: seeded random edits of the payment example's files.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "lsp_client.h"

namespace herald::lsp::test::incremental {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

// The diagnostics the client holds, by URI: the last published for each.
using Held = std::map<std::string, Json>;

void take(Held& held, const Json& message) {
  if (message.value("method", "") != "textDocument/publishDiagnostics") return;
  held[message["params"]["uri"]] = message["params"]["diagnostics"];
}

// Waits for the diagnostics of `uri` at `version`, then makes sure every
// notification of that check has arrived (a request is answered after
// them) and takes them all into `held`.
void settle(LspClient& client, Held& held, const std::string& uri,
            int version) {
  std::optional<Json> published = client.waitNotification(
      "textDocument/publishDiagnostics", [&](const Json& m) {
        take(held, m);
        return m["params"]["uri"] == uri &&
               m["params"].value("version", -1) == version;
      });
  REQUIRE(published);
  (void)client.request("textDocument/hover",
                       {{"textDocument", {{"uri", uri}}},
                        {"position", {{"line", 0}, {"character", 0}}}});
  for (const Json& m : client.kept()) take(held, m);
  client.kept().clear();
}

// One random change of `text`: a span deleted, or a piece inserted that
// often breaks or fixes the syntax or the types.
std::string mutate(const std::string& text, std::mt19937& rng) {
  static const std::vector<std::string> pieces = {
      " ",           "\n",    "}",     "{",
      "(",           ")",     ",",     ": Int",
      "x",           "Money", "event", "fn f() -> Int { \"s\" }\n",
      "let y = 1\n", "cents", "= 0",   "\""};
  std::uniform_int_distribution<std::size_t> at(0, text.size());
  std::size_t pos = at(rng);
  std::string out = text;
  if (rng() % 2 == 0 && !text.empty()) {
    std::size_t length = 1 + rng() % 12;
    out.erase(std::min(pos, out.size() - 1), length);
  } else {
    out.insert(pos, pieces[rng() % pieces.size()]);
  }
  return out;
}

}  // namespace

TEST_CASE(
    "after random edits, the diagnostics are those of a fresh server on "
    "the final texts") {
  const fs::path example = PAYMENT_EXAMPLE;
  std::vector<std::string> names = {"order.herald", "fx.herald",
                                    "notifications.herald", "rooms.herald"};
  for (unsigned seed = 1; seed <= 4; ++seed) {
    CAPTURE(seed);
    TempDir root;
    std::map<std::string, std::string> texts;  // by URI
    std::vector<std::string> uris;
    for (const std::string& name : names) {
      std::string path = root.write(name, readFile(example / name));
      uris.push_back(fileUri(path));
      texts[uris.back()] = readFile(path);
    }
    std::mt19937 rng(seed);
    LspClient edited;
    edited.initialize(root.path());
    Held held;
    // Two documents open; the others are read from disk.
    std::map<std::string, int> versions;
    for (std::size_t i = 0; i < 2; ++i) {
      versions[uris[i]] = 1;
      edited.notify("textDocument/didOpen", {{"textDocument",
                                              {{"uri", uris[i]},
                                               {"languageId", "herald"},
                                               {"version", 1},
                                               {"text", texts[uris[i]]}}}});
      settle(edited, held, uris[i], 1);
    }
    for (int step = 0; step < 30; ++step) {
      const std::string& uri = uris[rng() % 2];
      // Now and then an edit is undone: the texts come back to ones parsed
      // before.
      std::string text = rng() % 5 == 0
                             ? readFile(example / fs::path(uri).filename())
                             : mutate(texts[uri], rng);
      texts[uri] = text;
      int version = ++versions[uri];
      edited.notify("textDocument/didChange",
                    {{"textDocument", {{"uri", uri}, {"version", version}}},
                     {"contentChanges", {{{"text", text}}}}});
      settle(edited, held, uri, version);
    }

    LspClient fresh;
    fresh.initialize(root.path());
    Held expected;
    for (std::size_t i = 0; i < 2; ++i) {
      fresh.notify("textDocument/didOpen", {{"textDocument",
                                             {{"uri", uris[i]},
                                              {"languageId", "herald"},
                                              {"version", 1},
                                              {"text", texts[uris[i]]}}}});
      settle(fresh, expected, uris[i], 1);
    }
    for (const std::string& uri : uris) {
      CAPTURE(uri);
      CHECK(held[uri] == expected[uri]);
    }
  }
}

}  // namespace herald::lsp::test::incremental
