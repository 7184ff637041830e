#include "registry/registry.h"

#include <algorithm>

#include <fmt/format.h>
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
          .report<diag::SchemaLockOutdated>(event.nameRange, event.qualified,
                                            what)
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

  const RegistryOptions& options_;
  DiagnosticEngine& diags_;
  RegistryResult result_;
};

}  // namespace

RegistryResult runRegistry(check::Program& program, const Lock& lock,
                           const RegistryOptions& options,
                           DiagnosticEngine& diags) {
  Registry registry(options, diags);
  std::vector<check::EventInfo*> events = eventsByName(program);
  const std::vector<LockEvent>& entries = lock.events;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < events.size() || j < entries.size()) {
    if (j == entries.size() ||
        (i < events.size() && events[i]->qualified < entries[j].qualified)) {
      registry.event(*events[i++], nullptr);
    } else if (i == events.size() ||
               entries[j].qualified < events[i]->qualified) {
      registry.kept(entries[j++]);
    } else {
      registry.event(*events[i++], &entries[j++]);
    }
  }
  return registry.take();
}

}  // namespace herald::registry
