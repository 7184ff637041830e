// What Runtime::install checks of a context's agent dependencies and user
// capabilities, and how handlers reach the capabilities.
#include <doctest/doctest.h>

#include "test_world.hpp"

namespace herald::test {
namespace {

struct Counter {
  std::int64_t hits = 0;
};

nlohmann::json encode_counter(const Counter& c) {
  return nlohmann::json{{"hits", c.hits}};
}
Counter decode_counter(const nlohmann::json& j, std::int64_t) {
  return Counter{j.at("hits").get<std::int64_t>()};
}

const AgentKind<Counter>& pinger();
const AgentKind<Counter>& ponger();

// Each hit sends n - 1 to the other side, until n is 0.
void bounce(Invocation& tx, Counter& c, const AgentKindBase& other,
            std::string_view key, const nlohmann::json& args) {
  ++c.hits;
  const auto n = args.at("n").get<std::int64_t>();
  if (n > 0) tx.send(other, std::string(key), "hit", {{"n", n - 1}});
}

const AgentKind<Counter>& pinger() {
  static const AgentKind<Counter> kind({
      .context = "test.ping",
      .name = "Pinger",
      .initial = [] { return Counter{}; },
      .encode_state = &encode_counter,
      .decode_state = &decode_counter,
      .handlers = {{"hit",
                    [](Invocation& tx, Counter& c, std::string_view key,
                       const nlohmann::json& args) {
                      bounce(tx, c, ponger(), key, args);
                    }}},
  });
  return kind;
}

const AgentKind<Counter>& ponger() {
  static const AgentKind<Counter> kind({
      .context = "test.pong",
      .name = "Ponger",
      .initial = [] { return Counter{}; },
      .encode_state = &encode_counter,
      .decode_state = &decode_counter,
      .handlers = {{"hit",
                    [](Invocation& tx, Counter& c, std::string_view key,
                       const nlohmann::json& args) {
                      bounce(tx, c, pinger(), key, args);
                    }}},
  });
  return kind;
}

Context ping_context() {
  Context ctx("test.ping");
  ctx.agent(pinger());
  ctx.uses_agent("test.pong.Ponger");
  ctx.service("test.ping.Start");
  return ctx;
}

Context pong_context() {
  Context ctx("test.pong");
  ctx.agent(ponger());
  ctx.uses_agent("test.ping.Pinger");
  return ctx;
}

class Converter {
 public:
  virtual ~Converter() = default;
  virtual std::int64_t convert(std::int64_t cents) = 0;
};

class FixedRate final : public Converter {
 public:
  std::int64_t convert(std::int64_t cents) override { return cents * 11 / 10; }
};

class Unrelated {
 public:
  virtual ~Unrelated() = default;
};

}  // namespace

TEST_CASE(
    "Install: a used agent kind that no installed context owns is refused "
    "before anything runs") {
  World w;
  Context notify("test.notify");
  notify.uses_agent("chat.rooms.Room");
  CHECK_THROWS_WITH_AS(
      w.rt().install(std::move(notify)),
      "context test.notify sends messages to agent chat.rooms.Room, which no "
      "installed context declares; install chat.rooms first",
      RegistrationError);
  // A kind of an installed context is accepted.
  Context relay("test.relay");
  relay.uses_agent("commerce.notifications.Inbox");
  w.rt().install(std::move(relay));
}

TEST_CASE(
    "Install: contexts that message each other install together, and their "
    "messages flow both ways") {
  World w;
  CHECK_THROWS_WITH_AS(w.rt().install(ping_context()),
                       doctest::Contains("context test.ping sends messages to "
                                         "agent test.pong.Ponger"),
                       RegistrationError);
  // The refused context left nothing behind.
  std::vector<Context> batch;
  batch.push_back(ping_context());
  batch.push_back(pong_context());
  w.rt().install(std::move(batch));
  ServiceRef(w.rt(), "test.ping.Start").call("start", [](Invocation& tx) {
    tx.send(pinger(), "k", "hit", {{"n", 5}});
  });
  w.executor.run_until_idle();
  CHECK(AgentRef<Counter>(w.rt(), pinger(), "k").state().hits == 3);
  CHECK(AgentRef<Counter>(w.rt(), ponger(), "k").state().hits == 3);
  CHECK(w.log.lines("handler.fault").empty());
}

TEST_CASE("Install: a subscription without a handler is refused") {
  World w;
  Context probe("test.probe");
  probe.subscribe<commerce::order::PaymentConfirmed>(
      {.service = "test.probe.NoHandler"});
  CHECK_THROWS_WITH_AS(w.rt().install(std::move(probe)),
                       "subscription 'test.probe.NoHandler' has no handler",
                       RegistrationError);
}

TEST_CASE("Install: a capability without an implementation is refused") {
  World w;
  Context fx("test.fx");
  fx.capability<Converter>("fx.Converter", nullptr);
  CHECK_THROWS_WITH_AS(
      w.rt().install(std::move(fx)),
      "context test.fx needs an implementation of capability fx.Converter",
      RegistrationError);
  FixedRate rate;
  Context twice("test.fx");
  twice.capability<Converter>("fx.Converter", &rate);
  twice.capability<Converter>("fx.Converter", &rate);
  CHECK_THROWS_WITH_AS(w.rt().install(std::move(twice)),
                       "context test.fx declares capability fx.Converter twice",
                       RegistrationError);
}

TEST_CASE(
    "Invocation::capability: the host's implementation, looked up in the "
    "invocation's own context") {
  FixedRate rate;
  World w(1, {}, [&rate](Runtime& rt) {
    Context fx("test.fx");
    fx.capability<Converter>("fx.Converter", &rate);
    fx.service("test.fx.Quote");
    rt.install(std::move(fx));
  });
  ServiceRef quote(w.rt(), "test.fx.Quote");
  CHECK(quote.call("quote", [](Invocation& tx) {
    return tx.capability<Converter>("fx.Converter").convert(1000);
  }) == 1100);
  CHECK_THROWS_WITH_AS(
      quote.call("quote",
                 [](Invocation& tx) {
                   return tx.capability<Converter>("fx.Missing").convert(1);
                 }),
      "test.fx.Quote.quote: test.fx.Quote.quote uses capability fx.Missing, "
      "which context test.fx does not declare",
      HandlerFault);
  CHECK_THROWS_WITH_AS(
      quote.call("quote",
                 [](Invocation& tx) {
                   (void)tx.capability<Unrelated>("fx.Converter");
                 }),
      doctest::Contains("uses capability fx.Converter as"), HandlerFault);
  // Another context's capability is not this one's.
  CHECK_THROWS_WITH_AS(
      ServiceRef(w.rt(), "commerce.order.Payments")
          .call("x",
                [](Invocation& tx) {
                  (void)tx.capability<commerce::notifications::Gateway>(
                      "commerce.notifications.Gateway");
                }),
      doctest::Contains("which context commerce.order does not declare"),
      HandlerFault);
}

}  // namespace herald::test
