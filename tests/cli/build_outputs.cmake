# `heraldc build --list-outputs` prints exactly the files a build writes, and
# writes nothing itself; a program with errors writes nothing and exits 1,
# even over an earlier build's output; an unwritable output directory is an
# I/O error (exit 2).
# Usage:
#   cmake -DHERALDC=<exe> -DINPUT=<clean sources> -DBROKEN=<sources with an
#         error> -DSCRATCH=<dir> -P build_outputs.cmake
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/build_tree.cmake)

file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})

run_heraldc(listed err status build --list-outputs ${INPUT})
if(NOT status EQUAL 0 OR NOT err STREQUAL "" OR listed STREQUAL "")
  message(FATAL_ERROR "heraldc build --list-outputs: exit ${status}\n"
                      "${listed}${err}")
endif()
tree_files(${SCRATCH} nothing)
if(nothing)
  message(FATAL_ERROR "heraldc build --list-outputs wrote ${nothing}")
endif()

build_ok(${INPUT} -o ${SCRATCH}/out)
tree_files(${SCRATCH}/out written)
string(REPLACE ";" "\n" written "${written}\n")
if(NOT listed STREQUAL written)
  message(FATAL_ERROR "heraldc build --list-outputs printed\n${listed}but "
                      "heraldc build wrote\n${written}")
endif()

# Errors: nothing written, not even into a fresh directory.
run_heraldc(out err status build ${BROKEN} -o ${SCRATCH}/broken)
if(NOT status EQUAL 1 OR NOT err MATCHES "error\\[E" OR EXISTS ${SCRATCH}/broken)
  message(FATAL_ERROR "heraldc build with errors: exit ${status} (expected "
                      "1), output directory created: ${SCRATCH}/broken\n${err}")
endif()
run_heraldc(out err status build --list-outputs ${BROKEN})
if(NOT status EQUAL 1 OR NOT out STREQUAL "")
  message(FATAL_ERROR "heraldc build --list-outputs with errors: exit "
                      "${status} (expected 1), stdout:\n${out}")
endif()
# An earlier build's files stay as they were.
tree_text(${SCRATCH}/out before)
run_heraldc(out err status build ${INPUT} ${BROKEN} -o ${SCRATCH}/out)
tree_text(${SCRATCH}/out after)
if(NOT status EQUAL 1 OR NOT before STREQUAL after)
  message(FATAL_ERROR "heraldc build with errors over an earlier build: exit "
                      "${status} (expected 1), or files changed\n${err}")
endif()

# A file where a directory must go.
file(WRITE ${SCRATCH}/blocked/demo "not a directory")
run_heraldc(out err status build ${INPUT} -o ${SCRATCH}/blocked)
if(NOT status EQUAL 2 OR NOT err MATCHES "^heraldc: error: cannot write '")
  message(FATAL_ERROR "heraldc build into an unwritable directory: exit "
                      "${status} (expected 2)\n${err}")
endif()
