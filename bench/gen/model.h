// The shape of a generated project: contexts, the entities (aggregates)
// each one owns, and how a context consumes earlier ones. The emitters
// derive every declared name from this model, so a name is only used where
// its declaration is visible.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bench/gen/rng.h"

namespace herald::bench {

// One aggregate: its types, events, pure functions, agent and subscribers
// all take their names from it ("Order2Id", "Order2Opened", agent "Order2").
struct Entity {
  std::string name;    // UpperCamel, unique in the project
  std::string lower;   // lowerCamel spelling of `name`
  std::string plural;  // name of a `Ref[...]` dependency on its agent
};

enum class EventKind { Opened, StatusChanged, Closed };
inline constexpr EventKind kEventKinds[] = {
    EventKind::Opened, EventKind::StatusChanged, EventKind::Closed};

[[nodiscard]] std::string eventName(const Entity& entity, EventKind kind);

struct Context {
  std::string path;  // "commerce.order2"
  std::string last;  // "order2": the alias consumers give it
  std::string head;  // prefix of the context-wide declarations
  std::vector<Entity> entities;

  [[nodiscard]] std::string operatorActor() const { return head + "Operator"; }
  [[nodiscard]] std::string customerActor() const { return head + "Customer"; }
  [[nodiscard]] std::string pricing() const { return head + "Pricing"; }
  [[nodiscard]] std::string channel() const { return head + "Channel"; }
  [[nodiscard]] std::string inbox() const { return head + "Inbox"; }
  [[nodiscard]] std::string inboxId() const { return head + "InboxId"; }
  [[nodiscard]] std::string desk() const { return head + "Desk"; }
};

enum class ConsumeForm {
  Plain,  // consumes a.b
  Alias,  // consumes a.b as b
  Only,   // consumes a.b { X, Y }
};

struct Consume {
  const Context* context;
  ConsumeForm form;

  // Spells declaration `name` of the consumed context from the consumer:
  // bare, alias-qualified or (when `qualify` and the form allows it)
  // fully qualified.
  [[nodiscard]] std::string ref(std::string_view name, bool qualify) const;
  // Entities whose declarations are visible through this consume.
  [[nodiscard]] std::size_t usableEntities() const;
  // The names listed by the `{ ... }` form.
  [[nodiscard]] std::vector<std::string> onlyNames() const;
};

// The first context of every project: identities and money, consumed by
// all the others.
inline constexpr std::string_view kCorePath = "core.identity";

// Hands out entity names (domain nouns, numbered once the list is used up)
// and the area their context lives in.
class NamePool {
 public:
  explicit NamePool(Rng& rng);

  struct Noun {
    std::string area;
    Entity entity;
  };
  Noun next();

 private:
  struct Word {
    const char* area;
    const char* noun;
  };
  std::vector<Word> words_;
  std::size_t cursor_ = 0;
  int round_ = 1;
};

}  // namespace herald::bench
