// What a Transport does where a transport has nothing of its own: the
// in-process transports bring no other process's events or messages.
#include "herald/transport.hpp"

namespace herald {

std::unique_ptr<Publication> Transport::attach_mirror(
    std::string_view /*context*/,
    const std::vector<std::string>& /*event_types*/, ContextLog& /*log*/,
    Router& /*router*/, PublicationOptions /*options*/) {
  return nullptr;
}

bool Transport::carries_messages_to(std::string_view /*context*/) {
  return false;
}

void Transport::messages_committed() {}

std::unique_ptr<MessageIntake> Transport::receive_messages(
    const std::vector<std::string>& /*contexts*/, MessageSink& /*sink*/,
    PublicationOptions /*options*/) {
  return nullptr;
}

}  // namespace herald
