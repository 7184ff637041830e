#include "tools/herald/unknown_command.hpp"

#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "herald/nearest_name.hpp"

namespace herald::tool {
namespace {

// Whether `arg` (`--name`, not `--name=value`) takes the next argument as
// its value somewhere in the command tree.
bool takes_value(const CLI::App& app, std::string_view arg) {
  if (!arg.starts_with("--") || arg.find('=') != std::string_view::npos)
    return false;
  const std::string name(arg);
  for (const CLI::Option* option : app.get_options()) {
    if (option->check_lname(name.substr(2))) return option->get_expected() > 0;
  }
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (takes_value(*sub, arg)) return true;
  }
  return false;
}

std::optional<std::string> check(const std::vector<const CLI::App*>& commands,
                                 const std::string& word) {
  std::vector<std::string> names;
  for (const CLI::App* command : commands) {
    if (command->check_name(word)) return std::nullopt;
    names.push_back(command->get_name());
  }
  if (auto near = nearest_name(word, names))
    return fmt::format("unknown subcommand '{}'; did you mean '{}'?", word,
                       *near);
  return fmt::format("unknown subcommand '{}'; expected one of: {}", word,
                     fmt::join(names, ", "));
}

}  // namespace

std::optional<std::string> unknown_command(const CLI::App& app, int argc,
                                           char** argv) {
  const CLI::App* level = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") return std::nullopt;
    if (arg.size() > 1 && arg.front() == '-') {
      if (takes_value(app, arg)) ++i;
      continue;
    }
    // Option groups are nameless subcommands in CLI11: not commands.
    std::vector<const CLI::App*> commands = level->get_subcommands({});
    std::erase_if(commands,
                  [](const CLI::App* c) { return c->get_name().empty(); });
    // A command without commands of its own takes positionals from here.
    if (commands.empty()) return std::nullopt;
    if (auto error = check(commands, std::string(arg))) return error;
    for (const CLI::App* command : commands) {
      if (command->check_name(std::string(arg))) level = command;
    }
  }
  return std::nullopt;
}

}  // namespace herald::tool
