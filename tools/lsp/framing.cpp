#include "tools/lsp/framing.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <optional>

#include <fmt/format.h>

#include <poll.h>
#include <unistd.h>

namespace herald::lsp {
namespace {

// Longer header blocks are not a client's: LSP sends one or two short lines.
constexpr std::size_t kMaxHeaderBytes = 8192;
constexpr std::string_view kHeaderEnd = "\r\n\r\n";
constexpr std::size_t kReadChunk = 65536;

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) {
      return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// The Content-Length of a header block (without its final blank line), or
// nothing when it has none or an unreadable one. Other fields
// (Content-Type) are allowed and ignored.
std::optional<std::uint64_t> contentLength(std::string_view headers) {
  std::optional<std::uint64_t> length;
  while (!headers.empty()) {
    std::size_t eol = headers.find("\r\n");
    std::string_view line = headers.substr(0, eol);
    headers = eol == std::string_view::npos ? std::string_view()
                                            : headers.substr(eol + 2);
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    if (!equalsIgnoringCase(trim(line.substr(0, colon)), "content-length"))
      continue;
    std::string_view value = trim(line.substr(colon + 1));
    std::uint64_t parsed = 0;
    auto [end, error] =
        std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (error != std::errc() || end != value.data() + value.size() ||
        value.empty())
      return std::nullopt;
    length = parsed;
  }
  return length;
}

}  // namespace

MessageReader::MessageReader(int fd, std::size_t maxBytes)
    : fd_(fd), maxBytes_(maxBytes) {}

bool MessageReader::fill() {
  char chunk[kReadChunk];
  while (true) {
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    return false;
  }
}

bool MessageReader::skip(std::size_t count) {
  while (true) {
    std::size_t taken = std::min(count, buffer_.size());
    buffer_.erase(0, taken);
    count -= taken;
    if (count == 0) return true;
    if (!fill()) return false;
  }
}

ReadResult MessageReader::next() {
  std::size_t end = 0;
  while ((end = buffer_.find(kHeaderEnd)) == std::string::npos) {
    if (buffer_.size() > kMaxHeaderBytes) {
      // No header ends here: drop what came and start afresh with what
      // comes next.
      buffer_.clear();
      return {ReadStatus::BadFrame,
              fmt::format("no end of header within {} bytes", kMaxHeaderBytes)};
    }
    if (!fill()) {
      buffer_.clear();
      return {ReadStatus::End, {}};
    }
  }
  std::optional<std::uint64_t> length =
      contentLength(std::string_view(buffer_).substr(0, end));
  buffer_.erase(0, end + kHeaderEnd.size());
  if (!length)
    return {ReadStatus::BadFrame, "a header without a valid Content-Length"};
  if (*length > maxBytes_) {
    std::string what =
        fmt::format("a message of {} bytes is over the limit of {} bytes",
                    *length, maxBytes_);
    if (!skip(static_cast<std::size_t>(*length))) return {ReadStatus::End, {}};
    return {ReadStatus::TooLarge, std::move(what)};
  }
  auto size = static_cast<std::size_t>(*length);
  while (buffer_.size() < size) {
    if (!fill()) {
      buffer_.clear();
      return {ReadStatus::End, {}};
    }
  }
  ReadResult result{ReadStatus::Message, buffer_.substr(0, size)};
  buffer_.erase(0, size);
  return result;
}

bool MessageReader::pending() const {
  if (!buffer_.empty()) return true;
  pollfd ready{fd_, POLLIN, 0};
  return ::poll(&ready, 1, 0) > 0;
}

bool writeMessage(int fd, std::string_view body) {
  std::string message =
      fmt::format("Content-Length: {}\r\n\r\n{}", body.size(), body);
  std::string_view rest = message;
  while (!rest.empty()) {
    ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace herald::lsp
