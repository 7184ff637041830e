// textDocument/definition and textDocument/hover over a workspace of two
// contexts: one consumes the other's event and types, subscribes with a
// pattern, messages an agent through `Ref` and is given a capability.
#include <string>

#include <doctest/doctest.h>

#include "lsp_client.h"
#include "lsp_text.h"

namespace herald::lsp::test::navigation {
namespace {

const std::string kOrder = R"H(context shop.order

type Money = { cents: Int, currency: String }
type Region = | Domestic | International

---
An order was paid.
---
event Paid = {
  amount: Money,
  region: Region = Region.Domestic,
}

fn twice(m: Money) -> Money {
  Money { cents: m.cents * 2, currency: m.currency }
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

-- Mail goes out through the host.
capability Mailer {
  fn send(to: String, text: String)
}

agent Inbox {
  key owner: String
  store count: Int = 0

  on post(text: String) {
    count := count + 1
  }
}

service OnPaid
    from Events(shop.order.Paid { region: Region.Domestic, .. })
    given Boxes: Ref[Inbox], Mailer {
  on event(e: Paid) {
    let cents = e.amount.cents
    Boxes("x").post("paid \(cents)")
    Mailer.send(to: "a", text: "b")
  }
}
)H";

struct Workspace {
  TempDir root;
  std::string orderUri = fileUri(root.write("order.herald", kOrder));
  std::string notifyUri = fileUri(root.write("notify.herald", kNotify));
  LspClient client;
  Workspace() { client.initialize(root.path()); }

  // The definition of the name in `around` of the document `uri` holding
  // `text`, asked with the cursor `shift` bytes into the name.
  Json definition(const std::string& uri, const std::string& text,
                  const std::string& around, const std::string& name,
                  std::size_t shift = 0) {
    Json params = {
        {"textDocument", {{"uri", uri}}},
        {"position", position(text, offsetOf(text, around, name) + shift)}};
    Json response = client.request("textDocument/definition", params);
    REQUIRE(response.contains("result"));
    return response["result"];
  }

  // The markdown of the hover at the name in `around`; empty for null.
  std::string hover(const std::string& uri, const std::string& text,
                    const std::string& around, const std::string& name) {
    Json params = {{"textDocument", {{"uri", uri}}},
                   {"position", position(text, offsetOf(text, around, name))}};
    Json response = client.request("textDocument/hover", params);
    REQUIRE(response.contains("result"));
    const Json& result = response["result"];
    if (result.is_null()) return {};
    CHECK(result["contents"]["kind"] == "markdown");
    CHECK(result["range"] == rangeOf(text, around, name));
    return result["contents"]["value"].get<std::string>();
  }
};

}  // namespace

TEST_CASE("definition and hover are advertised") {
  TempDir root;
  LspClient client;
  Json init = client.initialize(root.path());
  CHECK(init["result"]["capabilities"]["definitionProvider"] == true);
  CHECK(init["result"]["capabilities"]["hoverProvider"] == true);
  CHECK(init["result"]["capabilities"]["referencesProvider"] == true);
}

TEST_CASE("definition: names across contexts, in patterns and through Ref") {
  Workspace w;
  const std::string& o = w.orderUri;
  const std::string& n = w.notifyUri;
  // The subscribed event, qualified, and the pattern's field and variant.
  CHECK(w.definition(n, kNotify, "shop.order.Paid {", "Paid") ==
        location(o, kOrder, "event Paid", "Paid"));
  CHECK(w.definition(n, kNotify, "{ region: Region", "region", 3) ==
        location(o, kOrder, "region: Region =", "region"));
  CHECK(w.definition(n, kNotify, "Region.Domestic, ..", "Region") ==
        location(o, kOrder, "type Region", "Region"));
  CHECK(w.definition(n, kNotify, "Region.Domestic, ..", "Domestic") ==
        location(o, kOrder, "| Domestic", "Domestic"));
  // `Ref[...]`, a capability in `given`, a name `consumes` imports.
  CHECK(w.definition(n, kNotify, "Ref[Inbox]", "Inbox") ==
        location(n, kNotify, "agent Inbox", "Inbox"));
  CHECK(w.definition(n, kNotify, "Ref[Inbox], Mailer", "Mailer") ==
        location(n, kNotify, "capability Mailer", "Mailer"));
  CHECK(w.definition(n, kNotify, "e: Paid", "Paid") ==
        location(o, kOrder, "event Paid", "Paid"));
  // A parameter, fields through a chain of accesses, a local in an
  // interpolation; the cursor just after a name still names it.
  CHECK(w.definition(n, kNotify, "= e.amount", "e") ==
        location(n, kNotify, "(e: Paid)", "e"));
  CHECK(w.definition(n, kNotify, "e.amount.cents", "amount", 6) ==
        location(o, kOrder, "amount: Money,", "amount"));
  CHECK(w.definition(n, kNotify, "e.amount.cents", "cents") ==
        location(o, kOrder, "cents: Int", "cents"));
  CHECK(w.definition(n, kNotify, "\\(cents)", "cents") ==
        location(n, kNotify, "let cents", "cents"));
  // A handler through `Ref(...)`, the dependency giving the Ref, a
  // capability's operation, a store written.
  CHECK(w.definition(n, kNotify, ".post(", "post") ==
        location(n, kNotify, "on post", "post"));
  CHECK(w.definition(n, kNotify, "Boxes(\"x\")", "Boxes") ==
        location(n, kNotify, "Boxes: Ref[Inbox]", "Boxes: Ref[Inbox]"));
  CHECK(w.definition(n, kNotify, "Mailer.send", "send") ==
        location(n, kNotify, "fn send", "send"));
  CHECK(w.definition(n, kNotify, "count := count", "count") ==
        location(n, kNotify, "store count", "count"));

  // In the other context: a fn, a parameter, a store, the emitted event
  // and its literal's fields, a bare variant, a record literal's type.
  CHECK(w.definition(o, kOrder, "twice(amount)", "twice") ==
        location(o, kOrder, "fn twice", "twice"));
  CHECK(w.definition(o, kOrder, "twice(amount)", "amount") ==
        location(o, kOrder, "pay(amount", "amount"));
  CHECK(w.definition(o, kOrder, "amount: total", "total") ==
        location(o, kOrder, "store total", "total"));
  CHECK(w.definition(o, kOrder, "emit(Paid", "Paid") ==
        location(o, kOrder, "event Paid", "Paid"));
  CHECK(w.definition(o, kOrder, "{ amount: total", "amount") ==
        location(o, kOrder, "amount: Money,", "amount"));
  CHECK(w.definition(o, kOrder, "region: Domestic", "Domestic") ==
        location(o, kOrder, "| Domestic", "Domestic"));
  CHECK(w.definition(o, kOrder, "Money { cents: m", "Money") ==
        location(o, kOrder, "type Money", "Money"));
  CHECK(w.definition(o, kOrder, "m.currency", "currency") ==
        location(o, kOrder, "currency: String", "currency"));
}

TEST_CASE("definition: null where no name resolves") {
  Workspace w;
  const std::string& n = w.notifyUri;
  // Whitespace, a comment, a keyword, a declaration's own name, a string.
  CHECK(w.definition(n, kNotify, "\n\nconsumes", "\n").is_null());
  CHECK(w.definition(n, kNotify, "-- Mail goes", "Mail").is_null());
  CHECK(w.definition(n, kNotify, "consumes shop", "consumes").is_null());
  CHECK(w.definition(n, kNotify, "agent Inbox", "Inbox").is_null());
  CHECK(w.definition(n, kNotify, "\"paid", "paid").is_null());
  // A position past the end of its line or of the file.
  Json params = {{"textDocument", {{"uri", n}}},
                 {"position", {{"line", 999}, {"character", 0}}}};
  CHECK(
      w.client.request("textDocument/definition", params)["result"].is_null());
  params["position"] = {{"line", 0}, {"character", 999}};
  CHECK(
      w.client.request("textDocument/definition", params)["result"].is_null());
  // A document outside the workspace.
  params["textDocument"]["uri"] = "file:///nowhere/x.herald";
  CHECK(
      w.client.request("textDocument/definition", params)["result"].is_null());
  // A position that is no position.
  params["position"] = {{"line", -1}, {"character", 0}};
  CHECK(w.client.request("textDocument/definition", params)["error"]["code"] ==
        -32602);
}

TEST_CASE("navigation: an edited document with syntax errors") {
  Workspace w;
  // The edit breaks the service's header; the names that still parse and
  // resolve keep their definitions, and the request reflects the edit
  // without waiting for diagnostics.
  std::string broken = kNotify;
  broken.replace(broken.find("from Events("), 12, "from Events((");
  w.client.notify("textDocument/didOpen", {{"textDocument",
                                            {{"uri", w.notifyUri},
                                             {"languageId", "herald"},
                                             {"version", 2},
                                             {"text", broken}}}});
  CHECK(w.definition(w.notifyUri, broken, "count := count", "count") ==
        location(w.notifyUri, broken, "store count", "count"));
  CHECK(w.definition(w.notifyUri, broken, "((shop", "(", 1).is_null());
  // Every line, at its start and inside it: each request answers.
  for (std::size_t line = 0; line < 30; ++line)
    for (int character : {0, 4, 9}) {
      Json params = {{"textDocument", {{"uri", w.notifyUri}}},
                     {"position", {{"line", line}, {"character", character}}}};
      Json found =
          w.client.request("textDocument/definition", params)["result"];
      CHECK((found.is_null() || found.contains("uri")));
      Json shown = w.client.request("textDocument/hover", params)["result"];
      CHECK((shown.is_null() || shown.contains("contents")));
      params["context"] = {{"includeDeclaration", true}};
      Json uses = w.client.request("textDocument/references", params)["result"];
      CHECK((uses.is_null() || uses.is_array()));
    }
}

TEST_CASE("hover: declarations with their doc, values with their types") {
  Workspace w;
  const std::string& o = w.orderUri;
  const std::string& n = w.notifyUri;
  // An event, from a use in another context: its doc, fields and context.
  const std::string paid =
      "```herald\nevent shop.order.Paid\n```\n\nAn order was paid.\n\n"
      "Fields:\n```herald\namount: Money\nregion: Region = "
      "Region.Domestic\n```\n\ncontext `shop.order`";
  CHECK(w.hover(n, kNotify, "e: Paid", "Paid") == paid);
  CHECK(w.hover(o, kOrder, "event Paid", "Paid") == paid);
  // A subscribing service: its event, pattern and `via`.
  CHECK(w.hover(n, kNotify, "service OnPaid", "OnPaid") ==
        "```herald\nservice shop.notify.OnPaid\n```\n\nSubscribes:\n"
        "```herald\nfrom Events(shop.order.Paid { region: "
        "Region.Domestic, .. })\n```\n\ncontext `shop.notify`");
  // A fn, a handler reached through `Ref`, a capability with its doc and
  // operations, a variant.
  CHECK(w.hover(o, kOrder, "twice(amount)", "twice") ==
        "```herald\nfn twice(m: shop.order.Money) -> shop.order.Money\n```"
        "\n\ncontext `shop.order`");
  CHECK(w.hover(n, kNotify, ".post(", "post") ==
        "```herald\non post(text: String)\n```\n\nhandler of "
        "`shop.notify.Inbox`");
  CHECK(w.hover(n, kNotify, "Ref[Inbox], Mailer", "Mailer") ==
        "```herald\ncapability shop.notify.Mailer\n  fn send(to: String, "
        "text: String)\n```\n\ncontext `shop.notify`");
  CHECK(w.hover(o, kOrder, "region: Domestic", "Domestic") ==
        "```herald\nDomestic\n```\n\nvariant of `shop.order.Region`");
  // Values: a local, a parameter, a field through an access and in a
  // pattern, a store written, as the checker typed them.
  CHECK(w.hover(n, kNotify, "let cents", "cents") ==
        "```herald\ncents: Int\n```");
  CHECK(w.hover(n, kNotify, "= e.amount", "e") ==
        "```herald\ne: shop.order.Paid\n```\n\nin `shop.notify.OnPaid`");
  CHECK(w.hover(n, kNotify, "e.amount.cents", "amount") ==
        "```herald\namount: shop.order.Money\n```\n\nin "
        "`shop.order.Paid`");
  CHECK(w.hover(n, kNotify, "{ region: Region", "region") ==
        "```herald\nregion: shop.order.Region\n```\n\nin "
        "`shop.order.Paid`");
  CHECK(w.hover(o, kOrder, "total := twice", "total") ==
        "```herald\ntotal: shop.order.Money\n```\n\nin "
        "`shop.order.Order`");
  // Nothing on whitespace, comments and keywords outside expressions
  // (inside one, lsp_hover_test.cpp).
  CHECK(w.hover(n, kNotify, "\n\nconsumes", "\nconsumes").empty());
  CHECK(w.hover(n, kNotify, "-- Mail goes", "Mail").empty());
  CHECK(w.hover(n, kNotify, "consumes shop", "consumes").empty());
}

TEST_CASE("references: every use across the workspace") {
  Workspace w;
  const std::string& o = w.orderUri;
  const std::string& n = w.notifyUri;
  auto references = [&](const std::string& uri, const std::string& text,
                        const std::string& around, const std::string& name,
                        bool include) {
    Json params = {{"textDocument", {{"uri", uri}}},
                   {"position", position(text, offsetOf(text, around, name))},
                   {"context", {{"includeDeclaration", include}}}};
    Json response = w.client.request("textDocument/references", params);
    REQUIRE(response.contains("result"));
    return response["result"];
  };
  // The event, from its declaration and from a use: the files by path
  // (notify.herald, then order.herald), each in source order.
  const Json paidUses =
      Json::array({location(n, kNotify, "shop.order.Paid {", "Paid"),
                   location(n, kNotify, "e: Paid", "Paid"),
                   location(o, kOrder, "emit(Paid", "Paid")});
  CHECK(references(o, kOrder, "event Paid", "Paid", false) == paidUses);
  Json withDecl = Json::array({location(o, kOrder, "event Paid", "Paid")});
  for (const Json& l : paidUses) withDecl.push_back(l);
  CHECK(references(n, kNotify, "e: Paid", "Paid", true) == withDecl);
  // A field named in a pattern, a literal and a default's variant path.
  CHECK(references(o, kOrder, "region: Region =", "region", false) ==
        Json::array({location(n, kNotify, "{ region: Region", "region"),
                     location(o, kOrder, "region: Domestic", "region")}));
  // A local: its binding is the declaration, listed once.
  CHECK(references(n, kNotify, "\\(cents)", "cents", true) ==
        Json::array({location(n, kNotify, "let cents", "cents"),
                     location(n, kNotify, "\\(cents)", "cents")}));
  // A handler reached through `Ref`, without context.
  Json params = {
      {"textDocument", {{"uri", n}}},
      {"position", position(kNotify, offsetOf(kNotify, "on post", "post"))}};
  CHECK(w.client.request("textDocument/references", params)["result"] ==
        Json::array({location(n, kNotify, ".post(", "post")}));
  // Nothing named: null; a bad context: an error.
  CHECK(references(n, kNotify, "-- Mail goes", "Mail", true).is_null());
  params["context"] = {{"includeDeclaration", "yes"}};
  CHECK(w.client.request("textDocument/references", params)["error"]["code"] ==
        -32602);
}

}  // namespace herald::lsp::test::navigation
