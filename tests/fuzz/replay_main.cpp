// The `main` of a fuzz target outside a libFuzzer build: runs the target
// over every file given, or in a directory given, so that every build
// replays the checked-in corpus as a ctest. Each input runs in a child
// process, so a crash, a sanitizer report or a hang fails that input by
// name and the others still run.
//
//   fuzz_parser [--timeout=SECONDS] PATH...
//
// Ends with `NAME: N passed, M failed`; exits non-zero when an input failed
// or there was none at all (a corpus that went missing must not pass).
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "tests/fuzz/fuzz_target.h"
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct Options {
  unsigned timeoutSeconds = 60;
  std::vector<fs::path> inputs;
};

bool parseOptions(int argc, char** argv, Options& options) {
  constexpr std::string_view kTimeout = "--timeout=";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.substr(0, kTimeout.size()) == kTimeout) {
      const int seconds = std::atoi(argv[i] + kTimeout.size());
      if (seconds <= 0) return false;
      options.timeoutSeconds = static_cast<unsigned>(seconds);
    } else if (arg.substr(0, 1) == "-") {
      return false;
    } else if (fs::is_directory(arg)) {
      std::vector<fs::path> files;
      for (const fs::directory_entry& e : fs::directory_iterator(arg)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());
      options.inputs.insert(options.inputs.end(), files.begin(), files.end());
    } else if (fs::is_regular_file(arg)) {
      options.inputs.emplace_back(arg);
    } else {
      std::fprintf(stderr, "no such file or directory: %s\n", argv[i]);
      return false;
    }
  }
  return true;
}

bool readFile(const fs::path& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  text.assign(std::istreambuf_iterator<char>(in),
              std::istreambuf_iterator<char>());
  return !in.bad();
}

// Runs the target on `text` in a child; an empty string when it returned,
// otherwise how it ended.
std::string runInChild(const std::string& text, unsigned timeoutSeconds) {
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) return std::string("fork failed: ") + std::strerror(errno);
  if (child == 0) {
    // The default action of SIGALRM ends the child: a hang.
    alarm(timeoutSeconds);
    (void)LLVMFuzzerTestOneInput(
        reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    // exit, not _exit: a leak checker runs at exit.
    std::exit(0);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return std::string("waitpid: ") + std::strerror(errno);
  }
  if (WIFEXITED(status)) {
    if (WEXITSTATUS(status) == 0) return "";
    return "exit status " + std::to_string(WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    if (WTERMSIG(status) == SIGALRM) {
      return "no result within " + std::to_string(timeoutSeconds) + " s";
    }
    return std::string("signal ") + strsignal(WTERMSIG(status));
  }
  return "ended in an unknown way";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string name = fs::path(argv[0]).filename().string();
  Options options;
  if (!parseOptions(argc, argv, options)) {
    std::fprintf(stderr, "usage: %s [--timeout=SECONDS] PATH...\n",
                 name.c_str());
    return 2;
  }
  std::size_t passed = 0;
  std::size_t failed = 0;
  for (const fs::path& input : options.inputs) {
    std::string text;
    std::string problem;
    if (!readFile(input, text)) {
      problem = "cannot read it";
    } else {
      problem = runInChild(text, options.timeoutSeconds);
    }
    if (problem.empty()) {
      ++passed;
    } else {
      ++failed;
      std::printf("%s: FAILED on %s: %s\n", name.c_str(),
                  input.string().c_str(), problem.c_str());
    }
  }
  std::printf("%s: %zu passed, %zu failed\n", name.c_str(), passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}
