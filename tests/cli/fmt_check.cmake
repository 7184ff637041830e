# `heraldc fmt --check`: an unformatted file is listed (exit 1); the output of
# `heraldc fmt` for it passes the check (exit 0). Usage:
#   cmake -DHERALDC=<exe> -DINPUT=<relative .herald> -DSCRATCH=<dir> -P fmt_check.cmake
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/heraldc.cmake)

run_heraldc(formatted err status fmt ${INPUT})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "heraldc fmt ${INPUT}: exit ${status}\n${err}")
endif()
file(READ ${INPUT} original)
if(formatted STREQUAL original)
  message(FATAL_ERROR "${INPUT} is already formatted; the test needs an "
                      "unformatted input")
endif()

run_heraldc(out err status fmt --check ${INPUT})
if(NOT status EQUAL 1 OR NOT out STREQUAL "${INPUT}\n"
   OR NOT err MATCHES "1 file is not formatted")
  message(FATAL_ERROR "heraldc fmt --check ${INPUT}: exit ${status}, "
                      "expected 1 listing the file\n--- stdout ---\n${out}"
                      "--- stderr ---\n${err}")
endif()

file(MAKE_DIRECTORY ${SCRATCH})
set(canonical ${SCRATCH}/canonical.herald)
file(WRITE ${canonical} "${formatted}")
run_heraldc(out err status fmt --check ${canonical})
if(NOT status EQUAL 0 OR NOT out STREQUAL "" OR NOT err STREQUAL "")
  message(FATAL_ERROR "heraldc fmt --check on the output of heraldc fmt: "
                      "exit ${status}, expected 0 and no output\n"
                      "--- stdout ---\n${out}--- stderr ---\n${err}")
endif()

# Both at once: only the unformatted one is listed.
run_heraldc(out err status fmt --check ${canonical} ${INPUT})
if(NOT status EQUAL 1 OR NOT out STREQUAL "${INPUT}\n")
  message(FATAL_ERROR "heraldc fmt --check with one formatted and one "
                      "unformatted file: exit ${status}\n${out}${err}")
endif()
