// Host units for the compile-time race of bench/codegen/compile.sh: one C++
// source per schema language, written against the code its generator writes
// for the schema, that builds every event with a value in each field (an
// optional one present, a sum at its first variant with fields), encodes it
// to bytes, decodes the bytes and reads every field back into a checksum.
// The three do the same work through each generator's own API: Herald's
// herald::encode / herald::decode, flatbuffers' FlatBufferBuilder and
// Verifier, protobuf's SerializeAsString and ParseFromString.
#pragma once

#include <cstdint>

#include "bench/gen/idl.h"

namespace herald::bench {

// Each writes `host.cpp`.
SchemaFile heraldHostFile(const Schema& schema, std::uint64_t seed);
SchemaFile flatBuffersHostFile(const Schema& schema, std::uint64_t seed);
SchemaFile protoHostFile(const Schema& schema, std::uint64_t seed);

// What the three share: the values put in fields and the checksum's
// `use` overloads, written at the top of each unit.
namespace host {

inline constexpr const char* kInt = "7";
inline constexpr const char* kFloat = "0.5";
inline constexpr const char* kBool = "true";
inline constexpr const char* kString = "\"text\"";
inline constexpr const char* kInstant = "1700000000000000000";

void writeUse(TextWriter& w);
// Each event's function through `event`, the anonymous namespace closed,
// then main calling them all in turn.
template <class F>
void writeEvents(const Schema& schema, TextWriter& w, F&& event) {
  for (const ContextSchema& ctx : schema.contexts) {
    for (const Decl& decl : ctx.decls) {
      if (decl.event) event(*decl.event);
    }
  }
  w.line("}}  // namespace");
  w.blank();
  w.line("int main() {{");
  w.line("  std::uint64_t sum = 0;");
  for (const ContextSchema& ctx : schema.contexts) {
    for (const Decl& decl : ctx.decls) {
      if (decl.event) w.line("  event{}(sum);", decl.event->name);
    }
  }
  w.line("  return sum == 0 ? 1 : 0;");
  w.line("}}");
}
// The value variant of a sum: its first variant with fields, else its first.
const Variant& chosenVariant(const TypeDecl& sum);

}  // namespace host

}  // namespace herald::bench
