#pragma once
// Declarations of LogLevel and LogSink, which herald/runtime.hpp names
// without parsing nlohmann's JSON; the levels' values and the sinks
// (StderrLogSink, MemoryLogSink) are in herald/log.hpp.

namespace herald {

enum class LogLevel;
class LogSink;

}  // namespace herald
