#pragma once
// Internal to the nats backend: one connection to the NATS servers and its
// JetStream context, with the options the configuration names. Every call
// into nats.c that can fail goes through check(), which turns its status
// into a herald::Error carrying the library's own text.
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "herald/time.hpp"
#include <nats/nats.h>

namespace herald::nats_detail {

// Owners of what the client's info calls return.
struct StreamInfoDeleter {
  void operator()(jsStreamInfo* info) const { jsStreamInfo_Destroy(info); }
};
struct ConsumerInfoDeleter {
  void operator()(jsConsumerInfo* info) const { jsConsumerInfo_Destroy(info); }
};

struct NatsClientOptions {
  std::vector<std::string> servers;  // URLs
  std::string name;                  // the connection's name on the servers
  Duration timeout = std::chrono::seconds(2);
  std::string credentials;  // a .creds file: user JWT and NKey seed
  std::string tls_ca;       // CA certificates: TLS, servers verified
  std::string tls_cert;     // client certificate chain ...
  std::string tls_key;      // ... and its key
};

// How long a node waits for JetStream to create or read its lease bucket,
// a stream or a consumer: a cluster that is forming, or electing a leader
// (a server lost, on loaded machines for well over 10 s), answers
// "JetStream system temporarily unavailable", or nothing, for a while; a
// node that starts then waits instead of stopping.
inline constexpr Duration kJetStreamPatience = std::chrono::seconds(30);

// A duration in the client's units: milliseconds for timeouts and waits,
// nanoseconds for the durations of stream, consumer and bucket configs.
[[nodiscard]] std::int64_t to_millis(Duration d);
[[nodiscard]] std::int64_t to_nanos(Duration d);

// Throws herald::Error "<what>: <nats.c's status text and last error>"
// unless `status` is NATS_OK.
void check(natsStatus status, std::string_view what);
// The text of `status` and of the library's last error on this thread.
std::string status_text(natsStatus status);

class NatsClient {
 public:
  // Connects (throws herald::Error naming the servers when none answers).
  explicit NatsClient(const NatsClientOptions& options);
  ~NatsClient();
  NatsClient(const NatsClient&) = delete;
  NatsClient& operator=(const NatsClient&) = delete;

  natsConnection* connection() { return connection_; }
  jsCtx* jetstream() { return jetstream_; }
  // backend.nats.timeout, in milliseconds: the bound of every request.
  std::int64_t timeout_ms() const { return timeout_ms_; }

 private:
  std::int64_t timeout_ms_;
  natsConnection* connection_ = nullptr;
  jsCtx* jetstream_ = nullptr;
};

}  // namespace herald::nats_detail
