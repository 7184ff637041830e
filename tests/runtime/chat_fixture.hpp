#pragma once
// A second hand-written stand-in for generated code, for the message table,
// state codecs and re-entrant host calls:
//
//   context test.chat
//   event Said = { text: String }
//   agent Room {
//     key name: String
//     store topic: String = "welcome"     -- State has no default constructor
//     store lines: List[String] = []
//     on say(text: String) { lines := lines + [name + ": " + text] }
//     on reenter(call: String) { ... makes the host call `call` from inside the
//     handler ... }
//   }
//   service Lobby {
//     on call send(room: String, handler: String, args: Json) {
//     Rooms(room).<handler>(args) } on call probe(call: String) { ... the host
//     call `call` from inside the handler ... }
//   }
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "herald/agent_kind.hpp"
#include "herald/invocation.hpp"
#include "herald/runtime.hpp"
#include "herald/service.hpp"

namespace test_chat {

struct Said {
  std::string text;
};
inline void to_json(nlohmann::json& j, const Said& s) {
  j = {{"text", s.text}};
}
inline void from_json(const nlohmann::json& j, Said& s) {
  s.text = j.at("text").get<std::string>();
}

}  // namespace test_chat

template <>
struct herald::EventInfo<test_chat::Said> {
  static constexpr std::string_view owner = "test.chat";
  static constexpr std::string_view name = "test.chat.Said";
  static constexpr std::int64_t schema_version = 1;
};

namespace test_chat {

struct RoomState {
  explicit RoomState(std::string t) : topic(std::move(t)) {}
  std::string topic;
  std::vector<std::string> lines;
  friend bool operator==(const RoomState&, const RoomState&) = default;
};

class Room {
 public:
  struct Ref {
    std::string name;
    void say(herald::Invocation& tx, const std::string& text) const {
      tx.send(kind(), name, "say", nlohmann::json{{"text", text}});
    }
  };
  static herald::AgentRef<RoomState> at(herald::Runtime& rt, std::string name) {
    return herald::AgentRef<RoomState>(rt, kind(), std::move(name));
  }
  static const herald::AgentKind<RoomState>& kind();
};

inline constexpr const char* kLobby = "test.chat.Lobby";

// Makes the host call named by `call` from inside the running handler
// (`self` is the room it runs on, if any). Returns the ReentrantCallError's
// message, or "no error" if the call went through.
inline std::string host_call_from_handler(herald::Invocation& tx,
                                          const std::string& call,
                                          const std::string& self) {
  herald::Runtime& rt = tx.runtime();
  try {
    if (call == "call") {
      Room::at(rt, self).call("say", [](herald::Invocation&, RoomState& s) {
        s.lines.emplace_back("re-entered");
      });
    } else if (call == "state") {
      (void)Room::at(rt, self).state();
    } else if (call == "service") {
      herald::ServiceRef(rt, kLobby).call("send", [](herald::Invocation&) {});
    } else if (call == "publish") {
      rt.publish("test.chat", "host", Said{"from inside"});
    } else {
      return "unknown call " + call;
    }
  } catch (const herald::ReentrantCallError& e) {
    return e.what();
  }
  return "no error";
}

inline const herald::AgentKind<RoomState>& Room::kind() {
  static const herald::AgentKind<RoomState> kind({
      .context = "test.chat",
      .name = "Room",
      .state_version = 2,
      .initial = [] { return RoomState("welcome"); },
      .encode_state =
          [](const RoomState& s) {
            return nlohmann::json{{"topic", s.topic}, {"lines", s.lines}};
          },
      .decode_state =
          [](const nlohmann::json& j, std::int64_t) {
            RoomState s(j.at("topic").get<std::string>());
            s.lines = j.at("lines").get<std::vector<std::string>>();
            return s;
          },
      .invariants = {},
      .handlers = {{"say",
                    [](herald::Invocation&, RoomState& s, std::string_view name,
                       const nlohmann::json& args) {
                      s.lines.push_back(std::string(name) + ": " +
                                        args.at("text").get<std::string>());
                    }},
                   {"reenter",
                    [](herald::Invocation& tx, RoomState& s,
                       std::string_view name, const nlohmann::json& args) {
                      s.lines.push_back(host_call_from_handler(
                          tx, args.at("call").get<std::string>(),
                          std::string(name)));
                    }}},
  });
  return kind;
}

class Lobby {
 public:
  static Lobby in(herald::Runtime& rt) { return Lobby(rt); }

  void send(const std::string& room, const std::string& handler,
            const nlohmann::json& args) {
    ref_.call("send", [&](herald::Invocation& tx) {
      tx.send(Room::kind(), room, handler, args);
    });
  }

  std::string probe(const std::string& call) {
    return ref_.call("probe", [&](herald::Invocation& tx) {
      return host_call_from_handler(tx, call, "lobby");
    });
  }

 private:
  explicit Lobby(herald::Runtime& rt) : ref_(rt, kLobby) {}
  herald::ServiceRef ref_;
};

inline herald::Context context() {
  herald::Context ctx("test.chat");
  ctx.owns<Said>();
  ctx.agent(Room::kind());
  ctx.service(kLobby);
  return ctx;
}

}  // namespace test_chat
