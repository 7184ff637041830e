#include <csignal>

#include "tools/heraldc/commands.h"
#include "tools/heraldc/heap.h"
#include "tools/lsp/server.h"
#include <unistd.h>

namespace herald::driver {

int runLsp(const LspOptions& options) {
  // A client that goes away closes the pipe: the write fails with EPIPE and
  // the server stops, instead of the signal ending the process.
  (void)std::signal(SIGPIPE, SIG_IGN);
  // Every check allocates about what the one before it freed (the checked
  // program, the use table, the index of declarations). Kept in the heap
  // instead of returned to the system and faulted in again, that memory
  // costs no page faults: a sixth of a check's time at 100k lines
  // (bench/README.md, "Language server"), for a resident set that stays at
  // its peak.
  keepFreedMemory();
  lsp::Server server(STDIN_FILENO, STDOUT_FILENO,
                     {HERALD_VERSION, options.maxMessageBytes});
  return server.run();
}

}  // namespace herald::driver
