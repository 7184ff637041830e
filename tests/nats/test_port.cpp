#include "test_port.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace herald::test {
namespace {

// The ports the kernel never hands out on its own: those from 10000 up to
// the first of its ephemeral range (32768 unless configured otherwise).
struct Range {
  int low = 10000;
  int high = 32767;
};

Range free_range() {
  Range range;
  std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
  int first = 0;
  int last = 0;
  if (in >> first >> last && first > range.low + 1000) range.high = first - 1;
  return range;
}

bool bindable(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok =
      ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

// Holds `port` against this machine's other test processes: a Unix socket
// bound to an abstract name made of it, which the kernel frees when the
// socket is closed or its process ends, leaving no file behind. -1 if
// another process holds it.
int hold(int port) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string name = "herald-test-port-" + std::to_string(port);
  // sun_path[0] stays '\0': an abstract name.
  std::memcpy(&addr.sun_path[1], name.data(), name.size());
  const auto length =
      static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), length) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

TestPort::TestPort() {
  const Range range = free_range();
  std::mt19937 pick(std::random_device{}());
  std::uniform_int_distribution<int> ports(range.low, range.high);
  for (int attempt = 0; attempt < 200; ++attempt) {
    const int port = ports(pick);
    const int held = hold(port);
    if (held < 0) continue;
    if (!bindable(port)) {
      ::close(held);
      continue;
    }
    number_ = port;
    lock_ = held;
    return;
  }
  throw std::runtime_error("cannot reserve a free port on 127.0.0.1 in " +
                           std::to_string(range.low) + "-" +
                           std::to_string(range.high));
}

TestPort::~TestPort() { release(); }

TestPort::TestPort(TestPort&& other) noexcept
    : number_(std::exchange(other.number_, 0)),
      lock_(std::exchange(other.lock_, -1)) {}

TestPort& TestPort::operator=(TestPort&& other) noexcept {
  if (this != &other) {
    release();
    number_ = std::exchange(other.number_, 0);
    lock_ = std::exchange(other.lock_, -1);
  }
  return *this;
}

void TestPort::release() {
  if (lock_ >= 0) ::close(lock_);  // frees the abstract name
  lock_ = -1;
  number_ = 0;
}

}  // namespace herald::test
