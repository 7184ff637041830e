// Navigation through the names of `consumes` lines (the context and the
// `{ A, B }` list) and argument labels (`f(times: 2)`, the parameter).
#include <string>

#include <doctest/doctest.h>

#include "lsp_client.h"
#include "lsp_text.h"

namespace herald::lsp::test::consumes_labels {
namespace {

const std::string kOrder = R"H(---
Orders and their payment.
---
context shop.order

type Money = { cents: Int, currency: String }

event Paid = { amount: Money }

fn scale(m: Money, times: Int) -> Money {
  Money { cents: m.cents * times, currency: m.currency }
}

fn twice(m: Money) -> Money {
  scale(m: m, times: 2)
}
)H";

const std::string kNotify = R"H(context shop.notify

consumes shop.order { Paid, Money }

service OnPaid from Events(Paid) {
  on event(e: Paid) {}
}
)H";

struct Workspace {
  TempDir root;
  std::string orderUri = fileUri(root.write("order.herald", kOrder));
  std::string notifyUri = fileUri(root.write("notify.herald", kNotify));
  LspClient client;
  Workspace() { client.initialize(root.path()); }

  Json ask(const std::string& method, const std::string& uri,
           const std::string& text, const std::string& around,
           const std::string& name, const Json& extra = Json::object()) {
    Json params = {{"textDocument", {{"uri", uri}}},
                   {"position", position(text, offsetOf(text, around, name))}};
    params.update(extra);
    Json response = client.request(method, params);
    REQUIRE(response.contains("result"));
    return response["result"];
  }
};

}  // namespace

TEST_CASE("navigation: the names of a consumes line") {
  Workspace w;
  const std::string& o = w.orderUri;
  const std::string& n = w.notifyUri;
  // A name of the `{ A, B }` list: its declaration, its hover, and it is
  // among the declaration's references.
  CHECK(w.ask("textDocument/definition", n, kNotify, "{ Paid,", "Paid") ==
        location(o, kOrder, "event Paid", "Paid"));
  CHECK(w.ask("textDocument/definition", n, kNotify, "Paid, Money", "Money") ==
        location(o, kOrder, "type Money", "Money"));
  CHECK(w.ask("textDocument/hover", n, kNotify, "{ Paid,",
              "Paid")["contents"]["value"]
            .get<std::string>()
            .starts_with("```herald\nevent shop.order.Paid\n```"));
  CHECK(w.ask("textDocument/references", n, kNotify, "{ Paid,", "Paid",
              {{"context", {{"includeDeclaration", false}}}}) ==
        Json::array({location(n, kNotify, "{ Paid,", "Paid"),
                     location(n, kNotify, "Events(Paid)", "Paid"),
                     location(n, kNotify, "e: Paid", "Paid")}));
  // The context: where it is opened, with its doc on hover; a context is
  // not renamed.
  CHECK(w.ask("textDocument/definition", n, kNotify, "consumes shop.order",
              "shop.order") ==
        location(o, kOrder, "context shop.order", "shop.order"));
  Json hover = w.ask("textDocument/hover", n, kNotify, "consumes shop.order",
                     "shop.order");
  CHECK(hover["contents"]["value"] ==
        "```herald\ncontext shop.order\n```\n\nOrders and their payment.");
  CHECK(hover["range"] ==
        rangeOf(kNotify, "consumes shop.order", "shop.order"));
  CHECK(
      w.ask("textDocument/references", o, kOrder, "context shop.order",
            "shop.order", {{"context", {{"includeDeclaration", false}}}}) ==
      Json::array({location(n, kNotify, "consumes shop.order", "shop.order")}));
  Json params = {
      {"textDocument", {{"uri", n}}},
      {"position", position(kNotify, offsetOf(kNotify, "consumes shop.order",
                                              "shop.order"))},
      {"newName", "orders"}};
  CHECK(w.client.request("textDocument/rename", params)["error"]["message"] ==
        "a context is not renamed here: its qualified name is spelt in names "
        "and `consumes` lines, and it names the deployed context");
}

TEST_CASE("navigation: an argument's label is its parameter") {
  Workspace w;
  const std::string& o = w.orderUri;
  CHECK(w.ask("textDocument/definition", o, kOrder, "times: 2", "times") ==
        location(o, kOrder, "times: Int", "times"));
  CHECK(w.ask("textDocument/hover", o, kOrder, "times: 2",
              "times")["contents"]["value"] ==
        "```herald\ntimes: Int\n```\n\nin `shop.order.scale`");
  // Renaming the parameter renames the labels naming it.
  CHECK(w.ask("textDocument/rename", o, kOrder, "times: Int", "times",
              {{"newName", "factor"}}) ==
        Json{{"changes",
              {{o, Json::array({
                       {{"range", rangeOf(kOrder, "times: Int", "times")},
                        {"newText", "factor"}},
                       {{"range", rangeOf(kOrder, "* times", "times")},
                        {"newText", "factor"}},
                       {{"range", rangeOf(kOrder, "times: 2", "times")},
                        {"newText", "factor"}},
                   })}}}});
}

}  // namespace herald::lsp::test::consumes_labels
