#include "context_leases.hpp"

#include <algorithm>
#include <memory>
#include <thread>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "herald/id_source.hpp"
#include "nats_client.hpp"

namespace herald::nats_detail {
namespace {

struct EntryDeleter {
  void operator()(kvEntry* entry) const { kvEntry_Destroy(entry); }
};
using Entry = std::unique_ptr<kvEntry, EntryDeleter>;

struct StatusDeleter {
  void operator()(kvStatus* status) const { kvStatus_Destroy(status); }
};

std::string value_of(kvEntry* entry) {
  const char* data = static_cast<const char*>(kvEntry_Value(entry));
  const int length = kvEntry_ValueLen(entry);
  if (data == nullptr || length <= 0) return {};
  return {data, static_cast<std::size_t>(length)};
}

}  // namespace

ContextLeases::ContextLeases(NatsClient& client, LeaseOptions options)
    : options_(std::move(options)),
      self_{options_.node, new_event_id().str(), default_node_id()},
      value_(encode_lease(self_)) {
  const std::unique_ptr<kvStatus, StatusDeleter> bucket(open(client));
  const std::int64_t ttl = kvStatus_TTL(bucket.get());
  const std::int64_t replicas = kvStatus_Replicas(bucket.get());
  std::string mismatch;
  if (ttl != to_nanos(options_.ttl)) {
    mismatch =
        fmt::format("its lease TTL is {} but backend.nats.lease_ttl is {}",
                    format_duration(std::chrono::nanoseconds(ttl)),
                    format_duration(options_.ttl));
  } else if (replicas != options_.replicas) {
    mismatch = fmt::format("it has {} replicas but backend.nats.replicas is {}",
                           replicas, options_.replicas);
  }
  if (!mismatch.empty()) {
    kvStore_Destroy(kv_);
    throw ConfigError(fmt::format(
        "the JetStream bucket {} exists and {}: every node of a cluster "
        "must be configured alike (the bucket is never changed silently; "
        "to change it, stop every node and delete the bucket)",
        options_.bucket, mismatch));
  }
}

kvStatus* ContextLeases::open(NatsClient& client) {
  // Rounds for at most kJetStreamPatience (or the lease TTL, if longer): a
  // bucket another node has just created on a cluster is found, and
  // reports its settings, only once its replicas have a leader, and a
  // cluster electing a leader answers nothing for a while.
  const Clock::time_point until =
      Clock::now() +
      std::max<Clock::duration>(options_.ttl, kJetStreamPatience);
  std::string failed;
  for (int round = 0;; ++round) {
    if (round > 0) {
      if (Clock::now() >= until) break;
      std::this_thread::sleep_for(
          std::chrono::milliseconds(std::min(25 * round, 250)));
    }
    natsStatus status =
        js_KeyValue(&kv_, client.jetstream(), options_.bucket.c_str());
    if (status == NATS_NOT_FOUND) {
      kvConfig config;
      kvConfig_Init(&config);
      config.Bucket = options_.bucket.c_str();
      config.Description = "Herald: which node hosts each context";
      config.History = 1;
      config.TTL = to_nanos(options_.ttl);
      config.StorageType = js_FileStorage;
      config.Replicas = options_.replicas;
      status = js_CreateKeyValue(&kv_, client.jetstream(), &config);
      // Another node created it meanwhile (with other settings: the
      // caller's check says which).
      if (status != NATS_OK)
        status = js_KeyValue(&kv_, client.jetstream(), options_.bucket.c_str());
    }
    if (status != NATS_OK) {
      failed = fmt::format("opening the JetStream key-value bucket {}: {}",
                           options_.bucket, status_text(status));
      continue;
    }
    kvStatus* settings = nullptr;
    status = kvStore_Status(&settings, kv_);
    if (status == NATS_OK) return settings;
    kvStore_Destroy(kv_);
    kv_ = nullptr;
    failed = fmt::format("reading the settings of bucket {}: {}",
                         options_.bucket, status_text(status));
  }
  throw Error(failed);
}

ContextLeases::~ContextLeases() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (renewer_.joinable()) renewer_.join();
  // Released by revision: a lease that lapsed and was taken by another
  // node meanwhile has another revision, and stays theirs.
  for (const auto& [context, held] : held_) {
    if (!held.lost.empty()) continue;
    kvStore_Update(nullptr, kv_, context.c_str(), "", 0, held.revision);
  }
  kvStore_Destroy(kv_);
}

std::uint64_t ContextLeases::take(const std::string& context,
                                  Clock::time_point until) {
  std::string last_error;
  // Rounds until `until`: between a refused create and the read of the
  // holder the lease may lapse, or be released, under us; a bucket just
  // created on a cluster answers only once its replicas have a leader
  // (meanwhile a create times out and a read may come back empty); and a
  // stalled server is left for another once the client sees it stalled.
  for (int round = 0;; ++round) {
    if (round > 0) {
      if (Clock::now() >= until || stopping()) break;
      std::this_thread::sleep_for(
          std::chrono::milliseconds(std::min(25 * round, 250)));
    }
    std::uint64_t revision = 0;
    natsStatus status =
        kvStore_Create(&revision, kv_, context.c_str(), value_.data(),
                       static_cast<int>(value_.size()));
    if (status == NATS_OK) return revision;
    last_error = status_text(status);
    kvEntry* raw = nullptr;
    status = kvStore_Get(&raw, kv_, context.c_str());
    const Entry entry(raw);
    if (status == NATS_NOT_FOUND) continue;
    if (status != NATS_OK) {
      last_error =
          fmt::format("{}; reading it: {}", last_error, status_text(status));
      continue;
    }
    std::optional<LeaseRecord> holder;
    try {
      holder = decode_lease(value_of(entry.get()));
    } catch (const Error& e) {
      throw Error(fmt::format("the lease of context '{}' in bucket {}: {}",
                              context, options_.bucket, e.what()));
    }
    // Free (released), or this node's own from an earlier process of it
    // (a restart after a crash need not wait for the TTL).
    if (!holder || holder->node == self_.node) {
      status = kvStore_Update(&revision, kv_, context.c_str(), value_.data(),
                              static_cast<int>(value_.size()),
                              kvEntry_Revision(entry.get()));
      if (status == NATS_OK) return revision;
      last_error = status_text(status);
      continue;
    }
    throw OwnershipError(fmt::format(
        "context '{}' is hosted by node '{}' (process {}): node '{}' cannot "
        "host it too. Its lease (JetStream bucket {}) lapses only after "
        "backend.nats.lease_ttl = {} without renewal; stop node '{}' or take "
        "'{}' out of this node's backend.nats.contexts",
        context, holder->node, holder->process, self_.node, options_.bucket,
        format_duration(options_.ttl), holder->node, context));
  }
  throw Error(
      fmt::format("cannot take the lease of context '{}' in bucket "
                  "{}: {}",
                  context, options_.bucket, last_error));
}

bool ContextLeases::stopping() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

void ContextLeases::acquire(const std::string& context) {
  const Clock::time_point start = Clock::now();
  const std::uint64_t revision = take(context, start + options_.ttl);
  std::lock_guard lock(mutex_);
  held_[context] = Held{revision, start + options_.ttl, {}, {}};
}

void ContextLeases::start_renewal() {
  renewer_ = std::thread([this] { renew_loop(); });
}

void ContextLeases::renew_loop() {
  const auto interval = options_.ttl / 3;
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval, [this] { return stopping_; })) {
    std::vector<std::tuple<std::string, std::uint64_t, Clock::time_point>> due;
    for (const auto& [context, held] : held_) {
      if (held.lost.empty())
        due.emplace_back(context, held.revision, held.valid_until);
    }
    lock.unlock();
    for (const auto& [context, revision, valid_until] : due)
      renew(context, revision, valid_until);
    lock.lock();
  }
}

void ContextLeases::renew(const std::string& context, std::uint64_t revision,
                          Clock::time_point valid_until) {
  const Clock::time_point start = Clock::now();
  std::uint64_t next = 0;
  std::string error;
  std::string lost;
  natsStatus status = kvStore_Update(&next, kv_, context.c_str(), value_.data(),
                                     static_cast<int>(value_.size()), revision);
  if (status != NATS_OK) {
    // Not renewed at that revision: the lease lapsed (the server dropped
    // it), the reply was lost, or the server stalled. take() tells which,
    // trying again until the lease would lapse: free or still ours, it is
    // taken again; another node's, it is lost.
    error = status_text(status);
    try {
      next = take(context, std::max(valid_until, Clock::now()));
      status = NATS_OK;
    } catch (const OwnershipError& e) {
      lost = e.what();
    } catch (const Error& e) {
      error = e.what();
    }
  }
  std::lock_guard lock(mutex_);
  Held& held = held_[context];
  if (!lost.empty()) {
    held.lost = std::move(lost);
  } else if (status == NATS_OK) {
    held.revision = next;
    held.valid_until = start + options_.ttl;
    held.last_error.clear();
  } else {
    held.last_error = std::move(error);
  }
}

void ContextLeases::check_held() const {
  const Clock::time_point now = Clock::now();
  std::lock_guard lock(mutex_);
  for (const auto& [context, held] : held_) {
    if (!held.lost.empty()) {
      throw Unavailable(
          fmt::format("node '{}' lost the lease of context '{}': {}",
                      self_.node, context, held.lost));
    }
    if (now >= held.valid_until) {
      throw Unavailable(fmt::format(
          "the lease of context '{}' held by node '{}' lapsed: not renewed "
          "within backend.nats.lease_ttl = {}{}",
          context, self_.node, format_duration(options_.ttl),
          held.last_error.empty()
              ? std::string()
              : fmt::format(" (last renewal: {})", held.last_error)));
    }
  }
}

std::optional<LeaseRecord> ContextLeases::holder(const std::string& context) {
  kvEntry* raw = nullptr;
  const natsStatus status = kvStore_Get(&raw, kv_, context.c_str());
  const Entry entry(raw);
  if (status == NATS_NOT_FOUND) return std::nullopt;
  check(status, fmt::format("reading the lease of context '{}'", context));
  return decode_lease(value_of(entry.get()));
}

}  // namespace herald::nats_detail
