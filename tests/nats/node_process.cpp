#include "node_process.hpp"

#include <csignal>
#include <cstdio>
#include <exception>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "commerce/order.h"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/service.hpp"
#include "herald/threaded_executor.hpp"
#include "nats_server.hpp"
#include <nats/nats.h>
#include <sys/wait.h>
#include <unistd.h>

namespace herald::test {

using namespace std::chrono_literals;

RuntimeConfig node_config(const NatsServer& server, const std::string& node,
                          const std::string& context,
                          const std::string& database) {
  ConfigSources sources;
  sources.settings = {{"backend.kind", "nats"},
                      {"backend.sqlite.path", database},
                      {"backend.nats.servers", server.url()},
                      {"backend.nats.node", node},
                      {"backend.nats.contexts", context},
                      {"backend.sqlite.synchronous", "normal"}};
  sources.environment = std::map<std::string, std::string>{};
  return load_config(sources);
}

pid_t spawn(const std::function<int()>& body) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  int code = 1;
  try {
    code = body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "node process: %s\n", e.what());
  }
  std::fflush(nullptr);
  ::_exit(code);
}

int wait_for(pid_t pid, std::chrono::seconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (std::chrono::steady_clock::now() < until) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(20ms);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

void stop(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

int orders_node(const RuntimeConfig& config, int from, int to,
                std::chrono::milliseconds pause, const std::string& user) {
  using commerce::order::OrderId;
  using commerce::order::UserId;
  ThreadedExecutor executor(2);
  MemoryLogSink log;
  Runtime rt(config, executor, nullptr, &log);
  rt.install(commerce::order::context());
  rt.recover();
  auto payments = commerce::order::Payments::in(rt);
  for (int i = from; i <= to; ++i) {
    payments.confirmExternal(OrderId::from_raw(fmt::format("o-{}", i)),
                             UserId::from_raw(user), i);
    if (pause > 0ms) std::this_thread::sleep_for(pause);
  }
  for (;;) std::this_thread::sleep_for(1s);
}

std::int64_t stream_messages(const std::string& url,
                             const std::string& stream) {
  natsConnection* nc = nullptr;
  if (natsConnection_ConnectTo(&nc, url.c_str()) != NATS_OK) return -1;
  jsCtx* js = nullptr;
  std::int64_t count = -1;
  jsStreamInfo* info = nullptr;
  if (natsConnection_JetStream(&js, nc, nullptr) == NATS_OK &&
      js_GetStreamInfo(&info, js, stream.c_str(), nullptr, nullptr) ==
          NATS_OK) {
    count = static_cast<std::int64_t>(info->State.Msgs);
    jsStreamInfo_Destroy(info);
  }
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  return count;
}

}  // namespace herald::test
