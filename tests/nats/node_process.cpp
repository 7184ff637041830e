#include "node_process.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "commerce/order.h"
#include "herald/errors.hpp"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/threaded_executor.hpp"
#include "nats_server.hpp"
#include <fcntl.h>
#include <nats/nats.h>
#include <sys/prctl.h>
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

// The roles, by name; filled before main by the NodeRole objects.
std::map<std::string, NodeMain>& roles() {
  static std::map<std::string, NodeMain> known;
  return known;
}

// The "orders" role: from, to, pause in ms, user.
int orders_node(const NodeSpec& spec, const NodeArgs& args) {
  using commerce::order::OrderId;
  using commerce::order::UserId;
  const int from = int_arg(args, 0);
  const int to = int_arg(args, 1);
  const std::chrono::milliseconds pause(int_arg(args, 2));
  const std::string& user = args.at(3);
  ThreadedExecutor executor(2);
  StderrLogSink log;
  Runtime rt(spec.config(), executor, nullptr, &log);
  rt.install(commerce::order::context());
  rt.recover();
  auto payments = commerce::order::Payments::in(rt);
  for (int i = from; i <= to; ++i) {
    call_through_lapse(
        [&] {
          payments.confirmExternal(OrderId::from_raw(fmt::format("o-{}", i)),
                                   UserId::from_raw(user), i);
        },
        30s);
    if (pause > 0ms) std::this_thread::sleep_for(pause);
  }
  for (;;) std::this_thread::sleep_for(1s);
}

const NodeRole kOrders("orders", &orders_node);

// The fields of a NodeSpec on the command line, in this order.
constexpr int kSpecFields = 5;

}  // namespace

RuntimeConfig NodeSpec::config() const {
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

NodeRole::NodeRole(const char* name, NodeMain main) {
  roles().emplace(name, main);
}

void call_through_lapse(const std::function<void()>& call,
                        std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  for (;;) {
    try {
      call();
      return;
    } catch (const herald::Error&) {
      if (std::chrono::steady_clock::now() >= until) throw;
      std::this_thread::sleep_for(50ms);
    }
  }
}

int int_arg(const NodeArgs& args, std::size_t index) {
  return std::stoi(args.at(index));
}

namespace {

// Which of the child's streams go to its output file.
enum class Redirect { stderr_only, stdout_and_stderr };

// Runs `path` with `words` (argv, its name first) and, ahead of this
// process's environment, `environment`, in a child that dies with the test
// process and appends `redirect`'s streams to `output`. Everything the
// child needs is made before the fork: after it, the child only execs.
pid_t fork_exec(const std::string& path, std::vector<std::string> words,
                const std::vector<std::string>& environment,
                const std::string& output, Redirect redirect) {
  std::vector<char*> argv;
  argv.reserve(words.size() + 1);
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  // Entries given first win over this process's (execve's child takes the
  // first of a name).
  std::vector<std::string> env = environment;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0 || ::dup2(fd, STDERR_FILENO) < 0) ::_exit(126);
  switch (redirect) {
    case Redirect::stderr_only:
      break;
    case Redirect::stdout_and_stderr:
      if (::dup2(fd, STDOUT_FILENO) < 0) ::_exit(126);
      break;
  }
  ::close(fd);
  ::execve(path.c_str(), argv.data(), envp.data());
  ::_exit(127);
}

}  // namespace

pid_t spawn(const std::string& role, const NodeSpec& spec,
            const NodeArgs& args) {
  std::vector<std::string> words = {"herald_nats_tests",
                                    kNodeFlag,
                                    role,
                                    spec.servers,
                                    spec.node,
                                    spec.context,
                                    spec.database,
                                    std::to_string(spec.replicas)};
  words.insert(words.end(), args.begin(), args.end());
  // A node outlives no test: it dies with the test process.
  return fork_exec("/proc/self/exe", std::move(words), {}, node_log(spec),
                   Redirect::stderr_only);
}

pid_t spawn_program(const std::string& path,
                    const std::vector<std::string>& args,
                    const std::vector<std::string>& environment,
                    const std::string& output) {
  std::vector<std::string> words = {path};
  words.insert(words.end(), args.begin(), args.end());
  return fork_exec(path, std::move(words), environment, output,
                   Redirect::stdout_and_stderr);
}

std::string node_log(const NodeSpec& spec) { return spec.database + ".log"; }

std::vector<std::string> node_log_lines(const NodeSpec& spec,
                                        const std::string& event) {
  std::ifstream in(node_log(spec));
  std::vector<std::string> found;
  std::string line;
  const std::string needle = R"("event":")" + event + R"(")";
  while (std::getline(in, line))
    if (line.find(needle) != std::string::npos) found.push_back(line);
  return found;
}

std::string node_log_tail(const NodeSpec& spec, std::size_t lines) {
  std::ifstream in(node_log(spec));
  std::deque<std::string> last;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find(R"("event":"handler.log")") != std::string::npos) continue;
    last.push_back(std::move(line));
    if (last.size() > lines) last.pop_front();
  }
  // The whole log outlives the test's temporary files, for a failure seen
  // once in many runs: a copy in the test's working directory.
  std::error_code error;
  const std::filesystem::path kept =
      std::filesystem::current_path(error) / "failed-node-logs" /
      fmt::format("{}-{}-{}.log", spec.node, ::getpid(),
                  std::chrono::steady_clock::now().time_since_epoch().count());
  std::filesystem::create_directories(kept.parent_path(), error);
  if (!error) std::filesystem::copy_file(node_log(spec), kept, error);
  std::string out = fmt::format(
      "the last lines of {} (the whole log: {}):\n", node_log(spec),
      error ? std::string("not kept, ") + error.message() : kept.string());
  for (const std::string& l : last) out += l + "\n";
  return out;
}

int run_node(int argc, char** argv) {
  if (argc < 3 + kSpecFields) {
    std::fprintf(stderr, "node process: %s ROLE %s expects %d fields\n",
                 kNodeFlag, "SERVERS NODE CONTEXT DATABASE REPLICAS",
                 kSpecFields);
    return 2;
  }
  const auto role = roles().find(argv[2]);
  if (role == roles().end()) {
    std::fprintf(stderr, "node process: no role '%s'\n", argv[2]);
    return 2;
  }
  int code = 1;
  try {
    NodeSpec spec{argv[3], argv[4], argv[5], argv[6], std::stoi(argv[7])};
    const NodeArgs args(argv + 3 + kSpecFields, argv + argc);
    code = role->second(spec, args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "node process (%s): %s\n", argv[2], e.what());
  }
  std::fflush(nullptr);
  return code;
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

pid_t start_orders(const NodeSpec& spec, int from, int to,
                   std::chrono::milliseconds pause, const std::string& user) {
  return spawn("orders", spec,
               {std::to_string(from), std::to_string(to),
                std::to_string(pause.count()), user});
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

std::uint64_t publish_to_stream(const std::string& url, natsMsg* msg) {
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  jsPubAck* ack = nullptr;
  std::uint64_t sequence = 0;
  if (natsConnection_ConnectTo(&nc, url.c_str()) == NATS_OK &&
      natsConnection_JetStream(&js, nc, nullptr) == NATS_OK &&
      js_PublishMsg(&ack, js, msg, nullptr, nullptr) == NATS_OK) {
    sequence = ack->Sequence;
  }
  jsPubAck_Destroy(ack);
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  return sequence;
}

}  // namespace herald::test
