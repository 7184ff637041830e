#include "tools/lsp/client/client.h"

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace herald::lsp::client {
namespace {

using Clock = std::chrono::steady_clock;

void writeAll(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("cannot write to the server");
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

Client::Client(std::vector<std::string> command) {
  if (command.empty()) throw std::invalid_argument("no server command");
  int toServer[2];
  int fromServer[2];
  if (::pipe(toServer) != 0 || ::pipe(fromServer) != 0)
    throw std::runtime_error("pipe failed");
  std::vector<std::string> args = std::move(command);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::dup2(toServer[0], STDIN_FILENO);
    ::dup2(fromServer[1], STDOUT_FILENO);
    ::close(toServer[0]);
    ::close(toServer[1]);
    ::close(fromServer[0]);
    ::close(fromServer[1]);
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(toServer[0]);
  ::close(fromServer[1]);
  in_ = toServer[1];
  out_ = fromServer[0];
  // The test must not die of SIGPIPE when a server it expects alive is not.
  (void)::signal(SIGPIPE, SIG_IGN);
}

Client::~Client() {
  if (in_ >= 0) ::close(in_);
  if (!status_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    (void)::waitpid(pid_, &status, 0);
  }
  if (out_ >= 0) ::close(out_);
}

void Client::sendRaw(const std::string& bytes) { writeAll(in_, bytes); }

void Client::send(const Json& message) {
  std::string body = message.dump();
  sendRaw("Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
}

void Client::notify(const std::string& method, Json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

Json Client::request(const std::string& method, Json params,
                     std::chrono::milliseconds timeout) {
  int id = nextId_++;
  send({{"jsonrpc", "2.0"},
        {"id", id},
        {"method", method},
        {"params", std::move(params)}});
  auto deadline = Clock::now() + timeout;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    std::optional<Json> message = next(left);
    if (!message)
      throw std::runtime_error("no response to '" + method + "' in time");
    if (message->contains("id") && (*message)["id"] == id &&
        !message->contains("method"))
      return *message;
    kept_.push_back(std::move(*message));
  }
}

Json Client::initialize(const std::string& root,
                        std::chrono::milliseconds timeout) {
  Json result = request(
      "initialize",
      {{"processId", nullptr},
       {"rootUri", fileUri(root)},
       {"capabilities", Json::object()},
       {"workspaceFolders", {{{"uri", fileUri(root)}, {"name", "test"}}}}},
      timeout);
  notify("initialized", Json::object());
  return result;
}

bool Client::fill(Clock::time_point deadline) {
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd ready{out_, POLLIN, 0};
    int n = ::poll(&ready, 1, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    char chunk[65536];
    ssize_t got = ::read(out_, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(got));
    return true;
  }
}

std::optional<Json> Client::next(std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  while (true) {
    std::size_t end = buffer_.find("\r\n\r\n");
    if (end != std::string::npos) {
      std::string header = buffer_.substr(0, end);
      const std::string field = "Content-Length: ";
      if (header.rfind(field, 0) != 0)
        throw std::runtime_error("bad header from the server: " + header);
      std::size_t length = std::stoul(header.substr(field.size()));
      if (buffer_.size() >= end + 4 + length) {
        Json message = Json::parse(buffer_.substr(end + 4, length));
        buffer_.erase(0, end + 4 + length);
        return message;
      }
    }
    if (!fill(deadline)) return std::nullopt;
  }
}

std::optional<Json> Client::waitNotification(
    const std::string& method, const std::function<bool(const Json&)>& match,
    std::chrono::milliseconds timeout) {
  auto matches = [&](const Json& m) {
    return m.value("method", "") == method && (!match || match(m));
  };
  while (!kept_.empty()) {
    Json m = std::move(kept_.front());
    kept_.pop_front();
    if (matches(m)) return m;
  }
  auto deadline = Clock::now() + timeout;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    std::optional<Json> message = next(left);
    if (!message) return std::nullopt;
    if (matches(*message)) return message;
  }
}

void Client::closeInput() {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

std::optional<int> Client::waitExit(std::chrono::milliseconds timeout) {
  if (status_) return status_;
  auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    int status = 0;
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      status_ =
          WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return status_;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

std::string fileUri(const std::string& path) { return "file://" + path; }

}  // namespace herald::lsp::client
