#pragma once
// A hand-written stand-in for what heraldc generates from:
//
//   context commerce.order
//   type OrderId = opaque String
//   type UserId  = opaque String
//   type AuthId  = opaque String
//   type Money   = { cents: Int, currency: String }
//   type Region  = | Domestic | International
//   type Status  = | Pending | Paid | Cancelled
//   actor InternalCaller
//   event PaymentConfirmed = { orderId: OrderId, userId: UserId, amount: Money,
//                              region: Region = Region.Domestic, at: Instant }
//   fn regionOf(u: UserId) -> Region { if u.raw.startsWith("intl-") {
//   International } else { Domestic } } agent Order {
//     key id: OrderId
//     store customer: Option[UserId] = None
//     store total: Money = Money { cents: 0, currency: "EUR" }
//     store status: Status = Pending
//     invariant paidNeedsCustomer: status != Paid || customer != None
//     on place(buyer: UserId, amount: Money) { customer := Some(buyer)  total
//     := amount } on markPaid(authId: AuthId) by InternalCaller given Events,
//     Clock { ... emit PaymentConfirmed ... } on splitPayment(parts: Int) by
//     InternalCaller given Events, Clock { ... emits `parts` PaymentConfirmed
//     ... } on forcePaid() { status := Paid }     -- breaks the invariant when
//     there is no customer
//   }
//   service Payments {                     -- no `from`: the host calls it
//     on call confirmExternal(orderId: OrderId, userId: UserId, cents: Int)
//     given Events, Clock {
//       if cents <= 0 { fail("amount must be positive") }
//       Events.emit(PaymentConfirmed { orderId: orderId, userId: userId,
//       amount: Money { cents: cents, currency: "EUR" },
//                                      region: regionOf(userId), at: Clock.now
//                                      })
//     }
//   }
//
//   context commerce.notifications
//   consumes commerce.order
//   capability Gateway { fn notify(user: UserId, text: String) }
//   event ReceiptIssued = { orderId: OrderId }
//   agent Inbox { key owner: String  store messages: List[String] = []  on
//   post(text: String) { ... } }
//   -- Gateway is given to handlers as the capability
//   commerce.notifications.Gateway service OnDomesticPayment from
//   Events(PaymentConfirmed { region: Domestic, .. }) given Events, Inbox:
//   Ref[Inbox] {
//     on event(e: PaymentConfirmed) { Inbox(e.userId.raw).post("domestic ...")
//     Events.emit(ReceiptIssued { orderId: e.orderId }) }
//   }
//   service OnInternationalPayment from Events(PaymentConfirmed { region:
//   International, .. })
//       given Gateway, Inbox: Ref[Inbox] {
//     on event(e: PaymentConfirmed) { Gateway.notify(e.userId, "...")
//     Inbox(e.userId.raw).post("international ...") }
//   }
//   service OnPaymentAudit from Events(PaymentConfirmed) via schema(1..) given
//   Logger, Idempotency, Inbox: Ref[Inbox] {
//     on event(e: PaymentConfirmed, env: EventEnvelope) { Logger.info(...)
//     Inbox("audit").post("...env...") }
//   }
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "herald/runtime.hpp"

// ----------------------------------------------------------------
// commerce.order
namespace commerce::order {

class OrderId {
 public:
  explicit OrderId(std::string raw) : raw_(std::move(raw)) {}
  const std::string& raw() const { return raw_; }
  friend bool operator==(const OrderId&, const OrderId&) = default;

 private:
  std::string raw_;
};

class UserId {
 public:
  explicit UserId(std::string raw) : raw_(std::move(raw)) {}
  const std::string& raw() const { return raw_; }
  friend bool operator==(const UserId&, const UserId&) = default;

 private:
  std::string raw_;
};

class AuthId {
 public:
  explicit AuthId(std::string raw) : raw_(std::move(raw)) {}
  const std::string& raw() const { return raw_; }

 private:
  std::string raw_;
};

struct Money {
  std::int64_t cents = 0;
  std::string currency;
  friend bool operator==(const Money&, const Money&) = default;
};

enum class Region { Domestic, International };
enum class Status { Pending, Paid, Cancelled };

struct InternalCaller {};

struct PaymentConfirmed {
  OrderId orderId;
  UserId userId;
  Money amount;
  Region region = Region::Domestic;
  herald::Instant at;
};

inline void to_json(nlohmann::json& j, const Money& v) {
  j = {{"cents", v.cents}, {"currency", v.currency}};
}
inline void from_json(const nlohmann::json& j, Money& v) {
  v.cents = j.at("cents").get<std::int64_t>();
  v.currency = j.at("currency").get<std::string>();
}
NLOHMANN_JSON_SERIALIZE_ENUM(Region, {{Region::Domestic, "Domestic"},
                                      {Region::International, "International"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Status, {{Status::Pending, "Pending"},
                                      {Status::Paid, "Paid"},
                                      {Status::Cancelled, "Cancelled"}})

}  // namespace commerce::order

// Wire form. Opaque types and events have no default constructor, so they
// decode through adl_serializer's value-returning from_json.
template <>
struct nlohmann::adl_serializer<commerce::order::OrderId> {
  static void to_json(json& j, const commerce::order::OrderId& v) {
    j = v.raw();
  }
  static commerce::order::OrderId from_json(const json& j) {
    return commerce::order::OrderId(j.get<std::string>());
  }
};

template <>
struct nlohmann::adl_serializer<commerce::order::UserId> {
  static void to_json(json& j, const commerce::order::UserId& v) {
    j = v.raw();
  }
  static commerce::order::UserId from_json(const json& j) {
    return commerce::order::UserId(j.get<std::string>());
  }
};

template <>
struct nlohmann::adl_serializer<commerce::order::PaymentConfirmed> {
  static void to_json(json& j, const commerce::order::PaymentConfirmed& e) {
    j = {{"orderId", e.orderId},
         {"userId", e.userId},
         {"amount", e.amount},
         {"region", e.region},
         {"at", herald::format_instant(e.at)}};
  }
  static commerce::order::PaymentConfirmed from_json(const json& j) {
    return commerce::order::PaymentConfirmed{
        j.at("orderId").get<commerce::order::OrderId>(),
        j.at("userId").get<commerce::order::UserId>(),
        j.at("amount").get<commerce::order::Money>(),
        // `region: Region = Region.Domestic`: absent in older versions.
        j.contains("region") ? j.at("region").get<commerce::order::Region>()
                             : commerce::order::Region::Domestic,
        herald::parse_instant(j.at("at").get<std::string>())};
  }
};

template <>
struct herald::EventInfo<commerce::order::PaymentConfirmed> {
  static constexpr std::string_view owner = "commerce.order";
  static constexpr std::string_view name = "commerce.order.PaymentConfirmed";
  static constexpr std::int64_t schema_version = 1;
};

namespace commerce::order {

inline Region regionOf(const UserId& u) {
  return u.raw().starts_with("intl-") ? Region::International
                                      : Region::Domestic;
}

struct OrderState {
  std::optional<UserId> customer;
  Money total;
  Status status;
  friend bool operator==(const OrderState&, const OrderState&) = default;
};

class Order {
 public:
  static const herald::AgentKind<OrderState>& kind();
  static Order at(herald::Runtime& rt, OrderId id) {
    return Order(rt, std::move(id));
  }

  void place(UserId buyer, Money amount) {
    ref_.call("place", [&](herald::Invocation&, OrderState& s) {
      s.customer = buyer;
      s.total = amount;
    });
  }

  void markPaid(InternalCaller, const AuthId&) {
    ref_.call("markPaid", [&](herald::Invocation& tx, OrderState& s) {
      if (!s.customer)
        tx.fail(fmt::format("order {} has no customer", id_.raw()));
      const UserId buyer = *s.customer;
      s.status = Status::Paid;
      tx.events().emit(PaymentConfirmed{id_, buyer, s.total, regionOf(buyer),
                                        tx.clock().now()});
    });
  }

  void splitPayment(InternalCaller, std::int64_t parts) {
    ref_.call("splitPayment", [&](herald::Invocation& tx, OrderState& s) {
      if (!s.customer)
        tx.fail(fmt::format("order {} has no customer", id_.raw()));
      s.status = Status::Paid;
      for (std::int64_t i = 1; i <= parts; ++i) {
        tx.events().emit(
            PaymentConfirmed{id_, *s.customer, Money{i, s.total.currency},
                             regionOf(*s.customer), tx.clock().now()});
      }
    });
  }

  void forcePaid() {
    ref_.call("forcePaid", [&](herald::Invocation&, OrderState& s) {
      s.status = Status::Paid;
    });
  }

  OrderState state() const { return ref_.state(); }

 private:
  Order(herald::Runtime& rt, OrderId id)
      : id_(std::move(id)), ref_(rt, kind(), id_.raw()) {}
  OrderId id_;
  herald::AgentRef<OrderState> ref_;
};

inline nlohmann::json Order_encode_state(const OrderState& s) {
  return {{"customer",
           s.customer ? nlohmann::json(*s.customer) : nlohmann::json(nullptr)},
          {"total", s.total},
          {"status", s.status}};
}

inline OrderState Order_decode_state(const nlohmann::json& j, std::int64_t) {
  const auto& customer = j.at("customer");
  return OrderState{customer.is_null()
                        ? std::nullopt
                        : std::optional<UserId>(customer.get<UserId>()),
                    j.at("total").get<Money>(), j.at("status").get<Status>()};
}

inline const herald::AgentKind<OrderState>& Order::kind() {
  static const herald::AgentKind<OrderState> kind({
      .context = "commerce.order",
      .name = "Order",
      .state_version = 1,
      .initial =
          [] {
            return OrderState{std::nullopt, Money{0, "EUR"}, Status::Pending};
          },
      .encode_state = &Order_encode_state,
      .decode_state = &Order_decode_state,
      .invariants = {{"paidNeedsCustomer",
                      [](const OrderState& s) {
                        return s.status != Status::Paid ||
                               s.customer.has_value();
                      }}},
      .handlers = {},
  });
  return kind;
}

class Payments {
 public:
  static Payments in(herald::Runtime& rt) { return Payments(rt); }

  void confirmExternal(OrderId orderId, UserId userId, std::int64_t cents) {
    ref_.call("confirmExternal", [&](herald::Invocation& tx) {
      if (cents <= 0) tx.fail("amount must be positive");
      tx.events().emit(PaymentConfirmed{orderId, userId, Money{cents, "EUR"},
                                        regionOf(userId), tx.clock().now()});
    });
  }

 private:
  explicit Payments(herald::Runtime& rt)
      : ref_(rt, "commerce.order.Payments") {}
  herald::ServiceRef ref_;
};

inline herald::Context context() {
  herald::Context ctx("commerce.order");
  ctx.owns<PaymentConfirmed>();
  ctx.agent(Order::kind());
  ctx.service("commerce.order.Payments");
  return ctx;
}

}  // namespace commerce::order

// --------------------------------------------------------
// commerce.notifications
namespace commerce::notifications {

using commerce::order::PaymentConfirmed;

// A user capability: the host implements it.
class Gateway {
 public:
  virtual ~Gateway() = default;
  virtual void notify(const commerce::order::UserId& user,
                      const std::string& text) = 0;
};

struct ReceiptIssued {
  commerce::order::OrderId orderId;
};
}  // namespace commerce::notifications

template <>
struct nlohmann::adl_serializer<commerce::notifications::ReceiptIssued> {
  static void to_json(json& j,
                      const commerce::notifications::ReceiptIssued& e) {
    j = {{"orderId", e.orderId}};
  }
  static commerce::notifications::ReceiptIssued from_json(const json& j) {
    return commerce::notifications::ReceiptIssued{
        j.at("orderId").get<commerce::order::OrderId>()};
  }
};

template <>
struct herald::EventInfo<commerce::notifications::ReceiptIssued> {
  static constexpr std::string_view owner = "commerce.notifications";
  static constexpr std::string_view name =
      "commerce.notifications.ReceiptIssued";
  static constexpr std::int64_t schema_version = 1;
};

namespace commerce::notifications {

struct InboxState {
  std::vector<std::string> messages;
  friend bool operator==(const InboxState&, const InboxState&) = default;
};

class Inbox {
 public:
  // The agent's address; a Ref call from a handler is a one-way message
  // released at commit.
  struct Ref {
    std::string owner;
    void post(herald::Invocation& tx, const std::string& text) const {
      tx.send(kind(), owner, "post", nlohmann::json{{"text", text}});
    }
  };

  static Inbox at(herald::Runtime& rt, std::string owner) {
    return Inbox(rt, std::move(owner));
  }
  static const herald::AgentKind<InboxState>& kind();
  InboxState state() const { return ref_.state(); }

 private:
  Inbox(herald::Runtime& rt, std::string owner)
      : ref_(rt, kind(), std::move(owner)) {}
  herald::AgentRef<InboxState> ref_;
};

inline void Inbox_on_post(herald::Invocation&, InboxState& s,
                          const std::string&, const std::string& text) {
  s.messages.push_back(text);
}

inline const herald::AgentKind<InboxState>& Inbox::kind() {
  static const herald::AgentKind<InboxState> kind({
      .context = "commerce.notifications",
      .name = "Inbox",
      .state_version = 1,
      .initial = [] { return InboxState{{}}; },
      .encode_state =
          [](const InboxState& s) {
            return nlohmann::json{{"messages", s.messages}};
          },
      .decode_state =
          [](const nlohmann::json& j, std::int64_t) {
            return InboxState{j.at("messages").get<std::vector<std::string>>()};
          },
      .invariants = {},
      .handlers = {{"post",
                    [](herald::Invocation& tx, InboxState& s,
                       std::string_view key, const nlohmann::json& args) {
                      Inbox_on_post(tx, s, std::string(key),
                                    args.at("text").get<std::string>());
                    }}},
  });
  return kind;
}

inline std::string describe(const PaymentConfirmed& e) {
  return fmt::format("{}:{}", e.orderId.raw(), e.amount.cents);
}

inline herald::Context context(Gateway& gateway) {
  using commerce::order::Region;
  herald::Context ctx("commerce.notifications");
  ctx.owns<ReceiptIssued>();
  ctx.agent(Inbox::kind());
  ctx.capability<Gateway>("commerce.notifications.Gateway", &gateway);
  ctx.subscribe<PaymentConfirmed>({
      .service = "commerce.notifications.OnDomesticPayment",
      .pattern =
          [](const PaymentConfirmed& e) {
            return e.region == Region::Domestic;
          },
      .via = {},
      .handler =
          [](herald::Invocation& tx, const PaymentConfirmed& e,
             const herald::EventEnvelope&) {
            Inbox::Ref{e.userId.raw()}.post(tx, "domestic " + describe(e));
            tx.events().emit(ReceiptIssued{e.orderId});
          },
  });
  ctx.subscribe<PaymentConfirmed>({
      .service = "commerce.notifications.OnInternationalPayment",
      .pattern =
          [](const PaymentConfirmed& e) {
            return e.region == Region::International;
          },
      .via = {},
      .handler =
          [](herald::Invocation& tx, const PaymentConfirmed& e,
             const herald::EventEnvelope&) {
            tx.capability<Gateway>("commerce.notifications.Gateway")
                .notify(e.userId, "payment " + describe(e));
            Inbox::Ref{e.userId.raw()}.post(tx, "international " + describe(e));
          },
  });
  ctx.subscribe<PaymentConfirmed>({
      .service = "commerce.notifications.OnPaymentAudit",
      .pattern = {},
      .via = herald::via_schema(1, std::nullopt),
      .handler =
          [](herald::Invocation& tx, const PaymentConfirmed& e,
             const herald::EventEnvelope& env) {
            tx.logger().info(
                fmt::format("audit {} v{}", env.eventId, env.schemaVersion));
            if (!tx.idempotency().seen(e.orderId.raw()))
              tx.idempotency().remember(e.orderId.raw(),
                                        std::chrono::hours(24));
            Inbox::Ref{"audit"}.post(
                tx, fmt::format("{} {} seq={} depth={} pub={}", describe(e),
                                env.eventId, env.sequence, env.depth,
                                env.publisherId));
          },
  });
  return ctx;
}

}  // namespace commerce::notifications
