#include "lost_delivery.hpp"

#include "commerce_nodes.hpp"
#include <nats/nats.h>

namespace herald::test {

namespace {
const char* const kPaymentFilter = "herald.commerce.order.PaymentConfirmed.*";
}  // namespace

std::uint64_t take_one_delivery(const std::string& url,
                                std::chrono::milliseconds wait) {
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  natsSubscription* sub = nullptr;
  natsMsgList list{};
  std::uint64_t sequence = 0;
  jsSubOptions options;
  jsSubOptions_Init(&options);
  // Bound, as the node binds: the consumer is used as it is.
  options.Stream = kOrderStream;
  options.Consumer = kPaymentConsumer;
  if (natsConnection_ConnectTo(&nc, url.c_str()) == NATS_OK &&
      natsConnection_JetStream(&js, nc, nullptr) == NATS_OK &&
      js_PullSubscribe(&sub, js, kPaymentFilter, kPaymentConsumer, nullptr,
                       &options, nullptr) == NATS_OK &&
      natsSubscription_Fetch(&list, sub, 1, wait.count(), nullptr) == NATS_OK &&
      list.Count == 1) {
    jsMsgMetaData* meta = nullptr;
    if (natsMsg_GetMetaData(&meta, list.Msgs[0]) == NATS_OK)
      sequence = meta->Sequence.Stream;
    jsMsgMetaData_Destroy(meta);
  }
  natsMsgList_Destroy(&list);
  natsSubscription_Destroy(sub);
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  return sequence;
}

}  // namespace herald::test
