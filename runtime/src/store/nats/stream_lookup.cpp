#include "stream_lookup.hpp"

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "herald/errors.hpp"
#include "nats_client.hpp"
#include "stream_message.hpp"

namespace herald::nats_detail {

std::optional<std::uint64_t> next_matching(NatsClient& client,
                                           std::string_view stream,
                                           std::string_view filter,
                                           std::uint64_t from) {
  const std::string subject = fmt::format("$JS.API.STREAM.MSG.GET.{}", stream);
  const std::string request =
      nlohmann::json{{"seq", from}, {"next_by_subj", filter}}.dump();
  natsMsg* raw = nullptr;
  check(natsConnection_Request(&raw, client.connection(), subject.c_str(),
                               request.data(), static_cast<int>(request.size()),
                               client.timeout_ms()),
        fmt::format("reading stream {}", stream));
  const MsgPtr reply(raw);
  const auto answer = nlohmann::json::parse(
      std::string_view(natsMsg_GetData(raw),
                       static_cast<std::size_t>(natsMsg_GetDataLength(raw))),
      nullptr, /*allow_exceptions=*/false);
  if (answer.is_discarded() || !answer.is_object())
    throw Error(
        fmt::format("reading stream {}: an answer that is not JSON", stream));
  if (answer.contains("error")) {
    const auto& error = answer.at("error");
    if (error.value("code", 0) == 404) return std::nullopt;  // none
    throw Error(fmt::format("reading stream {}: {}", stream,
                            error.value("description", "")));
  }
  try {
    return answer.at("message").at("seq").get<std::uint64_t>();
  } catch (const nlohmann::json::exception&) {
    throw Error(fmt::format(
        "reading stream {}: an answer without the message's sequence", stream));
  }
}

}  // namespace herald::nats_detail
