#include "nats_client.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "herald/errors.hpp"

namespace herald::nats_detail {
namespace {

struct OptionsDeleter {
  void operator()(natsOptions* options) const { natsOptions_Destroy(options); }
};

}  // namespace

std::int64_t to_millis(Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

std::int64_t to_nanos(Duration d) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
}

std::string status_text(natsStatus status) {
  std::string text = natsStatus_GetText(status);
  const char* last = nats_GetLastError(nullptr);
  if (last != nullptr && *last != '\0' && text != last)
    text += fmt::format(" ({})", last);
  return text;
}

void check(natsStatus status, std::string_view what) {
  if (status == NATS_OK) return;
  throw Error(fmt::format("{}: {}", what, status_text(status)));
}

NatsClient::NatsClient(const NatsClientOptions& options)
    : timeout_ms_(to_millis(options.timeout)) {
  natsOptions* raw = nullptr;
  check(natsOptions_Create(&raw), "NATS options");
  const std::unique_ptr<natsOptions, OptionsDeleter> opts(raw);
  std::vector<const char*> urls;
  urls.reserve(options.servers.size());
  for (const std::string& url : options.servers) urls.push_back(url.c_str());
  std::string servers;
  for (const std::string& url : options.servers)
    servers += (servers.empty() ? "" : ",") + url;
  check(natsOptions_SetServers(opts.get(), urls.data(),
                               static_cast<int>(urls.size())),
        fmt::format("backend.nats.servers '{}'", servers));
  check(natsOptions_SetName(opts.get(), options.name.c_str()),
        "NATS connection name");
  check(natsOptions_SetTimeout(opts.get(), to_millis(options.timeout)),
        "backend.nats.timeout");
  // Once connected, a lost connection is retried without end: the node
  // waits for its servers rather than giving up its contexts.
  check(natsOptions_SetMaxReconnect(opts.get(), -1), "NATS reconnects");
  // A server that stops answering (stalled, or cut off) is left for another
  // of backend.nats.servers after two unanswered pings, half the timeout
  // apart: the node's lease renewals must reach a live server well within
  // the lease TTL.
  check(natsOptions_SetPingInterval(
            opts.get(),
            std::max<std::int64_t>(to_millis(options.timeout) / 2, 100)),
        "NATS ping interval");
  check(natsOptions_SetMaxPingsOut(opts.get(), 2), "NATS pings out");
  if (!options.credentials.empty()) {
    check(natsOptions_SetUserCredentialsFromFiles(
              opts.get(), options.credentials.c_str(), nullptr),
          fmt::format("backend.nats.credentials '{}'", options.credentials));
  }
  if (!options.tls_ca.empty()) {
    check(natsOptions_SetSecure(opts.get(), true), "TLS");
    check(natsOptions_LoadCATrustedCertificates(opts.get(),
                                                options.tls_ca.c_str()),
          fmt::format("backend.nats.tls_ca '{}'", options.tls_ca));
  }
  if (!options.tls_cert.empty()) {
    check(natsOptions_LoadCertificatesChain(
              opts.get(), options.tls_cert.c_str(), options.tls_key.c_str()),
          fmt::format("backend.nats.tls_cert '{}' and backend.nats.tls_key "
                      "'{}'",
                      options.tls_cert, options.tls_key));
  }
  check(natsConnection_Connect(&connection_, opts.get()),
        fmt::format("cannot connect to the NATS servers {} "
                    "(backend.nats.servers)",
                    servers));
  jsOptions js_options;
  jsOptions_Init(&js_options);
  js_options.Wait = to_millis(options.timeout);
  const natsStatus status =
      natsConnection_JetStream(&jetstream_, connection_, &js_options);
  if (status != NATS_OK) {
    natsConnection_Destroy(connection_);
    connection_ = nullptr;
    check(status, "JetStream context");
  }
}

NatsClient::~NatsClient() {
  jsCtx_Destroy(jetstream_);
  natsConnection_Destroy(connection_);
}

}  // namespace herald::nats_detail
