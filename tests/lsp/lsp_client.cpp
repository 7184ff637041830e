#include "lsp_client.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace herald::lsp::test {
namespace {

std::vector<std::string> command(const std::vector<std::string>& extraArgs) {
  std::vector<std::string> args = {HERALDC, "lsp"};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  return args;
}

}  // namespace

LspClient::LspClient(const std::vector<std::string>& extraArgs)
    : client::Client(command(extraArgs)) {}

TempDir::TempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "herald-lsp-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code error;
  std::filesystem::remove_all(path_, error);
}

std::string TempDir::write(const std::string& name,
                           const std::string& text) const {
  std::filesystem::path file = std::filesystem::path(path_) / name;
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
  return file.string();
}

}  // namespace herald::lsp::test
