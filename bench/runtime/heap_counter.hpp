#pragma once
// Counters fed by the replaced global operator new/delete in heap_counter.cpp
// (its own translation unit, so the replacements are never inlined).
#include <atomic>
#include <cstdint>

extern std::atomic<std::int64_t> g_live_bytes;
extern std::atomic<std::uint64_t> g_allocations;
