# The build step of herald_generate (HeraldGenerate.cmake): runs `heraldc
# build` and checks that it wrote the files CMake was told about.
# Usage:
#   cmake -DHERALDC=<exe> -DSOURCES=<a@@b> -DOUT_DIR=<dir> -DEXPECTED=<x@@y>
#         -DSTAMP=<file> -DSCHEMA_LOCK=<file> [-DLOCKED=ON]
#         -P HeraldGenerateRun.cmake
cmake_minimum_required(VERSION 3.25)

string(REPLACE "@@" ";" sources "${SOURCES}")
string(REPLACE "@@" ";" expected "${EXPECTED}")

set(lock --schema-lock ${SCHEMA_LOCK})
if(LOCKED)
  list(APPEND lock --locked)
endif()
execute_process(COMMAND ${HERALDC} build ${lock} ${sources} -o ${OUT_DIR}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "heraldc build failed (exit ${status})")
endif()

execute_process(COMMAND ${HERALDC} build --list-outputs ${lock} ${sources}
                RESULT_VARIABLE status OUTPUT_VARIABLE listed)
string(STRIP "${listed}" listed)
string(REPLACE "\n" ";" written "${listed}")
if(NOT status EQUAL 0 OR NOT written STREQUAL expected)
  string(REPLACE ";" " " written "${written}")
  string(REPLACE ";" " " expected "${expected}")
  message(FATAL_ERROR "heraldc build wrote [${written}] but CMake expected "
                      "[${expected}]; re-run CMake")
endif()
file(TOUCH ${STAMP})
