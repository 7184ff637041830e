// The host side of one build of the program whose agent gains stores (v1/
// or v2/, chosen by the include directory CMake gives): runs it on a
// sqlite database that outlives the process.
//
//   program deposit DB KEY CENTS...  deposits into each wallet (host calls)
//   program pay DB KEY CENTS         pays into a wallet through a Teller's
//                                    message, then drains
//   program relabel DB KEY TEXT      (v2 only) relabels a wallet
//   program show DB KEY...           prints "KEY <show()>" per wallet, or
//                                    "KEY refused: <error>" when its stored
//                                    state is newer than this build reads
//   program dead DB                  prints "KEY HANDLER ATTEMPTS: <reason>"
//                                    per dead agent message
#include <cstdio>
#include <map>
#include <string>

#include "evo/wallet.h"
#include <herald/config.hpp>
#include <herald/dead_message.hpp>
#include <herald/deterministic_executor.hpp>
#include <herald/errors.hpp>
#include <herald/runtime.hpp>

namespace {

herald::RuntimeConfig config(const std::string& db) {
  herald::ConfigSources sources;
  sources.environment = std::map<std::string, std::string>{};
  sources.settings = {
      {"backend.kind", "sqlite"},
      {"backend.sqlite.path", db},
      {"log.level", "off"},
  };
  return herald::load_config(sources);
}

struct Program {
  explicit Program(const std::string& db)
      : executor(1), rt(config(db), executor, nullptr, nullptr) {
    rt.install({evo::wallet::context()});
    rt.recover();
  }
  herald::DeterministicExecutor executor;
  herald::Runtime rt;
};

int usage() {
  std::fputs(
      "usage: program deposit DB KEY CENTS... | pay DB KEY CENTS | relabel "
      "DB KEY TEXT | show DB KEY... | dead DB\n",
      stderr);
  return 2;
}

using evo::wallet::Teller;
using evo::wallet::Wallet;

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string command = argv[1];
  Program p(argv[2]);
  if (command == "deposit" && argc % 2 == 1) {
    for (int i = 3; i + 1 < argc; i += 2)
      Wallet::at(p.rt, argv[i]).deposit(std::stoll(argv[i + 1]));
  } else if (command == "pay" && argc == 5) {
    Teller::at(p.rt, "teller").pay(argv[3], std::stoll(argv[4]));
    p.executor.drain();
#ifdef HERALD_WALLET_V2
  } else if (command == "relabel" && argc == 5) {
    Wallet::at(p.rt, argv[3]).relabel(argv[4]);
#endif
  } else if (command == "show") {
    for (int i = 3; i < argc; ++i) {
      try {
        const std::string shown = Wallet::at(p.rt, argv[i]).show();
        std::printf("%s %s\n", argv[i], shown.c_str());
      } catch (const herald::NewerAgentState& e) {
        std::printf("%s refused: %s\n", argv[i], e.what());
      }
    }
  } else if (command == "dead" && argc == 3) {
    p.executor.drain();
    for (const herald::DeadMessage& dead : p.rt.dead_messages())
      std::printf("%s %s %u: %s\n", dead.message.key.c_str(),
                  dead.message.handler.c_str(), dead.attempts,
                  dead.last_error.c_str());
  } else {
    return usage();
  }
  p.rt.shutdown();
  return 0;
}
