#include "herald/event_type.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace herald {
namespace {

class CountingOutput final
    : public nlohmann::detail::output_adapter_protocol<char> {
 public:
  void write_character(char) override { ++count_; }
  void write_characters(const char*, std::size_t n) override { count_ += n; }
  std::size_t count() const { return count_; }

 private:
  std::size_t count_ = 0;
};

std::uint32_t next_index() {
  static std::atomic<std::uint32_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// Every EventType of the process by qualified name, for decoding what a
// durable store read back names.
struct Registry {
  std::shared_mutex mutex;
  std::map<std::string, const EventType*, std::less<>> by_name;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

const EventType* find_event_type(std::string_view name) {
  Registry& r = registry();
  std::shared_lock lock(r.mutex);
  auto it = r.by_name.find(name);
  return it == r.by_name.end() ? nullptr : it->second;
}

EventType::EventType(std::string owner, std::string name,
                     std::int64_t schema_version,
                     std::optional<std::size_t> max_encoded_bytes,
                     std::unique_ptr<EventCodec> codec)
    : owner_(std::move(owner)),
      name_(std::move(name)),
      schema_version_(schema_version),
      max_encoded_bytes_(max_encoded_bytes),
      codec_(std::move(codec)),
      index_(next_index()) {
  Registry& r = registry();
  std::unique_lock lock(r.mutex);
  r.by_name.insert_or_assign(name_, this);
}

EventType::EventType(
    std::string_view owner, std::string_view name, std::int64_t schema_version,
    std::optional<std::size_t> max_encoded_bytes,
    void (*encode)(nlohmann::json&, const void*),
    std::shared_ptr<const void> (*decode)(const nlohmann::json&))
    : EventType(std::string(owner), std::string(name), schema_version,
                max_encoded_bytes,
                std::make_unique<FunctionEventCodec>(name, encode, decode)) {}

EventType::~EventType() {
  Registry& r = registry();
  std::unique_lock lock(r.mutex);
  auto it = r.by_name.find(name_);
  if (it != r.by_name.end() && it->second == this) r.by_name.erase(it);
}

namespace detail {

std::shared_ptr<const void> own_payload(const void* payload,
                                        void (*destroy)(const void*)) {
  return std::shared_ptr<const void>(payload, destroy);
}

}  // namespace detail

nlohmann::json FunctionEventCodec::encode(const void* payload) const {
  nlohmann::json j;
  encode_(j, payload);
  return j;
}

std::shared_ptr<const void> FunctionEventCodec::decode(
    const nlohmann::json& wire, std::int64_t schema_version) const {
  // A newer version only adds fields with defaults, which this build does
  // not know and ignores (language.md §7).
  if (schema_version < 1) {
    throw std::invalid_argument("schema version " +
                                std::to_string(schema_version) + " of " +
                                std::string(name_) + " is not positive");
  }
  return decode_(wire);
}

std::size_t FunctionEventCodec::encoded_size(const void* payload) const {
  return json_encoded_size(encode(payload));
}

std::size_t json_encoded_size(const nlohmann::json& j) {
  auto counter = std::make_shared<CountingOutput>();
  nlohmann::detail::serializer<nlohmann::json> serializer(counter, ' ');
  serializer.dump(j, false, false, 0);
  return counter->count();
}

}  // namespace herald
