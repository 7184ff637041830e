#pragma once
// A 127.0.0.1 port reserved for a server a test starts, held until the
// reservation is destroyed.
//
// A port the kernel hands out for a socket bound to port 0 comes from its
// ephemeral range, the range it also gives client connections as their
// local ports: released, it can be taken by any connection on the machine
// before the server binds it, or while a killed server is down. And two
// test processes asking at once can be handed the same port, one after the
// other. So a reservation picks at random below the ephemeral range
// (/proc/sys/net/ipv4/ip_local_port_range), which the kernel never hands
// out, holds the port against this machine's other test processes by
// binding a Unix socket to an abstract name made of it ("herald-test-port-"
// and the number; the kernel frees it with the socket, even when the
// process is killed), and takes it only if it can bind the port now.
namespace herald::test {

class TestPort {
 public:
  // Throws std::runtime_error if no port can be reserved (200 attempts).
  TestPort();
  ~TestPort();
  TestPort(TestPort&& other) noexcept;
  TestPort& operator=(TestPort&& other) noexcept;
  TestPort(const TestPort&) = delete;
  TestPort& operator=(const TestPort&) = delete;

  int number() const { return number_; }

 private:
  void release();

  int number_ = 0;
  int lock_ = -1;  // the socket bound to the port's abstract name
};

}  // namespace herald::test
