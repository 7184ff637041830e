// textDocument/hover inside expressions: away from a name, the innermost
// expression under the cursor shows its source text and the type the
// checker inferred for it, with its range; names keep their own hover, and
// blanks and keywords outside expressions show nothing.
#include <string>
#include <utility>

#include <doctest/doctest.h>

#include "lsp_client.h"
#include "lsp_text.h"

namespace herald::lsp::test::hover {
namespace {

const std::string kOrder = R"H(context shop.order

type Money = { cents: Int, currency: String }
type Region = | Domestic | International

event Paid = { amount: Money, region: Region }

fn twice(m: Money) -> Money {
  Money { cents: m.cents * 2, currency: m.currency }
}

fn fee(m: Money, region: Region) -> Int {
  match region {
    -- A fee abroad is the provider's.
    Domestic => (m.cents + 1) * 2,
    International => 0,
  }
}

agent Inbox {
  key owner: String

  on post(text: String) {}
}

agent Order {
  key id: String
  store total: Money = Money { cents: 0, currency: "EUR" }

  on pay(amount: Money) given Events, Boxes: Ref[Inbox] {
    total := twice(amount)
    Events.emit(Paid { amount: total, region: Domestic })
    Boxes(id).post("paid")
  }
}
)H";

struct Hovering {
  std::string text;
  TempDir root;
  std::string uri = fileUri(root.write("order.herald", text));
  LspClient client;
  explicit Hovering(std::string document = kOrder) : text(std::move(document)) {
    client.initialize(root.path());
  }

  // The hover with the cursor on `at` inside the first `around`, `shift`
  // bytes into it: null, or its contents and range.
  Json at(const std::string& around, const std::string& at,
          std::size_t shift = 0) {
    Json params = {
        {"textDocument", {{"uri", uri}}},
        {"position", position(text, offsetOf(text, around, at) + shift)}};
    Json response = client.request("textDocument/hover", params);
    REQUIRE(response.contains("result"));
    return response["result"];
  }
};

// What a hover on the expression `shown` (its first occurrence in the
// document) shows: its text on one line (`line`, or `shown` with each run
// of blanks one space) and its type, with its range.
Json expression(const std::string& shown, const std::string& type,
                const std::string& oneLine = {}) {
  std::size_t at = kOrder.find(shown);
  REQUIRE(at != std::string::npos);
  std::string line = oneLine;
  if (line.empty()) {
    bool blank = false;
    for (char c : shown) {
      if (c == ' ' || c == '\n') {
        blank = !line.empty();
        continue;
      }
      if (blank) line += ' ';
      blank = false;
      line += c;
    }
  }
  return {{"contents",
           {{"kind", "markdown"},
            {"value", "```herald\n" + line + ": " + type + "\n```"}}},
          {"range",
           {{"start", position(kOrder, at)},
            {"end", position(kOrder, at + shown.size())}}}};
}

}  // namespace

TEST_CASE("hover: a call, an operator, literals, a field access") {
  Hovering h;
  // A call, on its parenthesis and its closing one.
  CHECK(h.at("total := twice(amount)", "(") ==
        expression("twice(amount)", "shop.order.Money"));
  CHECK(h.at("twice(amount)", ")") ==
        expression("twice(amount)", "shop.order.Money"));
  // An operator; an Int and a String literal.
  CHECK(h.at("m.cents * 2", "*") == expression("m.cents * 2", "Int"));
  CHECK(h.at("m.cents * 2", "2") == expression("2", "Int"));
  CHECK(h.at("currency: \"EUR\"", "EUR") == expression("\"EUR\"", "String"));
  // A field access, on its dot: the dot right after the name belongs to
  // the access, not to the name before it.
  CHECK(h.at("m.cents * 2", ".") == expression("m.cents", "Int"));
}

TEST_CASE("hover: record and event literals, parentheses, a match") {
  Hovering h;
  CHECK(h.at("Money { cents: m", "{") ==
        expression("Money { cents: m.cents * 2, currency: m.currency }",
                   "shop.order.Money"));
  CHECK(h.at("Paid { amount: total", "{") ==
        expression("Paid { amount: total, region: Domestic }",
                   "shop.order.Paid"));
  CHECK(h.at("(m.cents + 1) * 2", "(") == expression("(m.cents + 1)", "Int"));
  CHECK(h.at("(m.cents + 1) * 2", "*") ==
        expression("(m.cents + 1) * 2", "Int"));
  // A match, on its keyword: its text on one line, without the comment
  // inside it; nothing on the comment.
  CHECK(h.at("match region", "match") ==
        expression("match region {\n    -- A fee abroad is the provider's.\n"
                   "    Domestic => (m.cents + 1) * 2,\n    "
                   "International => 0,\n  }",
                   "Int",
                   "match region { Domestic => (m.cents + 1) * 2, "
                   "International => 0, }"));
  CHECK(h.at("-- A fee abroad", "fee").is_null());
}

TEST_CASE("hover: an emit, an agent's reference and a message, as ()") {
  Hovering h;
  CHECK(h.at("Events.emit(Paid", "(") ==
        expression("Events.emit(Paid { amount: total, region: Domestic })",
                   "()"));
  CHECK(h.at("Boxes(id).post", "(") ==
        expression("Boxes(id)", "Ref[shop.order.Inbox]"));
  CHECK(h.at("Boxes(id).post", ".") ==
        expression("Boxes(id).post(\"paid\")", "()"));
}

TEST_CASE("hover: names as before, nothing on blanks and outer keywords") {
  Hovering h;
  // A value's name, and a field's, inside the access.
  Json m = h.at("m.cents * 2", "m");
  CHECK(m["contents"]["value"] ==
        "```herald\nm: shop.order.Money\n```\n\nin `shop.order.twice`");
  CHECK(m["range"] == rangeOf(kOrder, "m.cents * 2", "m"));
  CHECK(h.at("m.cents * 2", "cents")["contents"]["value"] ==
        "```herald\ncents: Int\n```\n\nin `shop.order.Money`");
  // Right after a name, before a blank: still the name (a cursor after
  // the word typed).
  Json variant = h.at("region: Domestic })", "Domestic", 8);
  CHECK(variant["contents"]["value"] ==
        "```herald\nDomestic\n```\n\nvariant of `shop.order.Region`");
  CHECK(variant["range"] == rangeOf(kOrder, "region: Domestic })", "Domestic"));
  // A blank inside an expression and outside; keywords outside any
  // expression.
  CHECK(h.at("=> (m.cents", " ").is_null());
  CHECK(h.at("m.cents * 2", "* ", 1).is_null());
  CHECK(h.at("\n\nfn twice", "\n").is_null());
  CHECK(h.at("fn twice", "fn").is_null());
  CHECK(h.at("given Events", "given").is_null());
  CHECK(h.at("total := twice", ":=").is_null());
}

TEST_CASE("hover: a long expression is cut, as a hover is a glance") {
  std::string sum = "1";
  for (int i = 0; i < 100; ++i) sum += " + 1";
  Hovering h("context t\n\nfn f() -> Int {\n  " + sum + "\n}\n");
  Json shown = h.at(sum, "+", sum.size() - 5);
  CHECK(shown["contents"]["value"] ==
        "```herald\n" + sum.substr(0, 200) + " ...: Int\n```");
  CHECK(shown["range"] == rangeOf(h.text, sum, sum));
}

TEST_CASE("hover: a long expression is cut before a character, not inside") {
  // 1 + 150 * 2 bytes: the 200th byte begins the 100th `é`.
  std::string text = "\"";
  for (int i = 0; i < 150; ++i) text += "\u00e9";
  text += "\"";
  Hovering h("context t\n\nfn f() -> String {\n  " + text + "\n}\n");
  Json shown = h.at(text, "\"");
  CHECK(shown["contents"]["value"] ==
        "```herald\n" + text.substr(0, 199) + " ...: String\n```");
}

}  // namespace herald::lsp::test::hover
