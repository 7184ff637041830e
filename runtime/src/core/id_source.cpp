#include "herald/id_source.hpp"

#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include <openssl/err.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

namespace herald {
namespace {

// Bytes read from the generator per call. Each call has a fixed cost (on
// the machines measured about 3 us: OpenSSL's fork check, a system call,
// and its lock) besides the bytes' own (about 0.2 ns each): 16 KiB make it
// about 3 ns per id against 8.5 ns with 4 KiB blocks (bench/README.md).
constexpr std::size_t kBlockBytes = 16384;

// One block of random bytes per thread, allocated on the thread's first id
// and refilled when used up. The bytes are never handed out twice: not by
// two threads, and not by a forked child, whose copy of the forking
// thread's block is discarded.
class RandomBlock {
 public:
  void discard() { pos_ = kBlockBytes; }
  // The next sizeof(T) bytes of the block (the rest of a block too short
  // for them is dropped).
  template <class T>
  T next() {
    if (pos_ + sizeof(T) > kBlockBytes) refill();
    T v = 0;
    std::memcpy(&v, bytes_.get() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }

 private:
  void refill();

  std::unique_ptr<unsigned char[]> bytes_;
  std::size_t pos_ = kBlockBytes;
};

thread_local RandomBlock t_block;

// The child of fork() runs on a copy of the forking thread, block included.
void discard_in_child() { t_block.discard(); }

void RandomBlock::refill() {
  // Registered before the first byte is handed out.
  static const int registered =
      ::pthread_atfork(nullptr, nullptr, &discard_in_child);
  (void)registered;
  if (!bytes_)
    bytes_ = std::make_unique_for_overwrite<unsigned char[]>(kBlockBytes);
  // OpenSSL's generator (a NIST SP 800-90A DRBG seeded and reseeded from
  // the kernel, reseeded in a forked child): a third of the kernel's cost
  // per block on the machines measured (bench/README.md).
  if (::RAND_bytes(bytes_.get(), static_cast<int>(kBlockBytes)) != 1) {
    // Without a seeded generator no id can be promised unique.
    std::array<char, 256> reason{};
    ::ERR_error_string_n(::ERR_get_error(), reason.data(), reason.size());
    throw std::runtime_error(
        fmt::format("no random bytes for event ids: {}", reason.data()));
  }
  pos_ = 0;
}

}  // namespace

std::uint64_t secure_random64() { return t_block.next<std::uint64_t>(); }

EventId event_id_v7(std::uint64_t unix_ms, std::uint16_t rand_hi,
                    std::uint64_t rand_lo) {
  // RFC 9562 §5.7: unix_ts_ms (48) | ver 0111 (4) | rand_a (12) |
  // var 10 (2) | rand_b (62).
  const std::uint64_t hi =
      ((unix_ms & 0xFFFFFFFFFFFFull) << 16) | 0x7000u | (rand_hi & 0x0FFFu);
  const std::uint64_t lo =
      (rand_lo & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;
  return EventId(hi, lo);
}

std::uint64_t event_id_unix_ms(const EventId& id) { return id.hi() >> 16; }

EventIdMinter::EventIdMinter() {
  // The wall clock, not the executor's: the deterministic executor's virtual
  // clock starts at the same instant in every run. The coarse clock
  // (updated on the kernel's ticks, so a few milliseconds behind) costs a
  // fifth of the precise one; RFC 9562 lets the timestamp be less precise
  // than a millisecond, and uniqueness rests on the 74 random bits.
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME_COARSE, &now);
  unix_ms_ = static_cast<std::uint64_t>(now.tv_sec) * 1000 +
             static_cast<std::uint64_t>(now.tv_nsec) / 1'000'000;
}

EventId EventIdMinter::next() {
  // 10 bytes of the block per id, of which the layout keeps 74 bits: no
  // more is drawn than an id needs, so the block is refilled less often.
  const auto a = t_block.next<std::uint16_t>();
  const auto b = t_block.next<std::uint64_t>();
  return event_id_v7(unix_ms_, a, b);
}

EventId new_event_id() { return EventIdMinter().next(); }

std::string default_node_id() {
  std::array<char, 256> host{};
  const char* name = ::gethostname(host.data(), host.size() - 1) == 0
                         ? host.data()
                         : "localhost";
  return fmt::format("{}:{}", name, ::getpid());
}

}  // namespace herald
