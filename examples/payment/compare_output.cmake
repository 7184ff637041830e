# Runs the payment example and compares its standard output with the
# checked-in expectation. Event ids are random in every run (a restarted
# process must never mint one again), so each is named by the order it first
# appears in (<id1>, <id2>, ...) before the comparison; the expectation shows
# which ids are equal. To accept a reviewed change of the output, copy
# build/<dir>/examples/payment/payment.actual.txt (written on a mismatch)
# over examples/payment/expected_output.txt.
# Usage: cmake -DPROGRAM=<exe> -DEXPECTED=<file> -P compare_output.cmake
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND ${PROGRAM} RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}\n${out}${err}")
endif()
# CMake's regular expressions have no {n}: five hyphenated hex groups.
string(REGEX MATCHALL
       "[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]"
       ids "${out}")
list(REMOVE_DUPLICATES ids)
set(n 0)
foreach(id IN LISTS ids)
  math(EXPR n "${n} + 1")
  string(REPLACE "${id}" "<id${n}>" out "${out}")
endforeach()
file(READ ${EXPECTED} expected)
if(NOT out STREQUAL expected)
  file(WRITE ${PROGRAM}.actual.txt "${out}")
  execute_process(COMMAND diff -u ${EXPECTED} ${PROGRAM}.actual.txt
                  OUTPUT_VARIABLE diff)
  message(FATAL_ERROR "the payment example's output differs from "
                      "${EXPECTED} (got ${PROGRAM}.actual.txt):\n${diff}")
endif()
