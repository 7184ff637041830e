#include "nats_server.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include <nats/nats.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace herald::test {

std::string find_nats_server() {
  const char* path = std::getenv("PATH");
  std::vector<std::string> dirs;
  if (path != nullptr) {
    std::string all = path;
    std::size_t start = 0;
    while (start <= all.size()) {
      const std::size_t colon = all.find(':', start);
      dirs.push_back(all.substr(start, colon - start));
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  dirs.emplace_back("/usr/sbin");
  dirs.emplace_back("/usr/bin");
  for (const std::string& dir : dirs) {
    std::string candidate = dir + "/nats-server";
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return {};
}

NatsServer::NatsServer() : NatsServer(Membership{}) { start(); }

NatsServer::NatsServer(Membership membership)
    : binary_(find_nats_server()), membership_(std::move(membership)) {
  if (binary_.empty()) throw std::runtime_error("nats-server is not installed");
  std::string pattern =
      (std::filesystem::temp_directory_path() / "herald-nats-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("mkdtemp failed");
  store_ = pattern;
  url_ = "nats://127.0.0.1:" + std::to_string(port_.number());
}

NatsServer::~NatsServer() {
  if (pid_ > 0) {
    ::kill(pid_, SIGCONT);  // a paused server would not see the SIGTERM
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  std::error_code ignored;
  std::filesystem::remove_all(store_, ignored);
}

void NatsServer::start() {
  launch();
  wait_ready();
}

void NatsServer::launch() {
  const std::string port = std::to_string(port_.number());
  const std::string log = store_ + "/server.log";
  std::vector<std::string> args = {"nats-server", "-js", "-a",  "127.0.0.1",
                                   "-p",          port,  "-sd", store_,
                                   "-l",          log};
  if (!membership_.server.empty()) {
    std::string routes;
    for (const int route : membership_.routes) {
      routes += routes.empty() ? "" : ",";
      routes += "nats-route://127.0.0.1:" + std::to_string(route);
    }
    const std::vector<std::string> cluster = {
        "--server_name",
        membership_.server,
        "--cluster_name",
        membership_.cluster,
        "--cluster",
        "nats://127.0.0.1:" + std::to_string(membership_.route_port.number()),
        "--routes",
        routes};
    args.insert(args.end(), cluster.begin(), cluster.end());
  }
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // A server outlives no test (a test stopped by its time limit too).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::execv(binary_.c_str(), argv.data());
    ::_exit(127);
  }
  pid_ = pid;
}

void NatsServer::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

void NatsServer::pause() {
  if (pid_ > 0) ::kill(pid_, SIGSTOP);
}

void NatsServer::resume() {
  if (pid_ > 0) ::kill(pid_, SIGCONT);
}

void NatsServer::wait_ready() { wait_until(true); }

void NatsServer::wait_listening() { wait_until(false); }

void NatsServer::wait_until(bool jetstream) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error(
          "nats-server exited at start-up (log: " + store_ + "/server.log)");
    }
    natsConnection* conn = nullptr;
    if (natsConnection_ConnectTo(&conn, url_.c_str()) == NATS_OK) {
      jsCtx* js = nullptr;
      jsAccountInfo* info = nullptr;
      const bool ready =
          !jetstream ||
          (natsConnection_JetStream(&js, conn, nullptr) == NATS_OK &&
           js_GetAccountInfo(&info, js, nullptr, nullptr) == NATS_OK);
      jsAccountInfo_Destroy(info);
      jsCtx_Destroy(js);
      natsConnection_Destroy(conn);
      if (ready) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw std::runtime_error("nats-server did not answer within 15 s on " + url_);
}

}  // namespace herald::test
