#include "registry/registry.h"

#include <algorithm>

#include <fmt/format.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Casting.h>

#include "registry/evolve.h"
#include "registry/lock_source.h"
#include "registry/shape.h"

namespace herald::registry {

namespace {

std::vector<check::EventInfo*> eventsByName(check::Program& program) {
  std::vector<check::EventInfo*> events;
  for (const auto& context : program.contexts)
    for (const auto& decl : context->decls)
      if (auto* event = llvm::dyn_cast<check::EventInfo>(decl.get()))
        events.push_back(event);
  std::sort(events.begin(), events.end(),
            [](const check::EventInfo* a, const check::EventInfo* b) {
              return a->qualified < b->qualified;
            });
  return events;
}

std::vector<check::AgentInfo*> agentsByName(check::Program& program) {
  std::vector<check::AgentInfo*> agents;
  for (const auto& context : program.contexts)
    for (const auto& decl : context->decls)
      if (auto* agent = llvm::dyn_cast<check::AgentInfo>(decl.get()))
        agents.push_back(agent);
  std::sort(agents.begin(), agents.end(),
            [](const check::AgentInfo* a, const check::AgentInfo* b) {
              return a->qualified < b->qualified;
            });
  return agents;
}

// Sets the agent's state version and every store's `since` in the IR from
// the agent's lock entry.
void stamp(check::AgentInfo& agent, const LockAgent& entry) {
  agent.stateVersion = entry.version;
  llvm::StringMap<std::int64_t> since;
  for (const LockStore& locked : entry.stores)
    since[locked.name] = locked.since;
  for (check::StoreInfo& store : agent.stores) {
    auto it = since.find(store.field.name);
    if (it != since.end()) store.since = it->second;
  }
}

// Merges two sorted walks: `step(a, b)` with a pointer into each, one of
// them null when only the other side has that name.
template <class A, class B, class Step>
void mergeByName(const std::vector<A*>& as, const std::vector<B>& bs,
                 Step step) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < as.size() || j < bs.size()) {
    if (j == bs.size() ||
        (i < as.size() && as[i]->qualified < bs[j].qualified)) {
      step(as[i++], nullptr);
    } else if (i == as.size() || bs[j].qualified < as[i]->qualified) {
      step(nullptr, &bs[j++]);
    } else {
      step(as[i++], &bs[j++]);
    }
  }
}

// The lock line of `entry`, when the lock was read from a file.
std::optional<SourceRange> entryRange(const RegistryOptions& options,
                                      const LockEvent& entry) {
  if (options.lockSource == nullptr || entry.line == 0) return std::nullopt;
  return lineRange(*options.lockSource, entry.line);
}

class Registry {
 public:
  Registry(const RegistryOptions& options, DiagnosticEngine& diags)
      : options_(options), diags_(diags) {}

  // `event` against its lock entry, or against none when it is new.
  void event(check::EventInfo& event, const LockEvent* entry) {
    if (entry == nullptr) {
      std::int64_t version = event.pinnedSchema.value_or(1);
      record(event, {event.qualified, std::nullopt, version, {}});
      result_.lock.events.push_back(shapeOf(event, version));
      return;
    }
    LockEvent shape = shapeOf(event, entry->version);
    Evolution evolution = compareShapes(*entry, shape);
    switch (evolution.kind) {
      case EvolutionKind::Unchanged:
        pinned(event, entry->version, *entry);
        break;
      case EvolutionKind::Additive:
        shape.version = entry->version + 1;
        pinned(event, shape.version, *entry);
        record(event, {event.qualified, entry->version, shape.version,
                       std::move(evolution.added)});
        break;
      case EvolutionKind::NonAdditive:
        nonAdditive(event, *entry, evolution.changes);
        shape = *entry;  // the lock is left as it was
        break;
    }
    event.schemaVersion = shape.version;
    result_.lock.events.push_back(std::move(shape));
  }

  // An entry whose event this program does not declare.
  void kept(const LockEvent& entry) { result_.lock.events.push_back(entry); }
  void kept(const LockAgent& entry) { result_.lock.agents.push_back(entry); }

  // `agent` against its lock entry, or against none when it is new.
  void agent(check::AgentInfo& agent, const LockAgent* entry) {
    LockAgent shape = shapeOf(agent, entry != nullptr ? entry->version : 1);
    if (entry == nullptr) {
      recordState(agent, {agent.qualified, std::nullopt, 1, {}});
      stamp(agent, shape);
      result_.lock.agents.push_back(std::move(shape));
      return;
    }
    StateEvolution evolution = compareStores(*entry, shape);
    switch (evolution.kind) {
      case EvolutionKind::Unchanged:
        break;
      case EvolutionKind::Additive:
        shape.version = entry->version + 1;
        for (LockStore& added : evolution.added) added.since = shape.version;
        recordState(agent, {agent.qualified, entry->version, shape.version,
                            evolution.added});
        break;
      case EvolutionKind::NonAdditive:
        nonAdditiveState(agent, *entry, evolution.changes);
        stamp(agent, *entry);
        result_.lock.agents.push_back(*entry);  // left as it was
        return;
    }
    // Each store keeps the version it was added at; one the entry lacks
    // (only when additive) gets the new version. Both are sorted by name.
    std::size_t j = 0;
    for (LockStore& store : shape.stores) {
      while (j < entry->stores.size() && entry->stores[j].name < store.name)
        ++j;
      store.since =
          j < entry->stores.size() && entry->stores[j].name == store.name
              ? entry->stores[j].since
              : shape.version;
    }
    if (evolution.kind == EvolutionKind::Unchanged &&
        shape.stores != entry->stores) {
      // Only initialisers were recorded anew: no version changes.
      result_.changed = true;
      if (options_.locked)
        diags_
            .report<diag::SchemaLockOutdated>(
                agent.nameRange, "agent", agent.qualified,
                "its stores' initialisers are recorded anew")
            .note(
                "run 'heraldc build' without --locked and commit the updated "
                "herald.schema.lock");
    }
    stamp(agent, shape);
    result_.lock.agents.push_back(std::move(shape));
  }

  RegistryResult take() { return std::move(result_); }

 private:
  void record(check::EventInfo& event, VersionChange change) {
    event.schemaVersion = change.to;
    result_.changed = true;
    if (options_.locked) {
      std::string what =
          change.from ? fmt::format("version {} -> {}", *change.from, change.to)
                      : fmt::format("new at version {}", change.to);
      diags_
          .report<diag::SchemaLockOutdated>(event.nameRange, "event",
                                            event.qualified, what)
          .note(
              "run 'heraldc build' without --locked and commit the updated "
              "herald.schema.lock");
    }
    result_.changes.push_back(std::move(change));
  }

  void pinned(const check::EventInfo& event, std::int64_t version,
              const LockEvent& entry) {
    if (!event.pinnedSchema || *event.pinnedSchema == version) return;
    DiagnosticBuilder report = diags_.report<diag::SchemaVersionMismatch>(
        event.pinnedRange, event.qualified, *event.pinnedSchema, version);
    std::string why =
        version == entry.version
            ? fmt::format("the lock records version {} for this shape",
                          entry.version)
            : fmt::format(
                  "the lock records version {} and this change only adds "
                  "defaulted fields, which makes version {}",
                  entry.version, version);
    if (std::optional<SourceRange> at = entryRange(options_, entry))
      report.note(*at, "{}", why);
    else
      report.note("{}", why);
    report.note("write '@schema({})' or drop the annotation", version);
  }

  void nonAdditive(const check::EventInfo& event, const LockEvent& entry,
                   const std::vector<FieldChange>& changes) {
    DiagnosticBuilder report = diags_.report<diag::NonAdditiveSchemaChange>(
        event.nameRange, event.qualified);
    for (const FieldChange& change : changes) {
      if (const check::FieldInfo* field = event.field(change.field))
        report.note(field->nameRange, "field '{}' {}", change.field,
                    change.description);
      else
        report.note("field '{}' {}", change.field, change.description);
    }
    std::string kept =
        fmt::format("version {} is recorded here; the lock is left unchanged",
                    entry.version);
    if (std::optional<SourceRange> at = entryRange(options_, entry))
      report.note(*at, "{}", kept);
    else
      report.note("{}", kept);
    report.note(
        "only adding fields with defaults keeps old events readable; for "
        "any other change declare a new event type and emit both during the "
        "transition");
  }

  void recordState(check::AgentInfo& agent, StateChange change) {
    result_.changed = true;
    if (options_.locked) {
      std::string what =
          change.from
              ? fmt::format("state version {} -> {}", *change.from, change.to)
              : fmt::format("new at state version {}", change.to);
      diags_
          .report<diag::SchemaLockOutdated>(agent.nameRange, "agent",
                                            agent.qualified, what)
          .note(
              "run 'heraldc build' without --locked and commit the updated "
              "herald.schema.lock");
    }
    result_.stateChanges.push_back(std::move(change));
  }

  void nonAdditiveState(const check::AgentInfo& agent, const LockAgent& entry,
                        const std::vector<FieldChange>& changes) {
    DiagnosticBuilder report = diags_.report<diag::NonAdditiveStateChange>(
        agent.nameRange, agent.qualified);
    for (const FieldChange& change : changes) {
      if (const check::StoreInfo* store = agent.store(change.field))
        report.note(store->field.nameRange, "store '{}' {}", change.field,
                    change.description);
      else
        report.note("store '{}' {}", change.field, change.description);
    }
    std::string kept = fmt::format(
        "state version {} is recorded here; the lock is left unchanged",
        entry.version);
    if (options_.lockSource != nullptr && entry.line != 0)
      report.note(lineRange(*options_.lockSource, entry.line), "{}", kept);
    else
      report.note("{}", kept);
    report.note(
        "saved agents keep their state only when stores with initialisers "
        "are added; to change a store add a new one beside it and move its "
        "value over in a handler");
  }

  const RegistryOptions& options_;
  DiagnosticEngine& diags_;
  RegistryResult result_;
};

}  // namespace

RegistryResult runRegistry(check::Program& program, const Lock& lock,
                           const RegistryOptions& options,
                           DiagnosticEngine& diags) {
  Registry registry(options, diags);
  mergeByName(eventsByName(program), lock.events,
              [&](check::EventInfo* event, const LockEvent* entry) {
                if (event != nullptr)
                  registry.event(*event, entry);
                else if (entry != nullptr)
                  registry.kept(*entry);
              });
  mergeByName(agentsByName(program), lock.agents,
              [&](check::AgentInfo* agent, const LockAgent* entry) {
                if (agent != nullptr)
                  registry.agent(*agent, entry);
                else if (entry != nullptr)
                  registry.kept(*entry);
              });
  return registry.take();
}

}  // namespace herald::registry
