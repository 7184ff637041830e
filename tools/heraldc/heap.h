// The process heap of one compiler run, prepared for the run's size.
#pragma once

#include <cstddef>

#include "tools/heraldc/pipeline.h"

namespace herald::driver {

// Reserves heap for a run over `inputBytes` of sources and asks the kernel
// to back it with transparent huge pages: the compiler's many small
// allocations (IR nodes, names, tables) then fault in a 2 MiB page at a
// time instead of one fault per 4 KiB page, which on the virtual machines
// heraldc is measured on costs a third of a large run (bench/README.md).
// Called once, before parsing. Does nothing under a sanitizer (its own
// allocator owns the heap) or where the platform lacks the calls.
void prepareHeap(std::size_t inputBytes);

// Keeps freed memory in the heap (large blocks too) instead of returning it
// to the kernel, so that the next allocations fault nothing in: for a run,
// and for the language server, whose every check allocates about what the
// one before freed. Does nothing under a sanitizer.
void keepFreedMemory();

// Leaves `checked` to the end of the process instead of freeing it node by
// node (a large run's IR, names and tables are millions of blocks; freeing
// them took about 5% of a run and returns nothing anyone uses). Called by
// a command once it is done with the program. Under a sanitizer the
// program is freed here as usual, so that leak checking stays exact.
void keepUntilExit(CheckedProgram&& checked);

}  // namespace herald::driver
