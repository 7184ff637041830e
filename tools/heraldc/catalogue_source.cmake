# Generates the C++ source that compiles the diagnostic catalogue into
# heraldc, so `heraldc --explain CODE` needs no file at run time. Each
# `### CODE name` section of the Markdown (cmake/HeraldCatalogue.cmake)
# becomes one entry: its heading and text.
#
# Usage: cmake -DCATALOGUE=lang/diagnostics.md -DOUTPUT=catalogue.cpp -P catalogue_source.cmake
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/HeraldCatalogue.cmake")

file(READ "${CATALOGUE}" text)
# A raw string literal holds the text as it is; its delimiter must not occur
# in the catalogue.
set(delimiter "herald_catalogue")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${CATALOGUE} contains ')${delimiter}\"'")
endif()

set(entries "")
set(count 0)
herald_catalogue_sections("${text}" sections)
foreach(item IN LISTS sections)
  herald_catalogue_section("${text}" "${item}" code name section)
  string(STRIP "${section}" section)
  string(APPEND entries
         "    {\"${code}\", \"${name}\", R\"${delimiter}(${section}\n)${delimiter}\"},\n")
  math(EXPR count "${count} + 1")
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no `### CODE name` sections in ${CATALOGUE}")
endif()

set(source "// Generated from lang/diagnostics.md by catalogue_source.cmake; do not edit.
#include \"tools/heraldc/catalogue.h\"

namespace herald::driver {

const std::vector<CatalogueEntry>& catalogue() {
  static const std::vector<CatalogueEntry> entries = {
${entries}  };
  return entries;
}

}  // namespace herald::driver
")
# Rewritten only when it changes, so an edit elsewhere in the Markdown that
# leaves the entries alone rebuilds nothing.
set(previous "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
endif()
if(NOT previous STREQUAL source)
  file(WRITE "${OUTPUT}" "${source}")
endif()
