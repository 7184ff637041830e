// The checker's name passes: lookup across contexts, `consumes` forms,
// unknown, ambiguous and hidden names, suggestions.
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "checker_names_util.h"

using herald::check::AgentInfo;
using herald::check::CapabilityInfo;
using herald::check::DeclInfoKind;
using herald::check::EventInfo;
using herald::check::LookupResult;
using herald::check::ServiceInfo;
using herald::check::TypeInfo;
using herald::check::TypeKind;
using herald::test::runNames;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const char* const kOrder = R"(context commerce.order
type OrderId = opaque String
type Money = { cents: Int, currency: String }
type Region = | Domestic | International
event PaymentConfirmed = { orderId: OrderId, amount: Money, region: Region }
agent Order {
  key id: OrderId
}
)";

const char* const kBilling = R"(context billing
type Money = { cents: Int }
event PaymentConfirmed = { cents: Int }
type Invoice = { total: Money }
)";

}  // namespace

TEST_CASE("the payment example resolves without diagnostics") {
  const std::string dir = HERALD_EXAMPLES_DIR "/payment/";
  auto run = runNames(
      {{"fx.herald", readFile(dir + "fx.herald")},
       {"notifications.herald", readFile(dir + "notifications.herald")},
       {"order.herald", readFile(dir + "order.herald")},
       {"rooms.herald", readFile(dir + "rooms.herald")}});
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() == std::vector<std::string>{});
  REQUIRE(run->program->contexts.size() == 4);
  CHECK(run->program->contexts[0]->name == "chat.rooms");
  CHECK(run->program->contexts[1]->name == "commerce.notifications");
  CHECK(run->program->contexts[2]->name == "commerce.order");
  CHECK(run->program->contexts[3]->name == "fx");

  const auto* event =
      run->decl<EventInfo>("commerce.order", "PaymentConfirmed");
  REQUIRE(event != nullptr);
  CHECK(event->qualified == "commerce.order.PaymentConfirmed");
  REQUIRE(event->fields.size() == 5);
  CHECK(herald::check::qualifiedName(event->fields[0].type) ==
        "commerce.order.OrderId");
  CHECK(event->fields[3].defaultExpr != nullptr);
  CHECK(event->fields[4].type->kind == TypeKind::Instant);

  const auto* order = run->decl<AgentInfo>("commerce.order", "Order");
  REQUIRE(order != nullptr);
  REQUIRE(order->key.has_value());
  CHECK(herald::check::displayName(order->key->type) == "OrderId");
  REQUIRE(order->stores.size() == 4);
  CHECK(herald::check::displayName(order->stores[0].field.type) ==
        "Option[UserId]");
  CHECK(order->stores[0].init != nullptr);
  REQUIRE(order->invariants.size() == 1);
  CHECK(order->invariants[0].name == "paidNeedsCustomer");
  const auto* markPaid = order->handler("markPaid");
  REQUIRE(markPaid != nullptr);
  REQUIRE(markPaid->by != nullptr);
  CHECK(markPaid->by->name == "InternalCaller");
  REQUIRE(markPaid->given.size() == 2);
  CHECK(markPaid->given[0].name == "Events");
  CHECK(markPaid->given[0].type->capability ==
        run->program->firstParty[0].get());
  CHECK(markPaid->result->kind == TypeKind::Unit);
  CHECK(herald::check::displayName(order->handler("statusOf")->result) ==
        "Status");

  const auto* intl = run->decl<ServiceInfo>("commerce.notifications",
                                            "OnInternationalPayment");
  REQUIRE(intl != nullptr);
  REQUIRE(intl->given.size() == 2);
  CHECK(intl->given[0].named);
  CHECK(herald::check::qualifiedName(intl->given[0].type) ==
        "Ref[chat.rooms.Room]");
  CHECK(intl->given[1].name == "Fx");
  CHECK(herald::check::qualifiedName(intl->given[1].type) == "fx.Converter");
  REQUIRE(intl->handlers.size() == 1);
  CHECK(intl->handlers[0].params[0].type->event == event);

  const auto* roomId = run->decl<TypeInfo>("chat.rooms", "RoomId");
  REQUIRE(roomId != nullptr);
  CHECK(roomId->def == herald::check::TypeDefKind::Opaque);
  CHECK(herald::check::qualifiedName(roomId->base) == "commerce.order.UserId");
  REQUIRE(roomId->staticFns.size() == 1);
  CHECK(roomId->staticFns[0]->qualified == "chat.rooms.RoomId.forUser");
  CHECK(roomId->staticFns[0]->sig.result == roomId->type);
  CHECK(run->context("chat.rooms").lookup("forUser") == nullptr);

  const auto* converter = run->decl<CapabilityInfo>("fx", "Converter");
  REQUIRE(converter != nullptr);
  REQUIRE(converter->ops.size() == 1);
  CHECK(herald::check::qualifiedName(converter->ops[0].sig.params[0].type) ==
        "commerce.order.Money");
}

TEST_CASE("bare, qualified and alias lookups") {
  auto run = runNames({{"order.herald", kOrder}, {"a.herald", R"(context shop
consumes commerce.order as order
type Cart = { total: Money, again: order.Money, full: commerce.order.Money }
)"}});
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() == std::vector<std::string>{});
  const auto* money = run->decl<TypeInfo>("commerce.order", "Money");

  LookupResult bare = run->lookup("shop", "Money");
  CHECK(bare.status == LookupResult::Status::Found);
  CHECK(bare.decl == money);
  CHECK(bare.partsUsed == 1);

  LookupResult alias = run->lookup("shop", "order.Money");
  CHECK(alias.decl == money);
  CHECK(alias.partsUsed == 2);

  LookupResult full = run->lookup("shop", "commerce.order.Money.cents");
  CHECK(full.decl == money);
  CHECK(full.partsUsed == 3);

  LookupResult variant = run->lookup("shop", "Region.Domestic");
  CHECK(variant.status == LookupResult::Status::Found);
  CHECK(variant.partsUsed == 1);

  // A context sees its own names qualified too.
  CHECK(run->lookup("commerce.order", "commerce.order.Money").decl == money);
  CHECK(run->lookup("shop", "shop.Cart").status == LookupResult::Status::Found);

  // First-party capabilities are always names.
  LookupResult clock = run->lookup("shop", "Clock.now");
  REQUIRE(clock.decl != nullptr);
  CHECK(clock.decl->kind == DeclInfoKind::Capability);
  CHECK(clock.partsUsed == 1);

  const auto* cart = run->decl<TypeInfo>("shop", "Cart");
  REQUIRE(cart->fields.size() == 3);
  CHECK(cart->fields[0].type == money->type);
  CHECK(cart->fields[1].type == money->type);
  CHECK(cart->fields[2].type == money->type);
}

TEST_CASE("own names shadow consumed ones, and consumed ones the prelude") {
  auto run = runNames({{"order.herald", kOrder},
                       {"a.herald", R"(context shop
consumes commerce.order
type Money = { euros: Int }
capability Clock { fn now() -> Int }
)"},
                       {"b.herald", R"(context other
consumes shop
)"}});
  CHECK(run->diagnostics() == std::vector<std::string>{});
  CHECK(run->lookup("shop", "Money").decl->qualified == "shop.Money");
  CHECK(run->lookup("shop", "Clock").decl->qualified == "shop.Clock");
  CHECK(run->lookup("other", "Clock").decl->qualified == "shop.Clock");
  CHECK(run->lookup("commerce.order", "Clock").decl->qualified == "Clock");
}

TEST_CASE("a restricted consumes limits bare names, not qualified ones") {
  auto run = runNames({{"order.herald", kOrder}, {"a.herald", R"(context shop
consumes commerce.order { Money }
)"}});
  CHECK(run->diagnostics() == std::vector<std::string>{});
  CHECK(run->lookup("shop", "Money").status == LookupResult::Status::Found);
  CHECK(run->lookup("shop", "commerce.order.Money").status ==
        LookupResult::Status::Found);
  CHECK(run->lookup("shop", "commerce.order.OrderId").decl->qualified ==
        "commerce.order.OrderId");
  LookupResult r = run->lookup("shop", "OrderId");
  CHECK(r.status == LookupResult::Status::NotFound);
  const auto hidden = run->hidden("shop", "OrderId");
  REQUIRE(hidden.size() == 1);
  CHECK(hidden[0]->qualified == "commerce.order.OrderId");
}

TEST_CASE("a context consumed twice is seen through the wider line") {
  auto run = runNames({{"order.herald", kOrder}, {"a.herald", R"(context shop
consumes commerce.order { Money }
consumes commerce.order as o
)"}});
  CHECK(run->diagnostics() == std::vector<std::string>{});
  CHECK(run->lookup("shop", "OrderId").status == LookupResult::Status::Found);
}

TEST_CASE("ambiguous bare names list their candidates in order") {
  auto run = runNames({{"order.herald", kOrder},
                       {"billing.herald", kBilling},
                       {"a.herald", R"(context shop
consumes commerce.order
consumes billing
type Cart = { total: Money, ok: billing.Money }
)"}});
  LookupResult r = run->lookup("shop", "Money");
  REQUIRE(r.status == LookupResult::Status::Ambiguous);
  const auto candidates = run->candidates("shop", "Money");
  REQUIRE(candidates.size() == 2);
  CHECK(candidates[0]->qualified == "billing.Money");
  CHECK(candidates[1]->qualified == "commerce.order.Money");
  CHECK(run->lookup("shop", "billing.Money").status ==
        LookupResult::Status::Found);
  CHECK(
      run->diagnostics() ==
      std::vector<std::string>{
          std::string(
              "E0205 a.herald:4:22 'Money' is ambiguous: it is declared in ") +
          "contexts 'billing' and 'commerce.order'"});
  CHECK(run->notes("E0205") ==
        std::vector<std::string>{
            "billing.herald:2:6 candidate 'billing.Money' is declared here",
            std::string("order.herald:3:6 candidate 'commerce.order.Money' is "
                        "declared ") +
                "here",
            std::string("help: write the qualified name to choose one, e.g. ") +
                "'billing.Money'"});
}

TEST_CASE("names of contexts not consumed are hidden bare, found qualified") {
  auto run = runNames({{"order.herald", kOrder},
                       {"billing.herald", kBilling},
                       {"a.herald", R"(context shop
consumes billing
type Cart = { a: OrderId, b: commerce.order.OrderId, c: Mony }
type Line = { id: OrderId }
)"}});
  LookupResult qualified = run->lookup("shop", "commerce.order.OrderId");
  REQUIRE(qualified.status == LookupResult::Status::Found);
  CHECK(qualified.decl->qualified == "commerce.order.OrderId");
  CHECK(qualified.partsUsed == 3);
  // `commerce.order.Status.Paid`: the parts after the declaration are
  // member accesses.
  CHECK(run->lookup("shop", "commerce.order.OrderId.raw").partsUsed == 3);
  LookupResult r = run->lookup("shop", "OrderId");
  CHECK(r.status == LookupResult::Status::NotFound);
  const auto hidden = run->hidden("shop", "OrderId");
  REQUIRE(hidden.size() == 1);
  CHECK(hidden[0]->qualified == "commerce.order.OrderId");
  CHECK(
      run->diagnostics() ==
      std::vector<std::string>{"E0202 a.herald:3:18 cannot find type 'OrderId'",
                               "E0202 a.herald:3:57 cannot find type 'Mony'"});
  const auto notes = run->notes("E0202");
  // One report for the missing `consumes` line: the second `OrderId` is
  // covered by the first.
  CHECK(notes == std::vector<std::string>{
                     "help: 'OrderId' is declared in context "
                     "'commerce.order'; add 'consumes commerce.order' or "
                     "write 'commerce.order.OrderId' to use it",
                     "help: a 'consumes commerce.order' line makes every "
                     "name of that context visible; other names it hides in "
                     "'shop' are not reported",
                     "help: did you mean 'Money'?"});
}

TEST_CASE("an unknown context is reported once, not at each use") {
  auto run = runNames({{"order.herald", kOrder}, {"a.herald", R"(context shop
consumes commerce.ordr
type A = { a: Money, b: OrderId }
type B = { a: sales.Money, b: sales.Total, c: commerce.order.Mony }
type C = { a: sales.Money }
)"}});
  CHECK(run->diagnostics() ==
        std::vector<std::string>{
            "E0203 a.herald:2:10 no context named 'commerce.ordr'",
            "E0202 a.herald:4:15 cannot find type 'sales.Money'",
            "E0202 a.herald:4:47 cannot find type 'commerce.order.Mony'"});
}

TEST_CASE("the name passes survive truncated and mutated programs") {
  const std::string dir = HERALD_EXAMPLES_DIR "/payment/";
  const std::vector<std::string> names{"fx.herald", "notifications.herald",
                                       "order.herald", "rooms.herald"};
  std::vector<std::string> texts;
  texts.reserve(names.size());
  for (const std::string& n : names) texts.push_back(readFile(dir + n));
  std::size_t runs = 0;
  for (std::size_t f = 0; f < texts.size(); ++f) {
    const std::string& text = texts[f];
    for (std::size_t cut = 0; cut < text.size(); cut += 7) {
      // Truncated here; or with one character deleted; or with the
      // identifier-ish run at `cut` swapped for a name of another file.
      std::string swapped = text;
      const std::size_t end = swapped.find_first_of(" \n(){}[],:.", cut);
      swapped.replace(cut,
                      (end == std::string::npos ? swapped.size() : end) - cut,
                      "Money");
      for (const std::string& mutated :
           {text.substr(0, cut), text.substr(0, cut) + text.substr(cut + 1),
            swapped}) {
        std::vector<std::pair<std::string, std::string>> files;
        for (std::size_t g = 0; g < texts.size(); ++g)
          files.emplace_back(names[g], g == f ? mutated : texts[g]);
        auto run = runNames(files);
        ++runs;
        // Whatever is wrong, every signature is complete afterwards.
        for (const auto& ctx : run->program->contexts)
          for (const auto& d : ctx->decls)
            if (const auto* agent = llvm::dyn_cast<AgentInfo>(d.get())) {
              for (const auto& h : agent->handlers) {
                REQUIRE(h.result != nullptr);
                for (const auto& p : h.params) REQUIRE(p.type != nullptr);
                for (const auto& g : h.given) REQUIRE(g.type != nullptr);
              }
              for (const auto& s : agent->stores)
                REQUIRE(s.field.type != nullptr);
              if (agent->key) REQUIRE(agent->key->type != nullptr);
            } else if (const auto* type = llvm::dyn_cast<TypeInfo>(d.get())) {
              REQUIRE(type->type != nullptr);
              if (type->def != herald::check::TypeDefKind::Record &&
                  type->def != herald::check::TypeDefKind::Sum)
                REQUIRE(type->base != nullptr);
              for (const auto& field : type->fields)
                REQUIRE(field.type != nullptr);
            } else if (const auto* event = llvm::dyn_cast<EventInfo>(d.get())) {
              for (const auto& field : event->fields)
                REQUIRE(field.type != nullptr);
            }
      }
    }
  }
  CHECK(runs > 300);
}

TEST_CASE("a misspelt context or alias in a qualified name is suggested") {
  auto run = runNames({{"order.herald", kOrder}, {"a.herald", R"(context shop
consumes commerce.order as order
type Cart = { a: comerce.order.Money, b: ordr.Money, c: commerce.order.Mony }
)"}});
  REQUIRE_FALSE(run->parseErrors);
  CHECK(run->diagnostics() ==
        std::vector<std::string>{
            "E0202 a.herald:3:18 cannot find type 'comerce.order.Money'",
            "E0202 a.herald:3:42 cannot find type 'ordr.Money'",
            "E0202 a.herald:3:57 cannot find type 'commerce.order.Mony'"});
  CHECK(run->notes("E0202") ==
        std::vector<std::string>{"help: did you mean 'commerce.order.Money'?",
                                 "help: did you mean 'order.Money'?",
                                 "help: did you mean 'commerce.order.Money'?"});
}
