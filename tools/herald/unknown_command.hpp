#pragma once
// A misspelt command: CLI11 reports `herald stauts` as "A subcommand is
// required" and `herald dead-letters lisst` as an extra argument; these say
// what was meant.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace herald::tool {

// "unknown subcommand 'stauts'; did you mean 'status'?" (or the list of
// commands when none is near) for the first command word of `argv`, or of
// a command's own commands, that `app` does not have; nullopt when every
// command word is known.
std::optional<std::string> unknown_command(const CLI::App& app, int argc,
                                           char** argv);

}  // namespace herald::tool
