#pragma once
// The storage seam: a local store (herald/local_store.hpp) and a transport
// (herald/transport.hpp). The memory and sqlite backends implement both in
// one object: their transport records live beside the store (in the same
// SQLite database for sqlite) and they publish in process. A broker
// transport sits beside a local store instead (Runtime's constructor takes
// the two apart).
#include <functional>
#include <memory>
#include <string>

#include "herald/local_store.hpp"
#include "herald/transport.hpp"

namespace herald {

class Backend : public LocalStore, public Transport {};

// A backend whose transport publishes in process: every context's log is
// attached with make_local_publication (the memory and sqlite backends).
class LocalBackend : public Backend {
 public:
  std::unique_ptr<Publication> attach(std::string_view context, ContextLog& log,
                                      Router& router,
                                      PublicationOptions options) override;
};

struct MemoryBackendOptions {
  bool concurrent = true;  // false: one thread only, no locking
  // How long a supplied eventId stays known after it was logged: a
  // re-publish within it is stored once (D6).
  Duration dedup_window = std::chrono::hours(24);
  // Called at each CommitPoint of every commit (tests: throw to crash or
  // fail the commit there).
  std::function<void(CommitPoint)> commit_hook;
};

// Nothing durable beyond the process: a restart is a new Runtime over the
// same backend object, which plays the durable store (tests, the
// conformance suite).
std::unique_ptr<Backend> make_memory_backend(MemoryBackendOptions options);

}  // namespace herald
