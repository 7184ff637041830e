# `heraldc graph -o FILE`: writes the DOT graph to FILE and nothing to
# stdout; with errors in the sources it writes nothing at all.
# Usage:
#   cmake -DHERALDC=<exe> -DINPUT=<clean sources> -DBROKEN=<sources with an
#         error> -DSCRATCH=<dir> -P graph_output.cmake
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/heraldc.cmake)

file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
set(target ${SCRATCH}/flow.dot)

run_heraldc(out err status graph -o ${target} ${INPUT})
if(NOT status EQUAL 0 OR NOT out STREQUAL "" OR NOT err STREQUAL "")
  message(FATAL_ERROR "heraldc graph -o: exit ${status}, expected 0 and no "
                      "output\n--- stdout ---\n${out}--- stderr ---\n${err}")
endif()
if(NOT EXISTS ${target})
  message(FATAL_ERROR "heraldc graph -o did not write ${target}")
endif()
file(READ ${target} written)
run_heraldc(printed err status graph ${INPUT})
if(NOT written MATCHES "^digraph " OR NOT written STREQUAL printed)
  message(FATAL_ERROR "heraldc graph -o wrote something other than what "
                      "heraldc graph prints:\n${written}\n---\n${printed}")
endif()

set(untouched ${SCRATCH}/untouched.dot)
run_heraldc(out err status graph -o ${untouched} ${BROKEN})
if(NOT status EQUAL 1 OR EXISTS ${untouched})
  message(FATAL_ERROR "heraldc graph -o on sources with errors: exit "
                      "${status} (expected 1), file written: "
                      "${untouched}\n${err}")
endif()
