# Every configuration key of config_keys.def has its row in the host API
# reference, "| `key` | `member` | `HERALD_KEY` |", and the reference has no
# row of a key the runtime does not know.
# Usage: cmake -DKEYS=<config_keys.def> -DDOC=<host-api.md> -P config_keys_documented.cmake
cmake_minimum_required(VERSION 3.25)
file(READ "${KEYS}" keys_text)
file(READ "${DOC}" doc)
# The comments (which show the form of an entry) aside.
string(REGEX REPLACE "//[^\n]*" "" keys_text "${keys_text}")
string(REGEX MATCHALL "HERALD_CONFIG_KEY\\(([a-z_0-9]+), \"([a-z_.0-9]+)\""
       entries "${keys_text}")
list(LENGTH entries count)
if(count EQUAL 0)
  message(FATAL_ERROR "no HERALD_CONFIG_KEY entries in ${KEYS}")
endif()
set(missing 0)
foreach(entry IN LISTS entries)
  string(REGEX REPLACE "HERALD_CONFIG_KEY\\(([a-z_0-9]+), \"([a-z_.0-9]+)\"" "\\1;\\2"
         parts "${entry}")
  list(GET parts 0 member)
  list(GET parts 1 key)
  string(TOUPPER "${key}" variable)
  string(REPLACE "." "_" variable "HERALD_${variable}")
  set(row "| `${key}` | `${member}` | `${variable}` |")
  string(FIND "${doc}" "${row}" at)
  if(at EQUAL -1)
    math(EXPR missing "${missing} + 1")
    message("${DOC} has no row \"${row}\"")
  endif()
endforeach()
string(REGEX MATCHALL "\n\\| `[a-z_.0-9]+` \\| `[a-z_0-9]+` \\| `HERALD_[A-Z_0-9]+` \\|"
       rows "${doc}")
list(LENGTH rows documented)
if(missing GREATER 0 OR NOT documented EQUAL count)
  message(FATAL_ERROR "${DOC}: ${missing} of ${count} configuration keys "
                      "undocumented, ${documented} rows for ${count} keys")
endif()
message(STATUS "configuration keys: ${count} documented")
