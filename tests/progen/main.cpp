// herald_progen: writes a random valid Herald program for a seed.
//
//   herald_progen --seed N --out DIR [--prefix NAME]
//
// Each file of the program is written under DIR (created if missing); the
// same seed always gives the same program.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <CLI/CLI.hpp>

#include "tests/progen/program_gen.h"

int main(int argc, char** argv) {
  CLI::App app{"Writes a random valid Herald program of several contexts"};
  herald::progen::ProgramOptions options;
  std::string out;
  app.add_option("--seed", options.seed, "The program's seed")->required();
  app.add_option("--out", out, "The directory to write the .herald files to")
      ->required();
  app.add_option("--prefix", options.prefix,
                 "The first segment of every context name (default gSEED)");
  CLI11_PARSE(app, argc, argv);

  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) {
    std::fprintf(stderr, "herald_progen: cannot create '%s': %s\n", out.c_str(),
                 ec.message().c_str());
    return 2;
  }
  for (const herald::progen::GeneratedFile& file :
       herald::progen::generateProgram(options)) {
    const std::filesystem::path path = std::filesystem::path(out) / file.path;
    std::ofstream stream(path, std::ios::binary);
    stream << file.text;
    stream.close();
    if (!stream) {
      std::fprintf(stderr, "herald_progen: cannot write '%s'\n",
                   path.string().c_str());
      return 2;
    }
  }
  return 0;
}
