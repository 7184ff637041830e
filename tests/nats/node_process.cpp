#include "node_process.hpp"

#include <csignal>
#include <cstdio>
#include <exception>
#include <map>
#include <thread>
#include <vector>

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

namespace {

std::vector<std::string> split_urls(const std::string& servers) {
  std::vector<std::string> urls;
  std::size_t start = 0;
  while (start <= servers.size()) {
    const std::size_t comma = servers.find(',', start);
    urls.push_back(servers.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return urls;
}

}  // namespace

RuntimeConfig node_config(const std::string& servers, const std::string& node,
                          const std::string& context,
                          const std::string& database, int replicas) {
  ConfigSources sources;
  sources.settings = {{"backend.kind", "nats"},
                      {"backend.sqlite.path", database},
                      {"backend.nats.servers", servers},
                      {"backend.nats.node", node},
                      {"backend.nats.contexts", context},
                      {"backend.nats.replicas", std::to_string(replicas)},
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

std::int64_t stream_messages(const std::string& servers,
                             const std::string& stream) {
  const std::vector<std::string> urls = split_urls(servers);
  std::vector<const char*> raw;
  raw.reserve(urls.size());
  for (const std::string& url : urls) raw.push_back(url.c_str());
  natsOptions* options = nullptr;
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  std::int64_t count = -1;
  if (natsOptions_Create(&options) == NATS_OK &&
      natsOptions_SetServers(options, raw.data(),
                             static_cast<int>(raw.size())) == NATS_OK &&
      natsConnection_Connect(&nc, options) == NATS_OK &&
      natsConnection_JetStream(&js, nc, nullptr) == NATS_OK) {
    jsStreamInfo* info = nullptr;
    if (js_GetStreamInfo(&info, js, stream.c_str(), nullptr, nullptr) ==
        NATS_OK) {
      count = static_cast<std::int64_t>(info->State.Msgs);
      jsStreamInfo_Destroy(info);
    }
  }
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  natsOptions_Destroy(options);
  return count;
}

}  // namespace herald::test
