#include "tools/heraldc/outputs.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include <unistd.h>

namespace herald::driver {
namespace fs = std::filesystem;

std::optional<std::string> replaceFile(const std::string& path,
                                       std::string_view text) {
  std::error_code ec;
  const fs::perms perms = fs::status(path, ec).permissions();
  if (ec) return ec.message();
  // Same directory, so the rename cannot cross file systems.
  const std::string temp = fmt::format("{}.fmt-{}.tmp", path, getpid());
  std::FILE* out = std::fopen(temp.c_str(), "wb");
  if (out == nullptr) return std::generic_category().message(errno);
  const bool written =
      std::fwrite(text.data(), 1, text.size(), out) == text.size();
  const int writeErrno = errno;
  const bool closed = std::fclose(out) == 0;
  if (!written || !closed) {
    fs::remove(temp, ec);
    return std::generic_category().message(writeErrno != 0 ? writeErrno : EIO);
  }
  fs::permissions(temp, perms, ec);
  fs::rename(temp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return ec.message();
  }
  return std::nullopt;
}

std::optional<std::string> writeFile(const std::string& path,
                                     std::string_view text) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) return std::generic_category().message(errno);
  const bool written =
      std::fwrite(text.data(), 1, text.size(), out) == text.size();
  const int writeErrno = errno;
  const bool closed = std::fclose(out) == 0;
  if (written && closed) return std::nullopt;
  return std::generic_category().message(writeErrno != 0 ? writeErrno : EIO);
}

namespace {

// True when `path` is a regular file holding exactly `text`.
bool holds(const std::string& path, std::string_view text) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) != text.size())
    return false;
  std::ifstream in(path, std::ios::binary);
  std::string current((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
  return current == text;
}

}  // namespace

std::optional<std::string> updateFile(const std::string& path,
                                      std::string_view text) {
  if (holds(path, text)) return std::nullopt;
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) {
    fs::create_directories(parent, ec);
    if (ec) return ec.message();
  }
  // Same directory, so the rename cannot cross file systems; the name ends
  // in neither .h nor .cpp, so no build globbing the directory picks it up.
  const std::string temp = fmt::format("{}.heraldc-{}.tmp", path, getpid());
  if (std::optional<std::string> error = writeFile(temp, text)) {
    fs::remove(temp, ec);
    return error;
  }
  fs::rename(temp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return ec.message();
  }
  return std::nullopt;
}

}  // namespace herald::driver
