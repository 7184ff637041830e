// textDocument/prepareRename and textDocument/rename over a workspace of
// two contexts, one subscribing to the other's event with a pattern.
#include <string>

#include <doctest/doctest.h>

#include "lsp_client.h"
#include "lsp_text.h"

namespace herald::lsp::test::rename {
namespace {

const std::string kOrder = R"H(context shop.order

type Money = { cents: Int, currency: String }
type Region = | Domestic | International

event Paid = { amount: Money, region: Region }

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

  on post(text: String) {}
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

struct Rename {
  TempDir root;
  std::string orderUri = fileUri(root.write("order.herald", kOrder));
  std::string notifyUri = fileUri(root.write("notify.herald", kNotify));
  LspClient client;
  Rename() { client.initialize(root.path()); }

  Json params(const std::string& uri, const std::string& text,
              const std::string& around, const std::string& name) {
    return {{"textDocument", {{"uri", uri}}},
            {"position", position(text, offsetOf(text, around, name))}};
  }
  // The response (result or error) of renaming the name in `around`.
  Json rename(const std::string& uri, const std::string& text,
              const std::string& around, const std::string& name,
              const std::string& newName) {
    Json p = params(uri, text, around, name);
    p["newName"] = newName;
    return client.request("textDocument/rename", p);
  }
  Json edit(const std::string& text, const std::string& around,
            const std::string& name, const std::string& newName) {
    return {{"range", rangeOf(text, around, name)}, {"newText", newName}};
  }
  // The error message of a refused rename; empty if not refused.
  std::string refusal(const Json& response) {
    if (!response.contains("error")) return {};
    CHECK(response["error"]["code"] == -32803);
    return response["error"]["message"].get<std::string>();
  }
};

}  // namespace

TEST_CASE("rename: advertised with prepareRename") {
  TempDir root;
  LspClient client;
  Json init = client.initialize(root.path());
  CHECK(init["result"]["capabilities"]["renameProvider"] ==
        Json{{"prepareProvider", true}});
}

TEST_CASE("rename: declarations and members everywhere they are used") {
  Rename w;
  const std::string& o = w.orderUri;
  const std::string& n = w.notifyUri;
  // prepareRename: the name under the cursor and its text.
  CHECK(w.client.request(
            "textDocument/prepareRename",
            w.params(o, kOrder, "twice(amount)", "twice"))["result"] ==
        Json{{"range", rangeOf(kOrder, "twice(amount)", "twice")},
             {"placeholder", "twice"}});
  // A fn, from a use.
  CHECK(w.rename(o, kOrder, "twice(amount)", "twice", "double")["result"] ==
        Json{{"changes",
              {{o, Json::array({w.edit(kOrder, "fn twice", "twice", "double"),
                                w.edit(kOrder, "twice(amount)", "twice",
                                       "double")})}}}});
  // An event's field no subscription names: in both contexts.
  CHECK(
      w.rename(n, kNotify, "e.amount", "amount", "sum")["result"] ==
      Json{{"changes",
            {{n, Json::array({w.edit(kNotify, "e.amount", "amount", "sum")})},
             {o, Json::array(
                     {w.edit(kOrder, "{ amount: Money", "amount", "sum"),
                      w.edit(kOrder, "{ amount: total", "amount", "sum")})}}}});
  // A variant, also where a pattern names it.
  CHECK(
      w.rename(o, kOrder, "| Domestic", "Domestic", "Home")["result"] ==
      Json{{"changes",
            {{n, Json::array({w.edit(kNotify, "Region.Domestic, ..", "Domestic",
                                     "Home")})},
             {o, Json::array({w.edit(kOrder, "| Domestic", "Domestic", "Home"),
                              w.edit(kOrder, "region: Domestic", "Domestic",
                                     "Home")})}}}});
  // A named dependency: its name in `given` and its uses.
  CHECK(w.rename(n, kNotify, "Boxes(\"x\")", "Boxes", "Mailboxes")["result"] ==
        Json{{"changes",
              {{n, Json::array(
                       {w.edit(kNotify, "Boxes: Ref", "Boxes", "Mailboxes"),
                        w.edit(kNotify, "Boxes(\"x\")", "Boxes",
                               "Mailboxes")})}}}});
  // A capability through a bare `given` item: the capability, the item
  // and the uses through it.
  CHECK(w.rename(n, kNotify, "Mailer.send", "Mailer", "Post")["result"] ==
        Json{{"changes",
              {{n, Json::array(
                       {w.edit(kNotify, "capability Mailer", "Mailer", "Post"),
                        w.edit(kNotify, "Ref[Inbox], Mailer", "Mailer", "Post"),
                        w.edit(kNotify, "Mailer.send", "Mailer", "Post")})}}}});
  // A local, from its binding.
  CHECK(
      w.rename(n, kNotify, "let cents", "cents", "c")["result"] ==
      Json{{"changes",
            {{n, Json::array({w.edit(kNotify, "let cents", "cents", "c"),
                              w.edit(kNotify, "\\(cents)", "cents", "c")})}}}});
}

TEST_CASE("rename: refused with a reason") {
  Rename w;
  const std::string& o = w.orderUri;
  const std::string& n = w.notifyUri;
  // What a subscription of another context names: the event, its field.
  std::string reason =
      "'region' is named by the subscription of shop.notify.OnPaid: an "
      "event's name and fields are its contract with the contexts "
      "subscribing to it; add a new event or field instead";
  CHECK(w.refusal(w.rename(o, kOrder, "region: Region }", "region", "area")) ==
        reason);
  CHECK(w.refusal(w.client.request(
            "textDocument/prepareRename",
            w.params(o, kOrder, "region: Region }", "region"))) == reason);
  CHECK(w.refusal(w.rename(n, kNotify, "e: Paid", "Paid", "Settled"))
            .starts_with("'Paid' is named by the subscription"));
  // Not an identifier, a keyword.
  CHECK(w.refusal(w.rename(o, kOrder, "fn twice", "twice", "given")) ==
        "'given' is a keyword");
  CHECK(w.refusal(w.rename(o, kOrder, "fn twice", "twice", "2x")) ==
        "'2x' is not an identifier");
  CHECK(w.refusal(w.rename(o, kOrder, "fn twice", "twice", "a b")) ==
        "'a b' is not an identifier");
  CHECK(w.refusal(w.rename(o, kOrder, "fn twice", "twice", "")) ==
        "'' is not an identifier");
  // A clash in the same scope: the context, a consuming context, the
  // owner's members, the declaration around a local.
  CHECK(w.refusal(w.rename(o, kOrder, "fn twice", "twice", "Order")) ==
        "context shop.order already declares 'Order'");
  CHECK(w.refusal(w.rename(o, kOrder, "fn twice", "twice", "Inbox")) ==
        "context shop.notify, which consumes shop.order, declares 'Inbox'");
  CHECK(w.refusal(
            w.rename(o, kOrder, "| Domestic", "Domestic", "International")) ==
        "shop.order.Region already has a member named 'International'");
  CHECK(w.refusal(w.rename(o, kOrder, "cents: Int", "cents", "currency")) ==
        "shop.order.Money already has a member named 'currency'");
  CHECK(w.refusal(w.rename(n, kNotify, "let cents", "cents", "e")) ==
        "'e' is already used in shop.notify.OnPaid");
  // Nothing declared here.
  CHECK(w.refusal(w.rename(n, kNotify, "-- Mail goes", "Mail", "x")) ==
        "there is no declared name here");
  CHECK(w.refusal(w.client.request(
            "textDocument/prepareRename",
            w.params(n, kNotify, "consumes shop", "consumes"))) ==
        "there is no declared name here");
  // A new name that is no string.
  Json p = w.params(o, kOrder, "fn twice", "twice");
  p["newName"] = 3;
  CHECK(w.client.request("textDocument/rename", p)["error"]["code"] == -32602);
}

}  // namespace herald::lsp::test::rename
