// workspace/symbol over a workspace of two contexts: every kind of
// declaration and member, matched by subsequence ignoring case, ranked and
// bounded.
#include <string>

#include <doctest/doctest.h>

#include "lsp_client.h"
#include "lsp_text.h"

namespace herald::lsp::test::workspace_symbols {
namespace {

const std::string kBilling = R"H(context shop.billing

type Money = { cents: Int, currency: String }
type Method = | Card(last4: String) | Cash

event Paid = { amount: Money, method: Method }

fn Money.zero() -> Money { Money { cents: 0, currency: "EUR" } }

capability Ledger {
  fn book(amount: Money)
}

agent Invoice {
  key id: String
  store paid: Bool = false

  on pay(amount: Money) given Events {
    paid := true
    Events.emit(Paid { amount: amount, method: Method.Cash })
  }
}
)H";

const std::string kMail = R"H(context shop.mail

consumes shop.billing

service OnPaid from Events(Paid) {
  on event(e: Paid) {}
}
)H";

struct Symbols {
  TempDir root;
  std::string billingUri = fileUri(root.write("billing.herald", kBilling));
  std::string mailUri = fileUri(root.write("mail.herald", kMail));
  LspClient client;
  Symbols() { client.initialize(root.path()); }

  Json query(const std::string& text) {
    Json response = client.request("workspace/symbol", {{"query", text}});
    REQUIRE(response.contains("result"));
    return response["result"];
  }

  Json symbol(const std::string& name, int kind, const std::string& container,
              const std::string& uri, const std::string& text,
              const std::string& around) {
    Json s = {{"name", name},
              {"kind", kind},
              {"location", location(uri, text, around, name)}};
    if (!container.empty()) s["containerName"] = container;
    return s;
  }
};

}  // namespace

TEST_CASE("workspace symbols: advertised") {
  TempDir root;
  LspClient client;
  Json init = client.initialize(root.path());
  CHECK(init["result"]["capabilities"]["workspaceSymbolProvider"] == true);
}

TEST_CASE("workspace symbols: every kind, with container and location") {
  Symbols w;
  const std::string& b = w.billingUri;
  // Exact names first, then prefixes, then substrings, then subsequences;
  // ties by name, then container.
  CHECK(w.query("paid") ==
        Json::array({
            w.symbol("Paid", 24, "shop.billing", b, kBilling, "event Paid"),
            w.symbol("paid", 7, "shop.billing.Invoice", b, kBilling,
                     "store paid"),
            w.symbol("OnPaid", 2, "shop.mail", w.mailUri, kMail,
                     "service OnPaid"),
        }));
  // Members: fields of a record, an event and a variant; a variant, a key,
  // a handler, a capability's operation, a static fn; a context.
  CHECK(w.query("AMOUNT") == Json::array({
                                 w.symbol("amount", 8, "shop.billing.Paid", b,
                                          kBilling, "{ amount: Money, method"),
                             }));
  CHECK(w.query("last4") ==
        Json::array({w.symbol("last4", 8, "shop.billing.Method.Card", b,
                              kBilling, "last4")}));
  CHECK(w.query("cash") ==
        Json::array({w.symbol("Cash", 22, "shop.billing.Method", b, kBilling,
                              "| Cash")}));
  CHECK(w.query("book") ==
        Json::array({w.symbol("book", 12, "shop.billing.Ledger", b, kBilling,
                              "fn book")}));
  CHECK(w.query("Ledger") ==
        Json::array({w.symbol("Ledger", 11, "shop.billing", b, kBilling,
                              "capability Ledger")}));
  // A static fn is named with its type; its location is the fn's name.
  CHECK(w.query("Money.zero") ==
        Json::array({{{"name", "Money.zero"},
                      {"kind", 6},
                      {"location", location(b, kBilling, "Money.zero", "zero")},
                      {"containerName", "shop.billing"}}}));
  CHECK(w.query("shop.mail") ==
        Json::array({w.symbol("shop.mail", 3, "", w.mailUri, kMail,
                              "context shop.mail")}));
  // A subsequence: the letters in order, not together.
  CHECK(w.query("invc") ==
        Json::array({w.symbol("Invoice", 5, "shop.billing", b, kBilling,
                              "agent Invoice")}));
  // The exact name first, then the names containing the query.
  CHECK(w.query("id") ==
        Json::array({
            w.symbol("id", 20, "shop.billing.Invoice", b, kBilling, "key id"),
            w.symbol("OnPaid", 2, "shop.mail", w.mailUri, kMail,
                     "service OnPaid"),
            w.symbol("Paid", 24, "shop.billing", b, kBilling, "event Paid"),
            w.symbol("paid", 7, "shop.billing.Invoice", b, kBilling,
                     "store paid"),
        }));
  CHECK(w.query("on pay") == Json::array());
  CHECK(w.query("zzz") == Json::array());
}

TEST_CASE("workspace symbols: the empty query lists everything, bounded") {
  TempDir root;
  std::string text = "context big\n";
  for (int i = 0; i < 300; ++i)
    text += "type T" + std::to_string(1000 + i) + " = { f: Int }\n";
  root.write("big.herald", text);
  LspClient client;
  client.initialize(root.path());
  Json all = client.request("workspace/symbol", {{"query", ""}})["result"];
  REQUIRE(all.size() == 200);
  // Sorted by name, byte-wise: the types before the context `big` and the
  // fields `f`.
  CHECK(all[0]["name"] == "T1000");
  CHECK(all[199]["name"] == "T1199");
  Json bad = client.request("workspace/symbol", {{"query", 3}});
  CHECK(bad["error"]["code"] == -32602);
}

}  // namespace herald::lsp::test::workspace_symbols
