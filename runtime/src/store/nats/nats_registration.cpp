// Registers the nats backend with the runtime when this library is linked
// (herald::runtime_nats's target asks the linker for the symbol below, as
// herald::runtime_sqlite's does), and reads its options from the
// configuration.
#include "herald/backend_registry.hpp"
#include "herald/config.hpp"
#include "herald/nats_backend.hpp"

namespace herald {

NatsBackendOptions nats_backend_options(const RuntimeConfig& config) {
  NatsBackendOptions o;
  o.servers = config_list(config.backend_nats_servers);
  o.node = config.backend_nats_node;
  o.contexts = config_list(config.backend_nats_contexts);
  // load_config admits 1..5.
  o.replicas = static_cast<int>(config.backend_nats_replicas);
  o.lease_ttl = config.backend_nats_lease_ttl;
  o.stream_max_age = config.backend_nats_stream_max_age;
  o.stream_max_bytes = config.backend_nats_stream_max_bytes;
  o.timeout = config.backend_nats_timeout;
  o.credentials = config.backend_nats_credentials;
  o.tls_ca = config.backend_nats_tls_ca;
  o.tls_cert = config.backend_nats_tls_cert;
  o.tls_key = config.backend_nats_tls_key;
  return o;
}

namespace {

std::unique_ptr<Backend> make_from_config(const RuntimeConfig& config,
                                          bool /*concurrent*/) {
  return make_nats_backend(nats_backend_options(config),
                           sqlite_backend_options(config));
}

}  // namespace
}  // namespace herald

extern "C" const bool herald_runtime_nats_registered = herald::register_backend(
    herald::BackendKind::nats, &herald::make_from_config);
