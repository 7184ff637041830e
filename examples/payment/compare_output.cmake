# Runs the payment example and compares its standard output with the
# checked-in expectation. To accept a reviewed change of the output:
#   build/<dir>/examples/payment/payment > examples/payment/expected_output.txt
# The event ids in it are fixed by the executor's seed (main.cpp).
# Usage: cmake -DPROGRAM=<exe> -DEXPECTED=<file> -P compare_output.cmake
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND ${PROGRAM} RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}\n${out}${err}")
endif()
file(READ ${EXPECTED} expected)
if(NOT out STREQUAL expected)
  file(WRITE ${PROGRAM}.actual.txt "${out}")
  execute_process(COMMAND diff -u ${EXPECTED} ${PROGRAM}.actual.txt
                  OUTPUT_VARIABLE diff)
  message(FATAL_ERROR "the payment example's output differs from "
                      "${EXPECTED} (got ${PROGRAM}.actual.txt):\n${diff}")
endif()
