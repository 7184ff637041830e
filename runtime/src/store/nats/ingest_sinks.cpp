#include "ingest_sinks.hpp"

#include <chrono>

#include "stream_message.hpp"

namespace herald::nats_detail {

void MirrorSink::append(const std::vector<natsMsg*>& messages,
                        std::string_view mark, std::int64_t reached) {
  std::vector<MirroredEvent> events;
  events.reserve(messages.size());
  for (natsMsg* msg : messages) events.push_back(mirrored_event(msg));
  store_.append_mirrored(mirror_, events, mark, reached);
}

void ReceivedMessages::append(const std::vector<natsMsg*>& messages,
                              std::string_view mark, std::int64_t reached) {
  std::vector<AgentMessage> received;
  received.reserve(messages.size());
  for (natsMsg* msg : messages) received.push_back(received_message(msg));
  // The ingest's own clock: it stamps the rows and the ids' expiry, as the
  // threaded executor's wall clock does for commits.
  const Instant now(std::chrono::duration_cast<Duration>(
      std::chrono::system_clock::now().time_since_epoch()));
  added_ = store_.append_received(std::move(received), now, now + remember_,
                                  mark, reached);
}

void ReceivedMessages::appended() noexcept {
  if (!added_.empty()) runtime_.received(added_);
  added_.clear();
}

}  // namespace herald::nats_detail
