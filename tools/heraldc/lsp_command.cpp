#include <csignal>

#include "tools/heraldc/commands.h"
#include "tools/lsp/server.h"
#include <unistd.h>

namespace herald::driver {

int runLsp(const LspOptions& options) {
  // A client that goes away closes the pipe: the write fails with EPIPE and
  // the server stops, instead of the signal ending the process.
  (void)std::signal(SIGPIPE, SIG_IGN);
  lsp::Server server(STDIN_FILENO, STDOUT_FILENO,
                     {HERALD_VERSION, options.maxMessageBytes});
  return server.run();
}

}  // namespace herald::driver
