# `heraldc fmt --write`: rewrites an unformatted file (comments kept) to
# exactly what `heraldc fmt` prints, after which `fmt --check` passes; leaves
# a file with syntax errors untouched; refuses to be combined with --check.
# Usage:
#   cmake -DHERALDC=<exe> -DINPUT=<.herald with comments> -DBROKEN=<.herald
#         with a syntax error> -DSCRATCH=<dir> -P fmt_write.cmake
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/heraldc.cmake)

file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
set(target ${SCRATCH}/target.herald)
set(broken ${SCRATCH}/broken.herald)
configure_file(${INPUT} ${target} COPYONLY)
configure_file(${BROKEN} ${broken} COPYONLY)
file(READ ${INPUT} original)
file(READ ${BROKEN} broken_original)

run_heraldc(expected err status fmt ${target})
if(NOT status EQUAL 0 OR expected STREQUAL original)
  message(FATAL_ERROR "heraldc fmt ${INPUT}: exit ${status}; the test needs "
                      "an unformatted input that formats\n${err}")
endif()

# Every comment line of the input is in the output.
string(REGEX MATCHALL "--[^\n]*" comments "${original}")
foreach(comment IN LISTS comments)
  string(STRIP "${comment}" comment)
  string(FIND "${expected}" "${comment}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "heraldc fmt lost the comment '${comment}':\n"
                        "${expected}")
  endif()
endforeach()

run_heraldc(out err status fmt --write ${target})
file(READ ${target} written)
if(NOT status EQUAL 0 OR NOT out STREQUAL "" OR NOT err STREQUAL "")
  message(FATAL_ERROR "heraldc fmt --write: exit ${status}, expected 0 and "
                      "no output\n--- stdout ---\n${out}--- stderr ---\n${err}")
endif()
if(NOT written STREQUAL expected)
  message(FATAL_ERROR "heraldc fmt --write wrote\n${written}\nbut heraldc "
                      "fmt prints\n${expected}")
endif()
file(GLOB leftovers ${SCRATCH}/*.tmp)
if(leftovers)
  message(FATAL_ERROR "heraldc fmt --write left ${leftovers}")
endif()

run_heraldc(out err status fmt --check ${target})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "heraldc fmt --check after --write: exit ${status}\n"
                      "${out}${err}")
endif()

# Writing a formatted file again changes nothing.
run_heraldc(out err status fmt -w ${target})
file(READ ${target} rewritten)
if(NOT status EQUAL 0 OR NOT rewritten STREQUAL expected)
  message(FATAL_ERROR "heraldc fmt -w on a formatted file: exit ${status}, "
                      "or the file changed\n${err}")
endif()

# A syntax error: reported, and no file is touched, not even the good one.
configure_file(${INPUT} ${target} COPYONLY)
run_heraldc(out err status fmt --write ${target} ${broken})
file(READ ${target} target_after)
file(READ ${broken} broken_after)
if(NOT status EQUAL 1 OR NOT err MATCHES "broken\\.herald:[0-9]+:[0-9]+: error"
   OR NOT target_after STREQUAL original
   OR NOT broken_after STREQUAL broken_original)
  message(FATAL_ERROR "heraldc fmt --write with a syntax error: exit "
                      "${status}, expected 1 and both files untouched\n${err}")
endif()

run_heraldc(out err status fmt --write --check ${target})
if(NOT status EQUAL 2)
  message(FATAL_ERROR "heraldc fmt --write --check: exit ${status}, "
                      "expected 2 (usage)\n${err}")
endif()
