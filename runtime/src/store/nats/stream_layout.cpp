#include "stream_layout.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "nats_client.hpp"

namespace herald::nats_detail {
namespace {

std::string dashed(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '.', '-');
  return out;
}

void mismatch(std::string_view what, std::string_view setting,
              const std::string& have, const std::string& want) {
  throw ConfigError(fmt::format(
      "{} exists with {} = {}, this node asks for {}: every node must use "
      "the same settings, and an existing one is never changed (delete it "
      "to change it)",
      what, setting, have, want));
}

}  // namespace

StreamSpec event_stream(std::string_view context) {
  return {"HERALD_" + dashed(context), fmt::format("herald.{}.*.*", context)};
}

std::string stream_name(std::string_view context) {
  return event_stream(context).name;
}

std::string event_subject(std::string_view event_type,
                          std::string_view publisher) {
  std::uint32_t hash = 2166136261U;
  for (const char c : publisher) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619U;
  }
  return fmt::format("herald.{}.{}", event_type, hash % kPartitions);
}

std::string event_filter(std::string_view event_type) {
  return fmt::format("herald.{}.*", event_type);
}

std::string consumer_name(std::string_view node, std::string_view event_type) {
  return fmt::format("{}_{}", node, dashed(event_type));
}

ConsumerSpec event_consumer(std::string_view context, std::string_view node,
                            std::string_view event_type) {
  return {stream_name(context), consumer_name(node, event_type),
          event_filter(event_type)};
}

StreamSpec message_stream(std::string_view context) {
  return {"HERALD_MSG_" + dashed(context),
          fmt::format("herald_msg.{}.*", context)};
}

std::string message_subject(std::string_view context, std::string_view node) {
  return fmt::format("herald_msg.{}.{}", context, node);
}

ConsumerSpec message_consumer(std::string_view context, std::string_view node) {
  return {message_stream(context).name, fmt::format("{}_messages", node),
          fmt::format("herald_msg.{}.*", context)};
}

namespace {

// A request that failed is made again (growing pauses, up to 1 s) until
// kJetStreamPatience has passed; an answer that disagrees with the settings is
// read again up to 5 times before it counts: under concurrent requests on
// one connection the client library was seen to misread an answer now
// and then.
template <class Once>
void with_retries(Once&& once) {
  constexpr int kDisagreements = 5;
  const auto until = std::chrono::steady_clock::now() + kJetStreamPatience;
  int disagreements = 0;
  for (int attempt = 1;; ++attempt) {
    try {
      once();
      return;
    } catch (const ConfigError&) {
      if (++disagreements == kDisagreements) throw;
    } catch (const Error&) {
      if (std::chrono::steady_clock::now() >= until) throw;
    }
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::min(100 * attempt, 1000)));
  }
}

void ensure_stream_once(jsCtx* js, const StreamSpec& stream,
                        const StreamSettings& settings) {
  const std::string& name = stream.name;
  const std::string& subjects = stream.subjects;
  const std::string what = fmt::format("stream {}", name);
  jsStreamInfo* raw = nullptr;
  jsErrCode code{};
  natsStatus status = js_GetStreamInfo(&raw, js, name.c_str(), nullptr, &code);
  if (status == NATS_NOT_FOUND || code == JSStreamNotFoundErr) {
    jsStreamConfig config;
    jsStreamConfig_Init(&config);
    config.Name = name.c_str();
    const char* list[] = {subjects.c_str()};
    config.Subjects = list;
    config.SubjectsLen = 1;
    config.Retention = js_LimitsPolicy;
    config.Storage = js_FileStorage;
    config.Discard = js_DiscardNew;
    config.Replicas = settings.replicas;
    config.MaxAge = to_nanos(settings.max_age);
    config.MaxBytes = settings.max_bytes;
    config.Duplicates = to_nanos(settings.duplicates);
    status = js_AddStream(&raw, js, &config, nullptr, &code);
    if (code == JSStreamNameExistErr) {
      // Created by another node meanwhile: checked below.
      status = js_GetStreamInfo(&raw, js, name.c_str(), nullptr, &code);
    }
  }
  check(status, what);
  const std::unique_ptr<jsStreamInfo, StreamInfoDeleter> info(raw);
  const jsStreamConfig& c = *info->Config;
  if (c.SubjectsLen != 1 || subjects != c.Subjects[0]) {
    mismatch(what, "subjects",
             c.SubjectsLen > 0 ? std::string(c.Subjects[0]) : "none", subjects);
  }
  if (c.Retention != js_LimitsPolicy)
    mismatch(what, "retention", "not limits", "limits");
  if (c.Discard != js_DiscardNew) mismatch(what, "discard", "old", "new");
  if (c.Storage != js_FileStorage) mismatch(what, "storage", "memory", "file");
  if (c.Replicas != settings.replicas) {
    mismatch(what, "replicas (backend.nats.replicas)",
             std::to_string(c.Replicas), std::to_string(settings.replicas));
  }
  if (c.MaxAge != to_nanos(settings.max_age)) {
    mismatch(what, "max age (backend.nats.stream_max_age)",
             format_duration(Duration(c.MaxAge)),
             format_duration(settings.max_age));
  }
  if (c.MaxBytes != settings.max_bytes) {
    mismatch(what, "max bytes (backend.nats.stream_max_bytes)",
             std::to_string(c.MaxBytes), std::to_string(settings.max_bytes));
  }
}

void ensure_consumer_once(jsCtx* js, const ConsumerSpec& consumer) {
  const std::string& stream = consumer.stream;
  const std::string& name = consumer.name;
  const std::string& filter = consumer.filter;
  const std::string what =
      fmt::format("consumer {} of stream {}", name, stream);
  jsConsumerInfo* raw = nullptr;
  jsErrCode code{};
  natsStatus status = js_GetConsumerInfo(&raw, js, stream.c_str(), name.c_str(),
                                         nullptr, &code);
  if (status == NATS_NOT_FOUND || code == JSConsumerNotFoundErr) {
    jsConsumerConfig config;
    jsConsumerConfig_Init(&config);
    config.Durable = name.c_str();
    config.DeliverPolicy = js_DeliverAll;
    config.AckPolicy = js_AckExplicit;
    config.AckWait = to_nanos(kAckWait);
    config.MaxDeliver = -1;
    config.FilterSubject = filter.c_str();
    config.MaxAckPending = kMaxAckPending;
    status = js_AddConsumer(&raw, js, stream.c_str(), &config, nullptr, &code);
  }
  check(status, what);
  const std::unique_ptr<jsConsumerInfo, ConsumerInfoDeleter> info(raw);
  const jsConsumerConfig& c = *info->Config;
  if (c.FilterSubject == nullptr || filter != c.FilterSubject) {
    mismatch(what, "filter subject",
             c.FilterSubject != nullptr ? c.FilterSubject : "none", filter);
  }
  if (c.AckPolicy != js_AckExplicit)
    mismatch(what, "ack policy", "not explicit", "explicit");
  if (c.DeliverPolicy != js_DeliverAll)
    mismatch(what, "deliver policy", "not all", "all");
  if (c.AckWait != to_nanos(kAckWait)) {
    mismatch(what, "ack wait", format_duration(Duration(c.AckWait)),
             format_duration(kAckWait));
  }
  if (c.MaxDeliver > 0)
    mismatch(what, "max deliver", std::to_string(c.MaxDeliver), "unlimited");
  if (c.MaxAckPending != kMaxAckPending) {
    mismatch(what, "max ack pending", std::to_string(c.MaxAckPending),
             std::to_string(kMaxAckPending));
  }
}

}  // namespace

void ensure_stream(jsCtx* js, const StreamSpec& stream,
                   const StreamSettings& settings) {
  with_retries([&] { ensure_stream_once(js, stream, settings); });
}

void ensure_consumer(jsCtx* js, const ConsumerSpec& consumer) {
  with_retries([&] { ensure_consumer_once(js, consumer); });
}

}  // namespace herald::nats_detail
