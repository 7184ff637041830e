#include "stream_probe.hpp"

#include <algorithm>
#include <memory>
#include <string_view>

#include <fmt/format.h>

#include <nats/nats.h>

namespace torture {
namespace {

// One connection to the servers, for a probe's few requests.
class Probe {
 public:
  explicit Probe(const std::string& urls) {
    std::vector<std::string> list;
    std::size_t start = 0;
    while (start <= urls.size()) {
      const std::size_t comma = urls.find(',', start);
      list.push_back(urls.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    std::vector<const char*> raw;
    raw.reserve(list.size());
    for (const std::string& url : list) raw.push_back(url.c_str());
    status_ = natsOptions_Create(&options_);
    if (status_ == NATS_OK)
      status_ = natsOptions_SetServers(options_, raw.data(),
                                       static_cast<int>(raw.size()));
    if (status_ == NATS_OK) status_ = natsOptions_SetTimeout(options_, 2000);
    if (status_ == NATS_OK) status_ = natsConnection_Connect(&nc_, options_);
    if (status_ == NATS_OK)
      status_ = natsConnection_JetStream(&js_, nc_, nullptr);
  }
  ~Probe() {
    jsCtx_Destroy(js_);
    natsConnection_Destroy(nc_);
    natsOptions_Destroy(options_);
  }
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  bool ok() const { return status_ == NATS_OK; }
  std::string error() const { return natsStatus_GetText(status_); }
  jsCtx* js() { return js_; }

 private:
  natsOptions* options_ = nullptr;
  natsConnection* nc_ = nullptr;
  jsCtx* js_ = nullptr;
  natsStatus status_ = NATS_OK;
};

struct MsgDeleter {
  void operator()(natsMsg* m) const { natsMsg_Destroy(m); }
};
using Msg = std::unique_ptr<natsMsg, MsgDeleter>;

std::string header(natsMsg* msg, const char* name) {
  const char* value = nullptr;
  if (natsMsgHeader_Get(msg, name, &value) != NATS_OK || value == nullptr)
    return "";
  return value;
}

std::int64_t position_of(natsMsg* msg) {
  const std::string text = header(msg, "Herald-Position");
  try {
    return text.empty() ? -1 : std::stoll(text);
  } catch (const std::exception&) {
    return -1;
  }
}

// The stream's first and last sequence; false if it cannot be read (an
// absent stream reads as empty).
bool bounds(Probe& probe, const std::string& stream, std::uint64_t& first,
            std::uint64_t& last, std::string& error) {
  jsStreamInfo* info = nullptr;
  jsErrCode code{};
  const natsStatus s =
      js_GetStreamInfo(&info, probe.js(), stream.c_str(), nullptr, &code);
  if (s == NATS_NOT_FOUND || code == JSStreamNotFoundErr) {
    first = 1;
    last = 0;
    return true;
  }
  if (s != NATS_OK) {
    error = fmt::format("stream {}: {}", stream, natsStatus_GetText(s));
    return false;
  }
  first = info->State.FirstSeq;
  last = info->State.Msgs == 0 ? 0 : info->State.LastSeq;
  jsStreamInfo_Destroy(info);
  return true;
}

}  // namespace

std::string stream_of(const std::string& context) {
  std::string name = "HERALD_" + context;
  std::replace(name.begin() + 7, name.end(), '.', '-');
  return name;
}

std::int64_t last_position(const std::string& urls, const std::string& stream) {
  Probe probe(urls);
  if (!probe.ok()) return -1;
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  std::string error;
  if (!bounds(probe, stream, first, last, error)) return -1;
  if (last == 0) return 0;
  natsMsg* raw = nullptr;
  if (js_GetMsg(&raw, probe.js(), stream.c_str(), last, nullptr, nullptr) !=
      NATS_OK)
    return -1;
  const Msg msg(raw);
  return position_of(msg.get());
}

StreamContent read_stream(const std::string& urls, const std::string& stream) {
  StreamContent out;
  Probe probe(urls);
  if (!probe.ok()) {
    out.error = probe.error();
    return out;
  }
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  if (!bounds(probe, stream, first, last, out.error)) return out;
  for (std::uint64_t seq = first; seq <= last && last > 0; ++seq) {
    natsMsg* raw = nullptr;
    jsErrCode code{};
    const natsStatus s =
        js_GetMsg(&raw, probe.js(), stream.c_str(), seq, nullptr, &code);
    if (s == NATS_NOT_FOUND || code == JSNoMessageFoundErr) continue;
    if (s != NATS_OK) {
      out.error = fmt::format("message {} of {}: {}", seq, stream,
                              natsStatus_GetText(s));
      return out;
    }
    const Msg msg(raw);
    out.positions.push_back(position_of(msg.get()));
    out.ids.push_back(header(msg.get(), "Nats-Msg-Id"));
  }
  return out;
}

}  // namespace torture
