#pragma once
// herald::testing: what a host program's tests use (library
// Herald::testing, beside Herald::runtime in the package).
//
//   herald::testing::Harness h;                      // deterministic, seed 1
//   h.runtime().install(commerce::order::context());
//   h.record<commerce::order::PaymentConfirmed>();   // a tap, before the first
//   call commerce::order::Order::at(h.runtime(), id).markPaid(...);
//   h.run_to_idle();                                 // h.advance(1s) fires due
//   retries auto trace = h.trace();                          // emissions,
//   faults, dead letters auto golden =
//   herald::testing::check_golden("payment.trace.json", trace.dump(2));
//
// EventRecorder taps the runtime (Runtime::tap) and keeps every emission of
// the chosen event types with its full envelope; LogCapture is a LogSink
// whose lines come back with typed fields; Harness owns a deterministic
// executor, a runtime over it and both, and runs to idle or moves time.
// Event ids are minted fresh in every run, so a trace names them by first
// appearance ("<id1>", "<id2>", ...) to stay the same from run to run.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "herald/backend.hpp"
#include "herald/config.hpp"
#include "herald/dead_message.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/envelope.hpp"
#include "herald/event_id.hpp"
#include "herald/event_type.hpp"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/time.hpp"

namespace herald::testing {

// One emission as its publishing context's fan-out routed it: the envelope
// (copied: it outlives the runtime), the payload in its wire form, and the
// typed value decoded from it.
struct RecordedEvent {
  std::string event_type;  // qualified
  EventId event_id;
  std::string publisher_id;
  std::int64_t sequence = 0;
  Instant emitted_at{};
  std::int64_t schema_version = 0;
  std::optional<EventId> causation_id;
  EventId correlation_id;
  std::int64_t depth = 0;
  std::int64_t position = 0;  // in the publishing context's log
  nlohmann::json payload;     // the event type's codec's wire form
  std::shared_ptr<const void> value;
  const EventType* type = nullptr;

  // The typed payload, or nullptr when this is not an E.
  template <class E>
  const E* get() const {
    return type == &herald::event_type<E>() ? static_cast<const E*>(value.get())
                                            : nullptr;
  }
  // The envelope in language.md §5's wire form.
  nlohmann::json envelope_json() const;
};

// Names event ids by first appearance: "<id1>", "<id2>", ...
class IdNames {
 public:
  std::string name(const EventId& id);
  std::string name(const std::string& id_text);

 private:
  std::map<std::string, std::string, std::less<>> names_;
};

// Keeps every routed emission of the event types it records, in the order
// the fan-outs routed them (each context's in log order). Thread-safe; it
// may be destroyed before the runtime (the taps then record into storage
// they share, which lives as long as either).
class EventRecorder {
 public:
  EventRecorder();
  // Taps `type` on `rt`: after its contexts are installed and before the
  // first host call or publish (Runtime::tap throws RegistrationError
  // otherwise).
  void record(Runtime& rt, const EventType& type);
  template <class E>
  void record(Runtime& rt) {
    record(rt, herald::event_type<E>());
  }

  std::vector<RecordedEvent> events() const;
  // Those of one event type (qualified name).
  std::vector<RecordedEvent> events(std::string_view event_type) const;
  // The typed payloads of E, in order.
  template <class E>
  std::vector<E> values() const {
    std::vector<E> out;
    for (const RecordedEvent& e : events(herald::event_type<E>().name()))
      out.push_back(*e.get<E>());
    return out;
  }
  std::size_t size() const;
  void clear();

 private:
  struct Store {
    mutable std::mutex mutex;
    std::vector<RecordedEvent> events;
  };
  std::shared_ptr<Store> store_;
};

// A runtime log line with the fields the runtime writes typed. Fields a
// line does not carry are empty; `fields` is the whole line.
// (bugprone-exception-escape is reported for its implicit special members;
// each member, strings, optionals and nlohmann::json, moves without
// throwing.)
struct LogLine {      // NOLINT(bugprone-exception-escape)
  std::string event;  // "delivery.fault", "handler.log", ...
  LogLevel level = LogLevel::info;
  std::string message;
  std::string ts;
  std::string node;
  std::optional<std::string> handler;
  std::optional<std::string> subscription;
  std::optional<std::string> event_type;
  std::optional<EventId> event_id;
  std::optional<EventId> correlation_id;
  std::optional<EventId> causation_id;
  std::optional<EventId> message_id;
  std::optional<std::string> agent;
  std::optional<std::int64_t> attempt;
  std::optional<std::int64_t> next_attempt;
  std::optional<Duration> delay;
  nlohmann::json fields;

  // Throws herald::Error naming the field when `line` lacks "event" or
  // "level", or a field above has the wrong JSON type or form.
  static LogLine parse(const nlohmann::json& line);
};

// The log lines a runtime writes through it (a MemoryLogSink underneath).
class LogCapture final : public LogSink {
 public:
  void write(const nlohmann::json& line) override;
  std::vector<LogLine> lines() const;
  std::vector<LogLine> lines(std::string_view event) const;
  // The raw lines.
  const MemoryLogSink& sink() const { return sink_; }

 private:
  MemoryLogSink sink_;
};

// The log events that report a fault: handler.fault, delivery.fault,
// delivery.store_fault, message.fault, message.dead_letter,
// delivery.dead_letter, publish.fault, tap.fault.
bool is_fault_event(std::string_view event);

// A deterministic executor, a runtime over it whose log goes to a
// LogCapture, and an EventRecorder: the state of one test.
class Harness {
 public:
  struct Options {
    // By default the defaults (the caller's environment is not read).
    std::optional<RuntimeConfig> config;
    std::uint64_t seed = 1;
    // nullptr: the backend config.backend_kind names.
    std::shared_ptr<Backend> backend;
  };
  Harness();
  explicit Harness(Options options);
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;
  ~Harness();

  Runtime& runtime() { return *runtime_; }
  DeterministicExecutor& executor() { return executor_; }
  const LogCapture& logs() const { return logs_; }
  const EventRecorder& recorder() const { return recorder_; }

  // Taps an event type (see EventRecorder::record).
  void record(const EventType& type) { recorder_.record(*runtime_, type); }
  template <class E>
  void record() {
    record(herald::event_type<E>());
  }
  std::vector<RecordedEvent> events() const { return recorder_.events(); }
  template <class E>
  std::vector<E> values() const {
    return recorder_.values<E>();
  }

  // Runs everything runnable and every timer already due; time stands still.
  void run_to_idle() { executor_.run_until_idle(); }
  // Moves virtual time by `d`, firing the timers due on the way (retries).
  void advance(Duration d) { executor_.advance(d); }
  // Runs until no timer is left (at most `horizon` of virtual time).
  void run_all(Duration horizon = std::chrono::hours(24)) {
    executor_.run_all(horizon);
  }
  Instant now() const { return executor_.now(); }

  // The fault lines logged so far (is_fault_event), in order.
  std::vector<LogLine> faults() const;
  std::vector<DeadLetter> dead_letters() { return runtime_->dead_letters(); }
  std::vector<DeadLetter> dead_letters(std::string_view subscription) {
    return runtime_->dead_letters(subscription);
  }
  std::vector<DeadMessage> dead_messages();

  // What the run did, independent of event id values and wall time: the
  // recorded emissions (envelope and payload, ids named by IdNames), the
  // fault lines (event, handler, subscription, eventId, attempt, message)
  // and the dead letters and dead messages. Compare it with a golden file.
  nlohmann::json trace() const;

 private:
  DeterministicExecutor executor_;
  LogCapture logs_;
  EventRecorder recorder_;
  std::unique_ptr<Runtime> runtime_;
};

// The trace of recorded events alone (see Harness::trace), ids named by
// `names`.
nlohmann::json trace_events(const std::vector<RecordedEvent>& events,
                            IdNames& names);

// Compares `actual` with the golden file `path`. With the environment
// variable HERALD_UPDATE_GOLDEN=1 it writes `actual` to `path` instead and
// matches. `message` says what differs (the first differing line, both
// versions) or why the file could not be read or written.
struct GoldenResult {
  bool matched = false;
  bool updated = false;
  std::string message;
};
GoldenResult check_golden(const std::filesystem::path& path,
                          std::string_view actual);

}  // namespace herald::testing
