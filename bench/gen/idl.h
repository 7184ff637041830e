// The formats the generator writes: the full Herald project, or only its
// schema part (contexts with their types and events) in Herald or in
// another schema language.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/gen/schema.h"
#include "bench/gen/text_writer.h"

namespace herald::bench {

enum class Format { Herald, HeraldSchema, FlatBuffers, Proto, Capnp };

// "herald", "herald-schema", "fbs", "proto", "capnp".
std::optional<Format> parseFormat(std::string_view name);

struct SchemaFile {
  std::string path;
  TextWriter text;
};
using SchemaFiles = std::vector<SchemaFile>;

// emit_schema.cpp: one Herald file per file of the full project, with only
// `consumes core.identity` (the types name nothing else).
SchemaFiles heraldSchemaFiles(const Schema& schema, std::uint64_t seed);

// Each writes the whole schema as one file (`schema.fbs`, ...). Opaque,
// refined and alias types become their base type at each use; records and
// events become tables, messages or structs; sums of nullary variants
// become enums and other sums unions (FlatBuffers, with a table per
// variant), oneofs (Protocol Buffers, with a message per variant) or
// unnamed unions with a group per variant (Cap'n Proto); Option becomes an
// optional field. Defaults are kept where the language has them.
SchemaFiles flatBuffersFiles(const Schema& schema, std::uint64_t seed);
SchemaFiles protoFiles(const Schema& schema, std::uint64_t seed);
SchemaFiles capnpFiles(const Schema& schema, std::uint64_t seed);

}  // namespace herald::bench
