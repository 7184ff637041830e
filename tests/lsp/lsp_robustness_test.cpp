// `heraldc lsp` on what a user can type: random valid programs
// (tests/progen) broken by random edits, and the fuzz corpora
// (tests/fuzz/corpus), with requests at random positions after every
// change. The server must answer every request (a result or a JSON-RPC
// error, within the client's bounded wait), never exit, and shut down
// cleanly at the end.
//
// Seeded and replayable: HERALD_LSP_SEED (default 1) seeds everything and
// is printed; program i of the random ones is seed+i, so
// HERALD_LSP_SEED=<that> HERALD_LSP_PROGRAMS=1 replays it alone.
// HERALD_LSP_PROGRAMS (default 20) and HERALD_LSP_EDITS (default 8, edits
// per program) set the budget.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "lsp_client.h"

namespace herald::lsp::test {
namespace {

namespace fs = std::filesystem;

std::uint64_t envNumber(const char* name, std::uint64_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  return std::stoull(value);
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Text as the client sends it: JSON strings are UTF-8, so bytes that are
// not (a cut through a character, a random byte) become U+FFFD, as an
// editor's buffer would hold them.
std::string asSent(const std::string& text) {
  return Json::parse(
             Json(text).dump(-1, ' ', false, Json::error_handler_t::replace))
      .get<std::string>();
}

// The values of the libFuzzer dictionary (`name="value"`, with \\, \" and
// \xNN escapes): Herald's keywords, punctuation and literal pieces.
std::vector<std::string> dictionary(const fs::path& path) {
  std::vector<std::string> tokens;
  std::istringstream lines(readFile(path));
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t open = line.find('"');
    if (line.empty() || line[0] == '#' || open == std::string::npos) continue;
    std::string token;
    for (std::size_t i = open + 1; i + 1 < line.size(); ++i) {
      if (line[i] != '\\') {
        token += line[i];
      } else if (line[i + 1] == 'x' && i + 3 < line.size()) {
        token +=
            static_cast<char>(std::stoi(line.substr(i + 2, 2), nullptr, 16));
        i += 3;
      } else {
        token += line[++i];
      }
    }
    tokens.push_back(token);
  }
  return tokens;
}

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  // A number in [0, n]; 0 when n is 0.
  std::size_t upTo(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n)(engine_);
  }
  bool oneIn(std::size_t n) { return upTo(n - 1) == 0; }

 private:
  std::mt19937_64 engine_;
};

// The position (line, UTF-16 character) of a byte offset in `text`.
Json positionOf(const std::string& text, std::size_t offset) {
  std::size_t line = 0;
  std::size_t character = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n') {
      ++line;
      character = 0;
    } else if ((byte & 0xC0) != 0x80) {
      character += byte >= 0xF0 ? 2 : 1;
    }
  }
  return {{"line", line}, {"character", character}};
}

// A position in the document, or now and then one past its end or far
// beyond it (the protocol's numbers are unsigned 32-bit).
Json randomPosition(Random& random, const std::string& text) {
  if (random.oneIn(10)) {
    auto lines =
        static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    std::uint64_t far = random.oneIn(2) ? UINT32_MAX : random.upTo(1000);
    return {{"line", random.oneIn(2) ? lines + random.upTo(3) : far},
            {"character", random.oneIn(2) ? random.upTo(200) : far}};
  }
  return positionOf(text, random.upTo(text.size()));
}

// One server and the documents it has open, with the tallies of what it
// answered.
class Session {
 public:
  Session(const std::string& root, std::string label)
      : label_(std::move(label)) {
    client_.initialize(root);
  }

  void open(const std::string& uri, const std::string& text) {
    documents_[uri] = asSent(text);
    client_.notify("textDocument/didOpen", {{"textDocument",
                                             {{"uri", uri},
                                              {"languageId", "herald"},
                                              {"version", ++version_},
                                              {"text", documents_[uri]}}}});
  }
  void change(const std::string& uri, const std::string& text) {
    documents_[uri] = asSent(text);
    client_.notify("textDocument/didChange",
                   {{"textDocument", {{"uri", uri}, {"version", ++version_}}},
                    {"contentChanges", {{{"text", documents_[uri]}}}}});
  }
  void close(const std::string& uri) {
    documents_.erase(uri);
    client_.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  }
  // A file written to disk and not open: the server reads it at each
  // check, bytes that are not UTF-8 included.
  void onDisk(const std::string& uri, const std::string& text) {
    documents_[uri] = text;
  }
  void forget(const std::string& uri) { documents_.erase(uri); }
  [[nodiscard]] const std::string& text(const std::string& uri) {
    return documents_[uri];
  }

  // Every request a position or a document can take, at random positions
  // of `uri`'s text, and a workspace symbol query. Now and then the
  // formatting's edit is applied as an editor would.
  void ask(Random& random, const std::string& uri, const std::string& where) {
    const std::string& text = documents_[uri];
    Json document = {{"uri", uri}};
    expectAnswer("textDocument/hover",
                 {{"textDocument", document},
                  {"position", randomPosition(random, text)}},
                 where);
    expectAnswer("textDocument/definition",
                 {{"textDocument", document},
                  {"position", randomPosition(random, text)}},
                 where);
    expectAnswer("textDocument/references",
                 {{"textDocument", document},
                  {"position", randomPosition(random, text)},
                  {"context", {{"includeDeclaration", random.oneIn(2)}}}},
                 where);
    expectAnswer("textDocument/documentSymbol", {{"textDocument", document}},
                 where);
    expectAnswer("textDocument/completion",
                 {{"textDocument", document},
                  {"position", randomPosition(random, text)}},
                 where);
    expectAnswer("textDocument/prepareRename",
                 {{"textDocument", document},
                  {"position", randomPosition(random, text)}},
                 where);
    expectAnswer("textDocument/rename",
                 {{"textDocument", document},
                  {"position", randomPosition(random, text)},
                  {"newName", random.oneIn(2) ? "renamed" : "on"}},
                 where);
    // A query from the text's letters (the text need not be UTF-8).
    std::string query;
    for (std::size_t i = random.upTo(text.size()); i < text.size(); ++i) {
      if (query.size() == 3) break;
      if (std::isalnum(static_cast<unsigned char>(text[i])) != 0)
        query += text[i];
    }
    expectAnswer("workspace/symbol", {{"query", query}}, where);
    Json start = randomPosition(random, text);
    Json diagnostics =
        published_.count(uri) != 0 ? published_[uri] : Json::array();
    expectAnswer("textDocument/codeAction",
                 {{"textDocument", document},
                  {"range", {{"start", start}, {"end", start}}},
                  {"context", {{"diagnostics", diagnostics}}}},
                 where);
    Json formatted =
        expectAnswer("textDocument/formatting",
                     {{"textDocument", document},
                      {"options", {{"tabSize", 2}, {"insertSpaces", true}}}},
                     where);
    if (formatted.contains("result") && formatted["result"].is_array() &&
        formatted["result"].size() == 1 && random.oneIn(4))
      change(uri, formatted["result"][0]["newText"].get<std::string>());
    takeNotifications(where);
  }

  // shutdown answers, and exit ends the process with 0.
  void finish() {
    Json down = client_.request("shutdown", nullptr);
    CHECK_MESSAGE(down.contains("result"), label_, ": shutdown: ", down.dump());
    client_.notify("exit", nullptr);
    CHECK_MESSAGE(client_.waitExit() == 0, label_,
                  ": the server did not exit with 0 after shutdown");
  }

  [[nodiscard]] int requests() const { return requests_; }
  [[nodiscard]] const std::map<int, int>& errors() const { return errors_; }

 private:
  // The response to a request: a result, or an error with a code. The
  // client fails the test when none comes in its bounded wait (a hang) or
  // the server's output ends (an exit).
  Json expectAnswer(const std::string& method, Json params,
                    const std::string& where) {
    ++requests_;
    Json sent = params;
    Json answer;
    try {
      answer = client_.request(method, std::move(params));
    } catch (const std::exception& e) {
      FAIL(label_, ", ", where, ": ", method, " at ", sent.dump(), ": ",
           std::string(e.what()));
    }
    bool result = answer.contains("result");
    bool error = answer.contains("error") && answer["error"].is_object() &&
                 answer["error"]["code"].is_number_integer();
    CHECK_MESSAGE(result != error, label_, ", ", where, ": ", method,
                  " answered neither a result nor an error: ", answer.dump());
    if (error) {
      int code = answer["error"]["code"].get<int>();
      ++errors_[code];
      // An internal error is an exception the server did not expect: a
      // bug, even though the session survives it.
      CHECK_MESSAGE(code != -32603, label_, ", ", where, ": ", method, " at ",
                    sent.dump(), ": ", answer.dump());
    }
    return answer;
  }

  // The diagnostics published so far (for code actions); a failure to
  // check is logged by the server, and is a bug.
  void takeNotifications(const std::string& where) {
    for (Json& m : client_.kept()) {
      std::string method = m.value("method", "");
      if (method == "textDocument/publishDiagnostics")
        published_[m["params"]["uri"].get<std::string>()] =
            m["params"]["diagnostics"];
      if (method == "window/logMessage")
        CHECK_MESSAGE(m["params"]["type"] != 1, label_, ", ", where,
                      ": the server logged an error: ", m.dump());
    }
    client_.kept().clear();
  }

  LspClient client_;
  std::string label_;
  std::map<std::string, std::string> documents_;
  std::map<std::string, Json> published_;
  std::map<int, int> errors_;
  int version_ = 0;
  int requests_ = 0;
};

// A random edit as a user's typing and pasting makes: a range deleted, a
// keyword or punctuation, a piece of the text itself or random bytes
// inserted, or the text cut short.
std::string randomEdit(Random& random, std::string text,
                       const std::vector<std::string>& tokens) {
  std::size_t at = random.upTo(text.size());
  switch (random.upTo(4)) {
    case 0: {
      std::size_t length =
          random.oneIn(8) ? random.upTo(text.size() / 4) : random.upTo(12);
      text.erase(at, length);
      break;
    }
    case 1:
      text.insert(at, tokens[random.upTo(tokens.size() - 1)]);
      break;
    case 2: {
      std::size_t from = random.upTo(text.size());
      text.insert(at, text.substr(from, random.upTo(60)));
      break;
    }
    case 3: {
      std::string bytes;
      for (std::size_t n = random.upTo(6) + 1; n > 0; --n)
        bytes += static_cast<char>(random.upTo(255));
      text.insert(at, bytes);
      break;
    }
    default:
      text.resize(at);
      break;
  }
  return text;
}

const std::vector<std::string>& tokens() {
  static const std::vector<std::string> all =
      dictionary(fs::path(HERALD_SOURCE_DIR) / "tests/fuzz/herald.dict");
  return all;
}

void report(const std::string& what, std::uint64_t seed, int requests,
            const std::map<int, int>& errors) {
  std::string codes;
  for (const auto& [code, count] : errors)
    codes += " " + std::to_string(code) + "x" + std::to_string(count);
  MESSAGE(what, ": seed ", seed, ", ", requests,
          " requests answered, errors:", codes.empty() ? " none" : codes);
}

}  // namespace

TEST_CASE("random programs under random edits: every request answered") {
  const std::uint64_t seed = envNumber("HERALD_LSP_SEED", 1);
  const std::uint64_t programs = envNumber("HERALD_LSP_PROGRAMS", 20);
  const std::uint64_t edits = envNumber("HERALD_LSP_EDITS", 8);
  MESSAGE("random programs: seed ", seed, " (HERALD_LSP_SEED replays), ",
          programs, " programs, ", edits, " edits each");
  int requests = 0;
  std::map<int, int> errors;
  for (std::uint64_t i = 0; i < programs; ++i) {
    const std::uint64_t programSeed = seed + i;
    TempDir root;
    std::string command = std::string("'") + HERALD_PROGEN + "' --seed " +
                          std::to_string(programSeed) + " --out '" +
                          root.path() + "'";
    REQUIRE_MESSAGE(std::system(command.c_str()) == 0, command);
    std::vector<std::string> uris;
    for (const auto& entry : fs::directory_iterator(root.path()))
      uris.push_back(fileUri(entry.path().string()));
    std::sort(uris.begin(), uris.end());
    REQUIRE(!uris.empty());

    const std::string label = "program seed " + std::to_string(programSeed);
    Random random(programSeed);
    Session session(root.path(), label);
    for (const std::string& uri : uris)
      session.open(uri, readFile(uri.substr(std::string("file://").size())));
    session.ask(random, uris[0], "as generated");
    for (std::uint64_t edit = 1; edit <= edits; ++edit) {
      const std::string& uri = uris[random.upTo(uris.size() - 1)];
      std::string where = "edit " + std::to_string(edit) + " of " + uri;
      if (random.oneIn(10)) {
        // Closed (the file on disk is checked again) and opened again.
        std::string text = session.text(uri);
        session.close(uri);
        session.ask(random, uris[random.upTo(uris.size() - 1)], where);
        session.open(uri, text);
      }
      session.change(uri, randomEdit(random, session.text(uri), tokens()));
      session.ask(random, uri, where);
    }
    session.finish();
    requests += session.requests();
    for (const auto& [code, count] : session.errors()) errors[code] += count;
  }
  report("random programs", seed, requests, errors);
}

TEST_CASE("the fuzz corpora as files and documents: every request answered") {
  const std::uint64_t seed = envNumber("HERALD_LSP_SEED", 1);
  const fs::path corpora = fs::path(HERALD_SOURCE_DIR) / "tests/fuzz/corpus";
  int requests = 0;
  std::map<int, int> errors;
  std::size_t inputs = 0;
  for (const char* target : {"lexer", "parser", "checker"}) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(corpora / target))
      files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    REQUIRE(!files.empty());
    TempDir root;
    Session session(root.path(),
                    std::string("fuzz corpus ") + target +
                        " (HERALD_LSP_SEED=" + std::to_string(seed) + ")");
    Random random(seed);
    // An open document whose change makes the server check again, and so
    // read the files just written.
    const std::string anchor = fileUri(root.path() + "/anchor.herald");
    session.open(anchor, "context anchor\n");
    for (const fs::path& file : files) {
      ++inputs;
      const std::string where = file.filename().string();
      // A checker input is several files, split at `-- file` lines as the
      // fuzz target splits it.
      std::vector<std::string> texts;
      std::string text = readFile(file);
      if (std::string_view(target) == "checker") {
        constexpr std::string_view kSeparator = "\n-- file\n";
        std::size_t at = 0;
        while (texts.size() + 1 < 8 &&
               (at = text.find(kSeparator)) != std::string::npos) {
          texts.push_back(text.substr(0, at + 1));
          text.erase(0, at + kSeparator.size());
        }
      }
      texts.push_back(text);
      // First as files on disk, as they are (not always UTF-8).
      std::vector<std::string> paths;
      for (std::size_t i = 0; i < texts.size(); ++i) {
        paths.push_back(
            root.write("input" + std::to_string(i) + ".herald", texts[i]));
        session.onDisk(fileUri(paths.back()), texts[i]);
      }
      session.change(anchor, "context anchor\n");
      for (const std::string& path : paths)
        session.ask(random, fileUri(path), where + ", on disk");
      // Then the first opened in the editor, and changed.
      const std::string uri = fileUri(paths[0]);
      session.open(uri, texts[0]);
      session.ask(random, uri, where + ", open");
      session.change(uri, randomEdit(random, session.text(uri), tokens()));
      session.ask(random, uri, where + ", edited");
      session.close(uri);
      for (const std::string& path : paths) {
        fs::remove(path);
        session.forget(fileUri(path));
      }
    }
    session.finish();
    requests += session.requests();
    for (const auto& [code, count] : session.errors()) errors[code] += count;
  }
  MESSAGE("fuzz corpora: ", inputs, " inputs");
  report("fuzz corpora", seed, requests, errors);
}

}  // namespace herald::lsp::test
