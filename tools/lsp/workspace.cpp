#include "tools/lsp/workspace.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>
#include <utility>

#include "tools/lsp/uri.h"

namespace herald::lsp {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

// The `*.herald` files under `folder`, as heraldc finds them in a
// directory given on its command line.
void findSources(const std::string& folder, std::vector<std::string>& out) {
  std::error_code error;
  fs::recursive_directory_iterator it(
      folder, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    const fs::directory_entry& entry = *it;
    std::error_code typeError;
    if (entry.path().extension() == ".herald" &&
        entry.is_regular_file(typeError))
      out.push_back(entry.path().string());
  }
}

}  // namespace

std::string Workspace::key(const std::string& uri) {
  std::optional<std::string> path = uriToPath(uri);
  return path ? *path : uri;
}

void Workspace::setFolders(std::vector<std::string> folders) {
  folders_ = std::move(folders);
}

void Workspace::open(const std::string& uri, std::string text,
                     std::optional<std::int64_t> version) {
  open_[key(uri)] = {uri, std::move(text), version};
}

void Workspace::close(const std::string& uri) { open_.erase(key(uri)); }

bool Workspace::isOpen(const std::string& uri) const {
  return open_.count(key(uri)) != 0;
}

std::optional<std::string> Workspace::text(const std::string& uri) const {
  if (auto it = open_.find(key(uri)); it != open_.end()) return it->second.text;
  std::optional<std::string> path = uriToPath(uri);
  if (!path) return std::nullopt;
  return readFile(*path);
}

std::vector<Document> Workspace::documents() const {
  std::vector<std::string> paths;
  for (const std::string& folder : folders_) findSources(folder, paths);
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());

  std::vector<Document> documents;
  std::map<std::string, Open> unseen = open_;
  for (std::string& path : paths) {
    if (auto it = unseen.find(path); it != unseen.end()) {
      documents.push_back({std::move(it->second.uri), std::move(path),
                           std::move(it->second.text), it->second.version});
      unseen.erase(it);
      continue;
    }
    if (std::optional<std::string> text = readFile(path))
      documents.push_back(
          {pathToUri(path), std::move(path), std::move(*text), std::nullopt});
  }
  for (auto& [path, document] : unseen)
    documents.push_back({std::move(document.uri), path,
                         std::move(document.text), document.version});
  std::sort(
      documents.begin(), documents.end(),
      [](const Document& a, const Document& b) { return a.path < b.path; });
  return documents;
}

}  // namespace herald::lsp
