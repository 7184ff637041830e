#include "tools/lsp/uri.h"

#include <fmt/format.h>

namespace herald::lsp {
namespace {

constexpr std::string_view kScheme = "file://";

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool unreserved(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
         c == '~' || c == '/';
}

}  // namespace

std::optional<std::string> uriToPath(std::string_view uri) {
  if (uri.size() < kScheme.size() || uri.substr(0, kScheme.size()) != kScheme)
    return std::nullopt;
  uri.remove_prefix(kScheme.size());
  std::size_t slash = uri.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view authority = uri.substr(0, slash);
  if (!authority.empty() && authority != "localhost") return std::nullopt;
  uri.remove_prefix(slash);
  std::string path;
  path.reserve(uri.size());
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '?' || uri[i] == '#') break;
    if (uri[i] == '%' && i + 2 < uri.size()) {
      int high = hexValue(uri[i + 1]);
      int low = hexValue(uri[i + 2]);
      if (high >= 0 && low >= 0) {
        path.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    path.push_back(uri[i]);
  }
  return path;
}

std::string pathToUri(std::string_view path) {
  std::string uri(kScheme);
  for (char c : path) {
    if (unreserved(c))
      uri.push_back(c);
    else
      uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
  }
  return uri;
}

}  // namespace herald::lsp
