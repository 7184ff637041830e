// textDocument/completion: documents opened with the cursor at `$$` (the
// marker is removed), most of them not parsing there, as while typing.
#include <string>

#include <doctest/doctest.h>

#include "lsp_client.h"
#include "lsp_text.h"

namespace herald::lsp::test::completion {
namespace {

const std::string kOrder = R"H(context shop.order

type Money = { cents: Int, currency: String }
type Region = | Domestic | International

event Paid = { amount: Money, region: Region }

fn twice(m: Money) -> Money {
  Money { cents: m.cents * 2, currency: m.currency }
}

fn fee(m: Money, region: Region) -> Int {
  m.cents
}

agent Order {
  key id: String
  store total: Money = Money { cents: 0, currency: "EUR" }

  on pay(amount: Money) given Events {
    total := twice(amount)
    Events.emit(Paid { amount: total, region: Domestic })
  }
}
)H";

const std::string kNotify = R"H(context shop.notify

consumes shop.order

capability Mailer {
  fn send(to: String, text: String)
}

agent Inbox {
  key owner: String

  on post(text: String) {}
  on call count() -> Int { 0 }
}

service OnPaid
    from Events(shop.order.Paid { region: Region.Domestic, .. })
    given Boxes: Ref[Inbox], Mailer {
  on event(e: Paid) {
    let cents = e.amount.cents
    Boxes("x").post("paid \(cents)")
  }
}
)H";

struct Completion {
  TempDir root;
  std::string orderUri = fileUri(root.write("order.herald", kOrder));
  std::string notifyUri = fileUri(root.write("notify.herald", kNotify));
  LspClient client;
  Completion() { client.initialize(root.path()); }

  // Opens `uri` with `text` whose `replace` is replaced by `with`, which
  // holds the cursor `$$`; the items offered there.
  Json items(const std::string& uri, std::string text,
             const std::string& replace, std::string with) {
    std::size_t at = text.find(replace);
    REQUIRE(at != std::string::npos);
    std::size_t cursor = with.find("$$");
    REQUIRE(cursor != std::string::npos);
    with.erase(cursor, 2);
    text.replace(at, replace.size(), with);
    client.notify("textDocument/didOpen", {{"textDocument",
                                            {{"uri", uri},
                                             {"languageId", "herald"},
                                             {"version", ++version},
                                             {"text", text}}}});
    Json response = client.request("textDocument/completion",
                                   {{"textDocument", {{"uri", uri}}},
                                    {"position", position(text, at + cursor)}});
    REQUIRE(response.contains("result"));
    CHECK(response["result"]["isIncomplete"] == false);
    return response["result"]["items"];
  }
  int version = 0;
};

Json item(const std::string& label, int kind, const std::string& detail = "") {
  Json i = {{"label", label}, {"kind", kind}};
  if (!detail.empty()) i["detail"] = detail;
  return i;
}

Json labels(const Json& items) {
  Json out = Json::array();
  for (const Json& i : items) out.push_back(i["label"]);
  return out;
}

}  // namespace

TEST_CASE("completion: advertised with its trigger characters") {
  TempDir root;
  LspClient client;
  Json init = client.initialize(root.path());
  CHECK(init["result"]["capabilities"]["completionProvider"] ==
        Json{{"triggerCharacters", {".", "{", ",", ":", "["}}});
}

TEST_CASE("completion: fields not yet written, in patterns and literals") {
  Completion w;
  // A subscription's pattern: the field not in it.
  CHECK(w.items(w.notifyUri, kNotify, "Region.Domestic, ..",
                "Region.Domestic, $$ ..") ==
        Json::array({item("amount", 5, "shop.order.Money")}));
  // An event literal being typed, unclosed: the file does not parse.
  CHECK(w.items(w.orderUri, kOrder, "Paid { amount: total, region: Domestic })",
                "Paid { region: Domestic, $$") ==
        Json::array({item("amount", 5, "shop.order.Money")}));
  // A record literal, right after its brace, a field written after the
  // cursor; a word begun.
  CHECK(w.items(w.orderUri, kOrder, "Money { cents: 0, currency: \"EUR\" }",
                "Money { cu$$, cents: 0 }") ==
        Json::array({item("currency", 5, "String")}));
  // Every field written: nothing.
  CHECK(w.items(w.orderUri, kOrder, "Money { cents: 0, currency: \"EUR\" }",
                "Money { cents: 0, currency: \"EUR\", $$ }") == Json::array());
}

TEST_CASE("completion: the variants a field's sum type expects") {
  Completion w;
  Json regions = Json::array({item("Domestic", 20, "shop.order.Region"),
                              item("International", 20, "shop.order.Region")});
  CHECK(w.items(w.orderUri, kOrder, "region: Domestic })", "region: $$\n") ==
        regions);
  CHECK(w.items(w.notifyUri, kNotify, "{ region: Region.Domestic",
                "{ region: $$") == regions);
  // A labelled argument of a fn, the call unfinished.
  CHECK(w.items(w.orderUri, kOrder, "total := twice(amount)",
                "total := fee(m: amount, region: $$") == regions);
  // After the type's name and a dot.
  CHECK(w.items(w.notifyUri, kNotify, "Region.Domestic, ..", "Region.$$, ..") ==
        Json::array({item("Domestic", 20), item("International", 20)}));
}

TEST_CASE("completion: members of values, handlers through Ref") {
  Completion w;
  // A handler reached through the dependency's Ref, the line unfinished.
  CHECK(w.items(w.notifyUri, kNotify, "Boxes(\"x\").post(\"paid \\(cents)\")",
                "Boxes(\"x\").$$") ==
        Json::array({item("post", 2, "on post(text: String)"),
                     item("count", 2, "on call count() -> Int")}));
  // A value's fields, through a chain; a capability's operations.
  CHECK(w.items(w.notifyUri, kNotify, "e.amount.cents", "e.amount.$$") ==
        Json::array({item("cents", 5, "Int"), item("currency", 5, "String")}));
  CHECK(labels(w.items(w.notifyUri, kNotify, "e.amount.cents", "e.$$")) ==
        Json::array({"amount", "region"}));
  CHECK(
      w.items(w.notifyUri, kNotify, "let cents", "Mailer.$$\n    let cents") ==
      Json::array({item("send", 3, "fn send(to: String, text: String)")}));
  CHECK(labels(w.items(w.orderUri, kOrder, "Events.emit", "Events.$$")) ==
        Json::array({"emit"}));
}

TEST_CASE("completion: consumes, given and Ref[...]") {
  Completion w;
  // Context names after `consumes`, replacing the dotted name typed.
  Json contexts =
      w.items(w.notifyUri, kNotify, "consumes shop.order", "consumes shop.$$");
  REQUIRE(contexts.size() == 1);
  CHECK(contexts[0]["label"] == "shop.order");
  CHECK(contexts[0]["kind"] == 9);
  CHECK(contexts[0]["textEdit"]["newText"] == "shop.order");
  CHECK(contexts[0]["textEdit"]["range"] ==
        Json{{"start", {{"line", 2}, {"character", 9}}},
             {"end", {{"line", 2}, {"character", 14}}}});
  // The names `consumes X { ... }` may import, those listed left out.
  CHECK(labels(w.items(w.notifyUri, kNotify, "consumes shop.order",
                       "consumes shop.order { Paid, $$ }")) ==
        Json::array({"Money", "Region", "twice", "fee", "Order"}));
  // Capabilities in `given` not listed yet: the context's, then the
  // first-party ones.
  CHECK(labels(w.items(w.notifyUri, kNotify, "Ref[Inbox], Mailer {",
                       "Ref[Inbox], $$ {")) ==
        Json::array(
            {"Mailer", "Events", "Clock", "Logger", "Idempotency", "Random"}));
  CHECK(labels(w.items(w.orderUri, kOrder, "given Events {",
                       "given Events, $$ {")) ==
        Json::array({"Clock", "Logger", "Idempotency", "Random"}));
  // The agents a Ref may address: the context's and those it consumes.
  CHECK(w.items(w.notifyUri, kNotify, "Ref[Inbox]", "Ref[$$") ==
        Json::array({item("Inbox", 7, "shop.notify.Inbox"),
                     item("Order", 7, "shop.order.Order")}));
}

TEST_CASE("completion: nothing in comments, strings, keywords") {
  Completion w;
  CHECK(w.items(w.notifyUri, kNotify, "capability Mailer",
                "-- Mailer.$$\ncapability Mailer") == Json::array());
  CHECK(w.items(w.notifyUri, kNotify, "\"paid ", "\"pa$$id ") == Json::array());
  CHECK(w.items(w.notifyUri, kNotify, "given Boxes", "given$$ Boxes") ==
        Json::array());
  // A document outside the workspace.
  Json response =
      w.client.request("textDocument/completion",
                       {{"textDocument", {{"uri", "file:///nowhere/x.herald"}}},
                        {"position", {{"line", 0}, {"character", 0}}}});
  CHECK(response["result"]["items"] == Json::array());
}

}  // namespace herald::lsp::test::completion
