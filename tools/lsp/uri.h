// `file:` URIs, the way LSP names documents and workspace folders, and the
// absolute paths they stand for.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace herald::lsp {

// The path of a `file:` URI (percent-decoded; an authority other than empty
// or `localhost` is refused), or nothing for any other URI.
[[nodiscard]] std::optional<std::string> uriToPath(std::string_view uri);
// `file://` and the absolute `path`, percent-encoded where RFC 3986 asks.
[[nodiscard]] std::string pathToUri(std::string_view path);

}  // namespace herald::lsp
