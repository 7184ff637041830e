// One-way agent messages as data: the handler table, the commit record,
// faults of the receiving agent, the state codec and the initial state.
#include <doctest/doctest.h>

#include "chat_fixture.hpp"
#include "test_world.hpp"

namespace herald::test {
namespace {

using test_chat::Lobby;
using test_chat::Room;
using test_chat::RoomState;

// The memory backend, keeping a copy of the messages of every commit.
class RecordingBackend final : public Backend {
 public:
  explicit RecordingBackend(std::vector<AgentMessage>& committed)
      : inner_(make_memory_backend({.concurrent = false})),
        committed_(committed) {}
  std::string_view name() const override { return "recording"; }
  ContextLog& context_log(std::string_view context) override {
    return inner_->context_log(context);
  }
  std::unique_ptr<Publication> attach(std::string_view context,
                                      ContextLog& log, Router& router,
                                      PublicationOptions options) override {
    return inner_->attach(context, log, router, options);
  }
  SubscriptionStore& subscription_store(
      std::string_view subscription) override {
    return inner_->subscription_store(subscription);
  }
  std::shared_ptr<const void> load_agent_state(const AgentKindBase& kind,
                                               std::string_view key) override {
    return inner_->load_agent_state(kind, key);
  }
  bool idempotency_seen(std::string_view scope, std::string_view key,
                        Instant now) override {
    return inner_->idempotency_seen(scope, key, now);
  }
  std::vector<AgentMessage> pending_messages() override {
    return inner_->pending_messages();
  }
  bool message_pending(const MessageId& id) override {
    return inner_->message_pending(id);
  }
  std::uint32_t message_attempts(const MessageId& id) override {
    return inner_->message_attempts(id);
  }
  void record_message_attempt(const MessageId& id,
                              std::uint32_t attempts) override {
    refuse();
    inner_->record_message_attempt(id, attempts);
  }
  void dead_message(DeadMessage message) override {
    refuse();
    inner_->dead_message(std::move(message));
  }
  std::vector<DeadMessage> dead_messages() override {
    return inner_->dead_messages();
  }
  std::size_t purge_expired(Instant now) override {
    return inner_->purge_expired(now);
  }
  Instant latest_time() override { return inner_->latest_time(); }
  void commit(CommitRecord& record) override {
    refuse();
    committed_.insert(committed_.end(), record.messages.begin(),
                      record.messages.end());
    inner_->commit(record);
  }

  // A full disk: every write fails while set.
  bool refuse_writes = false;

 private:
  void refuse() const {
    if (refuse_writes)
      throw std::runtime_error("database or disk is full (injected)");
  }
  std::unique_ptr<Backend> inner_;
  std::vector<AgentMessage>& committed_;
};

struct ChatWorld {
  explicit ChatWorld(std::unique_ptr<Backend> backend = nullptr)
      : executor(1),
        runtime(deterministic_config(), executor, std::move(backend), &log) {
    runtime.install(test_chat::context());
  }
  Runtime& rt() { return runtime; }
  std::vector<std::string> lines(const std::string& room) {
    return Room::at(runtime, room).state().lines;
  }
  DeterministicExecutor executor;
  MemoryLogSink log;
  Runtime runtime;
};

}  // namespace

TEST_CASE(
    "Messages: the receiving agent runs the handler its kind's table names, "
    "with the encoded arguments and its key") {
  std::vector<AgentMessage> committed;
  ChatWorld w(std::make_unique<RecordingBackend>(committed));
  Lobby::in(w.rt()).send("r-1", "say", {{"text", "hello"}});
  Lobby::in(w.rt()).send("r-2", "say", {{"text", "hi"}});
  // Staged in the sender's commit record, as data; not yet run.
  REQUIRE(committed.size() == 2);
  CHECK(committed[0].agent_kind == "test.chat.Room");
  CHECK(committed[0].key == "r-1");
  CHECK(committed[0].handler == "say");
  CHECK(committed[0].args == nlohmann::json{{"text", "hello"}});
  CHECK(committed[0].cause.depth == 0);
  w.executor.run_until_idle();
  CHECK(w.lines("r-1") == std::vector<std::string>{"r-1: hello"});
  CHECK(w.lines("r-2") == std::vector<std::string>{"r-2: hi"});
  CHECK(w.log.lines("handler.fault").empty());
}

TEST_CASE("Messages: a sender that faults sends nothing") {
  std::vector<AgentMessage> committed;
  DeterministicExecutor executor(1);
  MemoryLogSink log;
  Runtime rt(deterministic_config(), executor,
             std::make_unique<RecordingBackend>(committed), &log);
  rt.install(test_chat::context());
  CHECK_THROWS_AS(ServiceRef(rt, test_chat::kLobby)
                      .call("send",
                            [](Invocation& tx) {
                              Room::Ref{"r-1"}.say(tx, "lost");
                              tx.fail("after sending");
                            }),
                  HandlerFault);
  executor.run_until_idle();
  CHECK(committed.empty());
  CHECK(Room::at(rt, "r-1").state().lines.empty());
}

TEST_CASE(
    "Messages: a store that keeps refusing writes leaves the message pending "
    "after retry.max_attempts refusals with a growing delay, and reports it") {
  std::vector<AgentMessage> committed;
  auto owned = std::make_unique<RecordingBackend>(committed);
  RecordingBackend& backend = *owned;
  ChatWorld w(std::move(owned));
  Lobby::in(w.rt()).send("r-1", "say", {{"text", "hello"}});
  REQUIRE(committed.size() == 1);
  backend.refuse_writes = true;
  w.executor.run_all(std::chrono::hours(1));
  // Tried again after 100ms, 200ms, 400ms, 800ms (retry.base 100ms doubling,
  // retry.max_attempts 5), not every 100ms for the hour.
  const auto faults = w.log.lines("message.fault");
  REQUIRE(faults.size() == 4);
  for (std::size_t i = 0; i < faults.size(); ++i)
    CHECK(faults[i]["attempt"] == i + 1);
  const auto refused = w.log.lines("message.store_refused");
  REQUIRE(refused.size() == 1);
  CHECK(refused[0]["messageId"] == committed[0].id.str());
  CHECK(w.rt().metrics_json()["storeRefused"] == 1);
  CHECK(w.executor.pending_timers() == 0);
  // Nothing lost: it is still pending in the store for the next recovery.
  backend.refuse_writes = false;
  CHECK(w.rt().store().message_pending(committed[0].id));
  CHECK(w.lines("r-1").empty());
}

TEST_CASE(
    "Messages: an unknown handler name is a reported fault of the receiving "
    "agent, with the causing eventId, and the agent goes on") {
  World w(1, {}, [](Runtime& rt) {
    Context relay("test.relay");
    relay.uses_agent("commerce.notifications.Inbox");
    relay.subscribe<PaymentConfirmed>(
        {.service = "test.relay.Forward",
         .handler = [](Invocation& tx, const PaymentConfirmed& e,
                       const EventEnvelope&) {
           tx.send(commerce::notifications::Inbox::kind(), "relay", "archive",
                   {{"text", e.orderId.raw()}});
           commerce::notifications::Inbox::Ref{"relay"}.post(tx, "after");
         }});
    rt.install(std::move(relay));
  });
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  const auto faults = w.log.lines("handler.fault");
  REQUIRE(faults.size() == 1);
  CHECK(faults[0]["handler"] == "commerce.notifications.Inbox.archive");
  CHECK(faults[0]["message"] ==
        "agent commerce.notifications.Inbox has no message handler 'archive'");
  // The eventId of the delivery that sent the message.
  std::vector<LogEntryPtr> released;
  w.rt().store().context_log("commerce.order").read(0, 10, released);
  REQUIRE(released.size() == 1);
  CHECK(faults[0]["eventId"] == released[0]->envelope.eventId.str());
  // The message after it ran.
  CHECK(w.inbox("relay") == std::vector<std::string>{"after"});
}

TEST_CASE(
    "Messages: arguments that do not decode fault the handler and commit "
    "nothing") {
  ChatWorld w;
  Lobby::in(w.rt()).send("r-1", "say", {{"txt", "typo"}});
  Lobby::in(w.rt()).send("r-1", "say", {{"text", 42}});
  Lobby::in(w.rt()).send("r-1", "say", {{"text", "fine"}});
  w.executor.run_until_idle();
  const auto faults = w.log.lines("handler.fault");
  REQUIRE(faults.size() == 2);
  CHECK(faults[0]["handler"] == "test.chat.Room.say");
  CHECK(faults[0]["message"].get<std::string>().find("key 'text' not found") !=
        std::string::npos);
  CHECK(faults[1]["message"].get<std::string>().find("type must be string") !=
        std::string::npos);
  CHECK(!faults[0].contains("eventId"));  // a host call caused it
  CHECK(w.lines("r-1") == std::vector<std::string>{"r-1: fine"});
}

TEST_CASE(
    "Messages: a send to an agent kind the sender's context does not declare "
    "faults the sender") {
  World w(1, {{"retry.max_attempts", "1"}}, [](Runtime& rt) {
    Context stray("test.stray");
    stray.subscribe<PaymentConfirmed>(
        {.service = "test.stray.Forward",
         .handler = [](Invocation& tx, const PaymentConfirmed&,
                       const EventEnvelope&) {
           commerce::notifications::Inbox::Ref{"stray"}.post(tx, "x");
         }});
    rt.install(std::move(stray));
  });
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  const auto letters = w.rt().dead_letters("test.stray.Forward");
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].last_error ==
        "test.stray.Forward sends post to agent "
        "commerce.notifications.Inbox, which context test.stray neither owns "
        "nor declares (Context::uses_agent)");
  CHECK(w.inbox("stray").empty());
}

TEST_CASE("State codec: encode and decode round-trip through AgentKindBase") {
  const AgentKindBase& room = Room::kind();
  CHECK(room.qualified() == "test.chat.Room");
  CHECK(room.state_version() == 2);
  RoomState s("news");
  s.lines = {"a: 1", "b: 2"};
  const nlohmann::json encoded = room.encode_state(&s);
  CHECK(encoded ==
        nlohmann::json{{"topic", "news"}, {"lines", {"a: 1", "b: 2"}}});
  const std::shared_ptr<const void> decoded =
      room.decode_state(encoded, room.state_version());
  CHECK(*static_cast<const RoomState*>(decoded.get()) == s);
  CHECK_THROWS(room.decode_state(nlohmann::json{{"lines", {}}}, 2));

  const AgentKindBase& order = Order::kind();
  commerce::order::Order::State paid{UserId::from_raw("u-1"), Money{12, "EUR"},
                                     commerce::order::Status::Paid};
  const auto back = order.decode_state(order.encode_state(&paid), 1);
  const auto& decoded_order =
      *static_cast<const commerce::order::Order::State*>(back.get());
  CHECK(decoded_order.customer == paid.customer);
  CHECK(decoded_order.total == paid.total);
  CHECK(decoded_order.status == paid.status);
}

TEST_CASE("State: a fresh agent starts from its kind's initial()") {
  ChatWorld w;
  const RoomState fresh = Room::at(w.rt(), "r-new").state();
  CHECK(fresh == RoomState("welcome"));
  Lobby::in(w.rt()).send("r-1", "say", {{"text", "first"}});
  w.executor.run_until_idle();
  const RoomState after = Room::at(w.rt(), "r-1").state();
  CHECK(after.topic == "welcome");
  CHECK(after.lines == std::vector<std::string>{"r-1: first"});
}

TEST_CASE("Agent kinds: an incomplete spec is refused when the kind is built") {
  using Spec = AgentKindSpec<RoomState>;
  auto initial = [] { return RoomState("x"); };
  auto encode = [](const RoomState&) { return nlohmann::json(); };
  auto decode = [](const nlohmann::json&, std::int64_t) {
    return RoomState("x");
  };
  CHECK_THROWS_WITH_AS(AgentKind<RoomState>(Spec{.context = "test.k",
                                                 .name = "A",
                                                 .encode_state = encode,
                                                 .decode_state = decode}),
                       "agent kind test.k.A has no initial state",
                       RegistrationError);
  CHECK_THROWS_WITH_AS(AgentKind<RoomState>(Spec{.context = "test.k",
                                                 .name = "B",
                                                 .initial = initial,
                                                 .decode_state = decode}),
                       "agent kind test.k.B has no state codec",
                       RegistrationError);
  auto noop = [](Invocation&, RoomState&, std::string_view,
                 const nlohmann::json&) {};
  CHECK_THROWS_WITH_AS(
      AgentKind<RoomState>(Spec{.context = "test.k",
                                .name = "C",
                                .initial = initial,
                                .encode_state = encode,
                                .decode_state = decode,
                                .handlers = {{"h", noop}, {"h", noop}}}),
      "agent kind test.k.C has two message handlers named 'h'",
      RegistrationError);
}

}  // namespace herald::test
