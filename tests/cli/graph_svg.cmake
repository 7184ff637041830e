# `heraldc graph --format=svg`: with Graphviz's `dot` on PATH, the output
# file holds an SVG document; without it, heraldc says so and exits 2.
# Usage:
#   cmake -DHERALDC=<exe> -DINPUT=<sources> -DSCRATCH=<dir> -P graph_svg.cmake
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/heraldc.cmake)

file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
set(target ${SCRATCH}/flow.svg)

find_program(DOT_PROGRAM dot NO_CACHE)
run_heraldc(out err status graph --format=svg -o ${target} ${INPUT})
if(DOT_PROGRAM)
  if(NOT status EQUAL 0 OR NOT EXISTS ${target})
    message(FATAL_ERROR "heraldc graph --format=svg: exit ${status}, "
                        "expected 0 and ${target} written\n${err}")
  endif()
  file(READ ${target} svg)
  if(NOT svg MATCHES "<svg" OR NOT svg MATCHES "PaymentConfirmed")
    message(FATAL_ERROR "heraldc graph --format=svg wrote no SVG graph of "
                        "the example:\n${svg}")
  endif()
else()
  if(NOT status EQUAL 2 OR NOT err MATCHES "Graphviz 'dot' not found on PATH"
     OR EXISTS ${target})
    message(FATAL_ERROR "heraldc graph --format=svg without dot: exit "
                        "${status}, expected 2 and the message\n${err}")
  endif()
endif()
