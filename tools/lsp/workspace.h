// The sources the server sees: every `*.herald` file under the workspace
// folders the client gave, with the client's open documents in place of
// the files on disk (and added when they are not under a folder).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace herald::lsp {

struct Document {
  std::string uri;
  std::string path;  // what the compiler names it
  std::string text;
  // The client's version of an open document (none for a file read from
  // disk, or when the client gave none).
  std::optional<std::int64_t> version;
};

class Workspace {
 public:
  // The folders searched for sources (absolute paths).
  void setFolders(std::vector<std::string> folders);

  // didOpen and didChange (full text), didClose.
  // A document is known by its path when its URI is a `file:` one, so two
  // spellings of one URI are one document; diagnostics name it by the URI
  // the client gave.
  void open(const std::string& uri, std::string text,
            std::optional<std::int64_t> version);
  void close(const std::string& uri);
  [[nodiscard]] bool isOpen(const std::string& uri) const;

  // The text of one document: the open one, else the file on disk.
  [[nodiscard]] std::optional<std::string> text(const std::string& uri) const;

  // Every source of the program, read now, sorted by path: the files found
  // under the folders (an unreadable one is left out) with the open
  // documents overriding them.
  [[nodiscard]] std::vector<Document> documents() const;

 private:
  [[nodiscard]] static std::string key(const std::string& uri);

  struct Open {
    std::string uri;  // as the client spelled it
    std::string text;
    std::optional<std::int64_t> version;
  };
  std::vector<std::string> folders_;
  std::map<std::string, Open> open_;  // by path, or by URI if not a file
};

}  // namespace herald::lsp
