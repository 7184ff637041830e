#include "nats_server.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <nats/nats.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace herald::test {
namespace {

// A port nothing listens on now: the kernel's choice for a socket bound to
// port 0, released at once.
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket() failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot find a free port on 127.0.0.1");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace

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

NatsServer::NatsServer() : binary_(find_nats_server()), port_(free_port()) {
  if (binary_.empty()) throw std::runtime_error("nats-server is not installed");
  std::string pattern =
      (std::filesystem::temp_directory_path() / "herald-nats-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("mkdtemp failed");
  store_ = pattern;
  url_ = "nats://127.0.0.1:" + std::to_string(port_);
  start();
}

NatsServer::~NatsServer() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  std::error_code ignored;
  std::filesystem::remove_all(store_, ignored);
}

void NatsServer::start() {
  const std::string port = std::to_string(port_);
  const std::string log = store_ + "/server.log";
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::execl(binary_.c_str(), "nats-server", "-js", "-a", "127.0.0.1", "-p",
            port.c_str(), "-sd", store_.c_str(), "-l", log.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  pid_ = pid;
  wait_ready();
}

void NatsServer::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

void NatsServer::wait_ready() {
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
      bool ready = natsConnection_JetStream(&js, conn, nullptr) == NATS_OK &&
                   js_GetAccountInfo(&info, js, nullptr, nullptr) == NATS_OK;
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
