// Scripted sessions with `heraldc lsp` over pipes: the protocol as an
// editor speaks it.
#include <string>

#include <doctest/doctest.h>

#include "lsp_client.h"

namespace herald::lsp::test::session {
namespace {

const Json* findSymbol(const Json& symbols, const std::string& name) {
  for (const Json& s : symbols)
    if (s["name"] == name) return &s;
  return nullptr;
}

bool about(const Json& notification, const std::string& uri) {
  return notification["params"]["uri"] == uri;
}

}  // namespace

TEST_CASE(
    "initialize answers with the capabilities; shutdown and exit end "
    "with 0") {
  TempDir root;
  LspClient client;
  Json init = client.initialize(root.path());
  REQUIRE(init.contains("result"));
  const Json& caps = init["result"]["capabilities"];
  CHECK(caps["textDocumentSync"]["change"] == 1);
  CHECK(caps["textDocumentSync"]["openClose"] == true);
  CHECK(caps["documentFormattingProvider"] == true);
  CHECK(caps["documentSymbolProvider"] == true);
  CHECK(init["result"]["serverInfo"]["name"] == "heraldc");
  Json down = client.request("shutdown", nullptr);
  CHECK(down.contains("result"));
  CHECK(down["result"].is_null());
  // After shutdown, requests are refused but answered.
  Json late = client.request("textDocument/documentSymbol",
                             {{"textDocument", {{"uri", "file:///x.herald"}}}});
  CHECK(late["error"]["code"] == -32600);
  client.notify("exit", nullptr);
  CHECK(client.waitExit() == 0);
}

TEST_CASE("exit without shutdown ends with 1, as does closing the input") {
  {
    LspClient client;
    client.notify("exit", nullptr);
    CHECK(client.waitExit() == 1);
  }
  {
    LspClient client;
    client.closeInput();
    CHECK(client.waitExit() == 1);
  }
}

TEST_CASE(
    "diagnostics: published on open with code and UTF-16 range, "
    "emptied when fixed, coalesced over queued changes") {
  TempDir root;
  root.write("money.herald",
             "context demo.money\n\ntype Money = { cents: Int, currency: "
             "String }\n");
  // On disk the file is clean; the editor's text has the error, and wins.
  const std::string clean =
      "context demo.paid\n\ntype Money = { cents: Int }\n"
      "event Paid = { note: String = \"h\xC3\xA9llo \xF0\x9D\x84\x9E\", "
      "amount: Money }\n";
  std::string broken = clean;
  broken.replace(broken.rfind("Money"), 5, "Monye");
  std::string path = root.write("paid.herald", clean);
  std::string uri = fileUri(path);

  LspClient client;
  client.initialize(root.path());
  client.notify("textDocument/didOpen", {{"textDocument",
                                          {{"uri", uri},
                                           {"languageId", "herald"},
                                           {"version", 1},
                                           {"text", broken}}}});
  std::optional<Json> published = client.waitNotification(
      "textDocument/publishDiagnostics", [&](const Json& m) {
        return about(m, uri) && !m["params"]["diagnostics"].empty();
      });
  REQUIRE(published);
  const Json& diagnostics = (*published)["params"]["diagnostics"];
  REQUIRE(diagnostics.size() == 1);
  const Json& d = diagnostics[0];
  CHECK(d["code"] == "E0202");
  CHECK(d["severity"] == 1);
  CHECK(d["source"] == "heraldc");
  CHECK(d["message"].get<std::string>().find("Monye") != std::string::npos);
  // Line 4 (0-based 3). Before `Monye` the line holds `é` (2 bytes, one
  // UTF-16 unit) and U+1D11E (4 bytes, two units): 3 fewer than bytes.
  std::string line = broken.substr(broken.rfind('\n', broken.size() - 2) + 1);
  auto bytes = static_cast<int>(line.find("Monye"));
  CHECK(d["range"]["start"]["line"] == 3);
  CHECK(d["range"]["start"]["character"] == bytes - 3);
  CHECK(d["range"]["end"]["line"] == 3);
  CHECK(d["range"]["end"]["character"] == bytes - 3 + 5);

  // Three changes written at once: the server checks only the last (the
  // fix), so the first diagnostics it publishes for the file are empty.
  std::string batch;
  for (int version = 2; version <= 4; ++version) {
    std::string text = version == 4 ? clean : broken;
    if (version == 3) text.replace(text.find("Int"), 3, "Integr");
    std::string body =
        Json{{"jsonrpc", "2.0"},
             {"method", "textDocument/didChange"},
             {"params",
              {{"textDocument", {{"uri", uri}, {"version", version}}},
               {"contentChanges", {{{"text", text}}}}}}}
            .dump();
    batch +=
        "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  REQUIRE(batch.size() < 4096);  // one atomic write on a pipe
  client.sendRaw(batch);
  published =
      client.waitNotification("textDocument/publishDiagnostics",
                              [&](const Json& m) { return about(m, uri); });
  REQUIRE(published);
  CHECK((*published)["params"]["diagnostics"].empty());
  // Nothing else about the file follows (a round trip proves it).
  (void)client.request("textDocument/documentSymbol",
                       {{"textDocument", {{"uri", uri}}}});
  for (const Json& m : client.kept())
    CHECK_FALSE((m.value("method", "") == "textDocument/publishDiagnostics" &&
                 about(m, uri)));
}

TEST_CASE("diagnostics: notes with a location are related information") {
  TempDir root;
  std::string path = root.write(
      "dup.herald",
      "context demo.dup\n\ntype Money = { cents: Int }\ntype Money = { "
      "cents: Int }\n");
  LspClient client;
  client.initialize(root.path());
  // Diagnostics of files on disk come without any document being opened.
  std::optional<Json> published = client.waitNotification(
      "textDocument/publishDiagnostics",
      [&](const Json& m) { return about(m, fileUri(path)); });
  REQUIRE(published);
  const Json& diagnostics = (*published)["params"]["diagnostics"];
  REQUIRE(diagnostics.size() == 1);
  const Json& d = diagnostics[0];
  CHECK(d["range"]["start"]["line"] == 3);
  REQUIRE(d.contains("relatedInformation"));
  const Json& related = d["relatedInformation"][0];
  CHECK(related["location"]["uri"] == fileUri(path));
  CHECK(related["location"]["range"]["start"]["line"] == 2);
}

TEST_CASE(
    "formatting: one edit to the canonical form, none when canonical "
    "or broken") {
  TempDir root;
  LspClient client;
  client.initialize(root.path());
  const std::string uri = fileUri(root.path() + "/fmt.herald");
  auto format = [&](const std::string& text) {
    client.notify("textDocument/didOpen", {{"textDocument",
                                            {{"uri", uri},
                                             {"languageId", "herald"},
                                             {"version", 1},
                                             {"text", text}}}});
    Json answer =
        client.request("textDocument/formatting",
                       {{"textDocument", {{"uri", uri}}},
                        {"options", {{"tabSize", 2}, {"insertSpaces", true}}}});
    REQUIRE(answer.contains("result"));
    return answer["result"];
  };
  const std::string canonical =
      "context demo.fmt\n\ntype Money = { cents: Int, currency: String }\n";
  const std::string messy =
      "context   demo.fmt\ntype Money={cents:Int,\n  currency:String}";
  Json edits = format(messy);
  REQUIRE(edits.size() == 1);
  CHECK(edits[0]["newText"] == canonical);
  CHECK(edits[0]["range"]["start"] == Json({{"line", 0}, {"character", 0}}));
  CHECK(edits[0]["range"]["end"] == Json({{"line", 2}, {"character", 18}}));
  CHECK(format(canonical).empty());
  CHECK(format("context demo.fmt\ntype Money = {").empty());
}

TEST_CASE("documentSymbol: the outline with ranges from the AST") {
  TempDir root;
  const std::string text =
      "context demo.outline\n"
      "\n"
      "type Money = { cents: Int }\n"
      "type Region = | Domestic | International\n"
      "event Paid = {\n"
      "  amount: Money,\n"
      "}\n"
      "agent Wallet {\n"
      "  key id: String\n"
      "  store balance: Int = 0\n"
      "  on pay(amount: Money) {\n"
      "    balance := balance + amount.cents\n"
      "  }\n"
      "}\n"
      "service Audit from Events(Paid) {\n"
      "  on event(e: Paid) {\n"
      "  }\n"
      "}\n";
  std::string path = root.write("outline.herald", text);
  LspClient client;
  client.initialize(root.path());
  Json answer = client.request("textDocument/documentSymbol",
                               {{"textDocument", {{"uri", fileUri(path)}}}});
  REQUIRE(answer.contains("result"));
  const Json& symbols = answer["result"];
  REQUIRE(symbols.size() == 1);
  const Json& context = symbols[0];
  CHECK(context["name"] == "demo.outline");
  CHECK(context["kind"] == 3);
  const Json& decls = context["children"];
  const Json* money = findSymbol(decls, "Money");
  REQUIRE(money);
  CHECK((*money)["kind"] == 23);
  CHECK((*money)["children"][0]["name"] == "cents");
  const Json* region = findSymbol(decls, "Region");
  REQUIRE(region);
  CHECK((*region)["kind"] == 10);
  CHECK((*region)["children"].size() == 2);
  const Json* paid = findSymbol(decls, "Paid");
  REQUIRE(paid);
  CHECK((*paid)["kind"] == 24);
  CHECK((*paid)["range"]["start"] == Json({{"line", 4}, {"character", 0}}));
  CHECK((*paid)["range"]["end"] == Json({{"line", 6}, {"character", 1}}));
  CHECK((*paid)["selectionRange"]["start"] ==
        Json({{"line", 4}, {"character", 6}}));
  CHECK((*paid)["children"][0]["name"] == "amount");
  CHECK((*paid)["children"][0]["range"]["start"]["line"] == 5);
  const Json* wallet = findSymbol(decls, "Wallet");
  REQUIRE(wallet);
  CHECK((*wallet)["kind"] == 5);
  const Json& members = (*wallet)["children"];
  REQUIRE(members.size() == 3);
  CHECK(members[0]["name"] == "id");
  CHECK(members[1]["name"] == "balance");
  CHECK(members[2]["name"] == "pay");
  CHECK(members[2]["kind"] == 6);
  CHECK(members[2]["range"]["start"]["line"] == 10);
  const Json* audit = findSymbol(decls, "Audit");
  REQUIRE(audit);
  CHECK((*audit)["kind"] == 2);
  CHECK((*audit)["children"][0]["name"] == "event");
}

TEST_CASE("code actions: a diagnostic's fix-its are quick fixes") {
  TempDir root;
  std::string path =
      root.write("shop.herald",
                 "context shop\n\nagent Shelf {\n  key sku: String\n\n"
                 "  on restock(n: Int) {\n    let at = Clock.now\n  }\n}\n");
  std::string uri = fileUri(path);
  LspClient client;
  client.initialize(root.path());
  std::optional<Json> published =
      client.waitNotification("textDocument/publishDiagnostics",
                              [&](const Json& m) { return about(m, uri); });
  REQUIRE(published);
  const Json& diagnostics = (*published)["params"]["diagnostics"];
  REQUIRE(!diagnostics.empty());
  Json answer = client.request("textDocument/codeAction",
                               {{"textDocument", {{"uri", uri}}},
                                {"range", diagnostics[0]["range"]},
                                {"context", {{"diagnostics", diagnostics}}}});
  REQUIRE(answer.contains("result"));
  const Json& actions = answer["result"];
  REQUIRE(!actions.empty());
  CHECK(actions[0]["kind"] == "quickfix");
  const Json& edit = actions[0]["edit"]["changes"][uri][0];
  CHECK(edit["newText"].get<std::string>().find("Clock") != std::string::npos);
}

TEST_CASE("bad input gets JSON-RPC errors and the server keeps answering") {
  TempDir root;
  LspClient client({"--max-message-bytes", "1024"});

  // Before initialize a request is refused.
  Json early = client.request("textDocument/documentSymbol",
                              {{"textDocument", {{"uri", "file:///x"}}}});
  CHECK(early["error"]["code"] == -32002);
  client.initialize(root.path());

  client.sendRaw("Content-Length: 9\r\n\r\n{\"jsonrp\"");
  std::optional<Json> parseError = client.next();
  REQUIRE(parseError);
  CHECK((*parseError)["error"]["code"] == -32700);
  CHECK((*parseError)["id"].is_null());

  client.sendRaw("Content-Length: 2\r\n\r\n[]");
  std::optional<Json> notObject = client.next();
  REQUIRE(notObject);
  CHECK((*notObject)["error"]["code"] == -32600);

  client.sendRaw("Content-Type: x\r\n\r\n");
  std::optional<Json> noLength = client.next();
  REQUIRE(noLength);
  CHECK((*noLength)["error"]["code"] == -32700);

  // Over the cap: refused, and its content skipped, not parsed.
  std::string big =
      "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"shutdown\",\"x\":\"" +
      std::string(2000, 'a') + "\"}";
  client.sendRaw("Content-Length: " + std::to_string(big.size()) + "\r\n\r\n" +
                 big);
  std::optional<Json> tooLarge = client.next();
  REQUIRE(tooLarge);
  CHECK((*tooLarge)["error"]["code"] == -32600);
  CHECK((*tooLarge)["id"].is_null());

  Json unknown = client.request("textDocument/teleport", Json::object());
  CHECK(unknown["error"]["code"] == -32601);

  Json badParams = client.request("textDocument/formatting", {{"x", 1}});
  CHECK(badParams["error"]["code"] == -32602);
  Json wrongType = client.request("textDocument/documentSymbol",
                                  {{"textDocument", {{"uri", 7}}}});
  CHECK(wrongType["error"]["code"] == -32602);

  // A notification with bad params cannot be answered; it is logged.
  client.notify("textDocument/didOpen", {{"textDocument", 3}});
  std::optional<Json> logged = client.waitNotification("window/logMessage");
  REQUIRE(logged);
  CHECK((*logged)["params"]["type"] == 1);

  // Still alive, and it still shuts down cleanly.
  Json down = client.request("shutdown", nullptr);
  CHECK(down["result"].is_null());
  client.notify("exit", nullptr);
  CHECK(client.waitExit() == 0);
}

TEST_CASE(
    "malformed frames and messages get errors or are ignored; the "
    "server keeps answering") {
  TempDir root;
  LspClient client;
  client.initialize(root.path());
  auto frame = [](const std::string& body) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  auto alive = [&] {
    Json answer = client.request("textDocument/documentSymbol",
                                 {{"textDocument", {{"uri", "file:///x"}}}});
    return answer.contains("result") || answer.contains("error");
  };

  // A length past 64 bits, a negative and a non-numeric one: a frame
  // error each, and the next frame is read.
  for (const char* length : {"99999999999999999999999", "-5", "12abc", ""}) {
    client.sendRaw(std::string("Content-Length: ") + length + "\r\n\r\n");
    std::optional<Json> error = client.next();
    REQUIRE(error);
    CHECK((*error)["error"]["code"] == -32700);
  }
  CHECK(alive());

  // A frame written in pieces, a byte at a time for its header.
  std::string split =
      frame(R"({"jsonrpc":"2.0","id":"split","method":"shutdown-not"})");
  for (std::size_t i = 0; i < 30; ++i) client.sendRaw(split.substr(i, 1));
  client.sendRaw(split.substr(30));
  std::optional<Json> pieces = client.next();
  REQUIRE(pieces);
  CHECK((*pieces)["id"] == "split");
  CHECK((*pieces)["error"]["code"] == -32601);

  // Not UTF-8, and JSON with trailing bytes: parse errors.
  client.sendRaw(
      frame("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}"));
  std::optional<Json> notUtf8 = client.next();
  REQUIRE(notUtf8);
  CHECK((*notUtf8)["error"]["code"] == -32700);
  client.sendRaw(frame(R"({"jsonrpc":"2.0","id":1,"method":"shutdown"} {})"));
  std::optional<Json> trailing = client.next();
  REQUIRE(trailing);
  CHECK((*trailing)["error"]["code"] == -32700);

  // An id that is neither a string nor an integer, a method that is not a
  // string: invalid requests, answered with the id when it is usable.
  for (const char* id : {R"({"a":1})", "1.5", "true", "[1]"}) {
    client.sendRaw(frame(std::string(R"({"jsonrpc":"2.0","id":)") + id +
                         R"(,"method":"textDocument/hover"})"));
    std::optional<Json> badId = client.next();
    REQUIRE(badId);
    CHECK((*badId)["error"]["code"] == -32600);
    CHECK((*badId)["id"].is_null());
  }
  client.sendRaw(frame(R"({"jsonrpc":"2.0","id":41,"method":3})"));
  std::optional<Json> badMethod = client.next();
  REQUIRE(badMethod);
  CHECK((*badMethod)["id"] == 41);
  CHECK((*badMethod)["error"]["code"] == -32600);

  // Params of the wrong shape: an array, a string, positions negative,
  // fractional or past 32 bits.
  const Json document = {{"uri", fileUri(root.path() + "/a.herald")}};
  for (const Json& params :
       {Json::array({1, 2}), Json("text"),
        Json{{"textDocument", document},
             {"position", {{"line", -1}, {"character", 0}}}},
        Json{{"textDocument", document},
             {"position", {{"line", 0.5}, {"character", 0}}}},
        Json{{"textDocument", document},
             {"position", {{"line", 0}, {"character", 4294967296}}}},
        Json{{"textDocument", document}, {"position", "0:0"}}}) {
    for (const char* method : {"textDocument/hover", "textDocument/definition",
                               "textDocument/references"}) {
      Json answer = client.request(method, params);
      CHECK_MESSAGE(answer["error"]["code"] == -32602, method, " ",
                    params.dump(), " -> ", answer.dump());
    }
  }
  Json badActions = client.request(
      "textDocument/codeAction",
      {{"textDocument", document}, {"context", {{"diagnostics", 5}}}});
  CHECK(badActions["error"]["code"] == -32602);
  // Diagnostics in a code action's context that are not ours are skipped.
  Json fixit = Json::object({{"title", 1}});
  Json notOurs = Json::array(
      {1, "x", Json::object({{"data", {{"fixits", Json::array({fixit})}}}})});
  Json foreign = client.request(
      "textDocument/codeAction",
      {{"textDocument", document}, {"context", {{"diagnostics", notOurs}}}});
  CHECK(foreign["result"] == Json::array());

  // Nesting deeper than any message of the protocol, in a request's
  // params and a notification's: refused while parsing (copying or
  // printing it would overflow the stack). Nesting an LSP client could
  // send, echoed back in a code action, is fine.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const char* head :
       {R"({"jsonrpc":"2.0","id":"deep","method":"textDocument/hover",)",
        R"({"jsonrpc":"2.0","method":"textDocument/didOpen",)"}) {
    client.sendRaw(frame(std::string(head) + R"("params":)" + deep + "}"));
    std::optional<Json> tooDeep = client.next();
    REQUIRE(tooDeep);
    CHECK((*tooDeep)["id"].is_null());
    CHECK((*tooDeep)["error"]["code"] == -32700);
  }
  Json nested = "x";
  for (int i = 0; i < 200; ++i) nested = Json::array({nested});
  Json deepFixit = {{"title", "t"}, {"uri", document["uri"]}, {"edit", nested}};
  Json deepDiagnostic = {{"data", {{"fixits", Json::array({deepFixit})}}}};
  Json echoed = client.request(
      "textDocument/codeAction",
      {{"textDocument", document},
       {"context", {{"diagnostics", Json::array({deepDiagnostic})}}}});
  REQUIRE(echoed["result"].size() == 1);
  CHECK(echoed["result"][0]["edit"]["changes"]
              [document["uri"].get<std::string>()][0] == nested);

  // A response from the client (there is no request of the server's to
  // match), unknown notifications and $/cancelRequest: no answer at all.
  client.send({{"jsonrpc", "2.0"}, {"id", 77}, {"result", nullptr}});
  client.notify("$/cancelRequest", {{"id", 1}});
  client.notify("workspace/didChangeConfiguration", {{"settings", 1}});
  client.notify("textDocument/teleport", "x");
  // An incremental change is refused (full documents were asked for).
  Json zero = {{"line", 0}, {"character", 0}};
  Json rangeChange = {{"range", {{"start", zero}, {"end", zero}}},
                      {"text", "x"}};
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", document["uri"]}, {"version", 2}}},
                 {"contentChanges", Json::array({rangeChange})}});
  std::optional<Json> incremental =
      client.waitNotification("window/logMessage");
  REQUIRE(incremental);
  CHECK((*incremental)["params"]["message"].get<std::string>().find(
            "incremental") != std::string::npos);
  Json last = client.request("textDocument/documentSymbol",
                             {{"textDocument", document}});
  CHECK((last.contains("result") || last.contains("error")));
  for (const Json& m : client.kept()) CHECK_FALSE(m.contains("id"));

  // A request about a document that is neither open nor on disk.
  Json nowhere = client.request(
      "textDocument/hover",
      {{"textDocument", {{"uri", "file:///nowhere/at/all.herald"}}},
       {"position", {{"line", 0}, {"character", 0}}}});
  CHECK((nowhere.contains("result") || nowhere.contains("error")));
  Json notFile =
      client.request("textDocument/definition",
                     {{"textDocument", {{"uri", "untitled:Untitled-1"}}},
                      {"position", {{"line", 0}, {"character", 0}}}});
  CHECK((notFile.contains("result") || notFile.contains("error")));

  Json down = client.request("shutdown", nullptr);
  CHECK(down["result"].is_null());
  client.notify("exit", nullptr);
  CHECK(client.waitExit() == 0);
}

}  // namespace herald::lsp::test::session
