#include "ingest_sinks.hpp"

#include <chrono>

#include "stream_message.hpp"

namespace herald::nats_detail {

namespace {

// Decodes each message with `decode`; those whose headers do not decode go
// to `rejected` instead.
template <class T, class Decode>
std::vector<T> decode_all(const std::vector<natsMsg*>& messages,
                          std::vector<Rejection>& rejected, Decode decode) {
  std::vector<T> decoded;
  decoded.reserve(messages.size());
  for (natsMsg* msg : messages) {
    try {
      decoded.push_back(decode(msg));
    } catch (const MalformedMessage& e) {
      rejected.push_back(Rejection{msg, e.what()});
    }
  }
  return decoded;
}

}  // namespace

std::vector<Rejection> MirrorSink::append(const std::vector<natsMsg*>& messages,
                                          std::string_view mark,
                                          std::int64_t reached) {
  std::vector<Rejection> rejected;
  const auto events =
      decode_all<MirroredEvent>(messages, rejected, &mirrored_event);
  store_.append_mirrored(mirror_, events, mark, reached);
  return rejected;
}

std::vector<Rejection> ReceivedMessages::append(
    const std::vector<natsMsg*>& messages, std::string_view mark,
    std::int64_t reached) {
  std::vector<Rejection> rejected;
  auto received =
      decode_all<AgentMessage>(messages, rejected, &received_message);
  // The ingest's own clock: it stamps the rows and the ids' expiry, as the
  // threaded executor's wall clock does for commits.
  const Instant now(std::chrono::duration_cast<Duration>(
      std::chrono::system_clock::now().time_since_epoch()));
  added_ = store_.append_received(std::move(received), now, now + remember_,
                                  mark, reached);
  return rejected;
}

void ReceivedMessages::appended() noexcept {
  if (!added_.empty()) runtime_.received(added_);
  added_.clear();
}

}  // namespace herald::nats_detail
