// The base protocol of the Language Server Protocol: messages framed by a
// `Content-Length` header, read from and written to file descriptors.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace herald::lsp {

// What one read of the input yields.
enum class ReadStatus {
  Message,   // `body` holds one message's content
  End,       // the input is closed (or failed) and nothing is left
  TooLarge,  // a message over the size cap: skipped, `body` says how big
  BadFrame,  // a header block without a usable Content-Length: skipped
};

struct ReadResult {
  ReadStatus status = ReadStatus::End;
  std::string body;  // the message, or for an error a description
};

// Reads framed messages from `fd`. A message larger than `maxBytes` is never
// held in memory: its content is read and dropped as it arrives.
class MessageReader {
 public:
  MessageReader(int fd, std::size_t maxBytes);

  // Blocks until a whole message, the end of input, or a framing error.
  [[nodiscard]] ReadResult next();
  // Whether a message has begun to arrive: buffered bytes, or input ready
  // on the descriptor. Used to coalesce work while the client is typing.
  [[nodiscard]] bool pending() const;

 private:
  // Appends what one read(2) returns; false at the end of input.
  bool fill();
  // Reads and drops `count` bytes of content (buffered ones first); false
  // when the input ends first.
  bool skip(std::size_t count);

  int fd_;
  std::size_t maxBytes_;
  std::string buffer_;
};

// Writes one message with its header; false when the output is closed.
[[nodiscard]] bool writeMessage(int fd, std::string_view body);

}  // namespace herald::lsp
