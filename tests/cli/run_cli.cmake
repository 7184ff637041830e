# Runs heraldc once and checks what it did. Usage:
#   cmake -DHERALDC=<exe> -DARGS=<a@@b@@c> -DEXIT=<code> [checks] -P run_cli.cmake
# Lists use "@@" as separator (";" would be split by add_test).
#   STDOUT_MATCH / STDERR_MATCH       regexes that must all match
#   STDOUT_NOMATCH / STDERR_NOMATCH   regexes that must not match
#   STDOUT_EMPTY / STDERR_EMPTY       ON: the stream must be empty
#   COLOR                             ON: stderr has ANSI escapes; OFF: none
#   JSON_LENGTH                       stdout is a JSON array of this length
#   STDIN                             a file (relative to the working
#                                     directory) fed to standard input
#   JSON_CHECKS                       "<index> <key>...=<regex>": the value at
#                                     that path of the stdout JSON must match
cmake_minimum_required(VERSION 3.25)

foreach(required HERALDC EXIT)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_cli.cmake: ${required} is not set")
  endif()
endforeach()

function(split_list out text)
  if(text STREQUAL "")
    set(${out} "" PARENT_SCOPE)
  else()
    string(REPLACE "@@" ";" items "${text}")
    set(${out} "${items}" PARENT_SCOPE)
  endif()
endfunction()

split_list(args "${ARGS}")
set(input "")
if(DEFINED STDIN)
  set(input INPUT_FILE "${STDIN}")
endif()
execute_process(
  COMMAND ${HERALDC} ${args}
  ${input}
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)

set(failures "")
function(fail what)
  set(failures "${failures}  - ${what}\n" PARENT_SCOPE)
endfunction()

if(NOT status STREQUAL "${EXIT}")
  fail("exit status ${status}, expected ${EXIT}")
endif()

foreach(stream STDOUT STDERR)
  if(stream STREQUAL STDOUT)
    set(text "${out}")
  else()
    set(text "${err}")
  endif()
  split_list(patterns "${${stream}_MATCH}")
  foreach(pattern IN LISTS patterns)
    if(NOT text MATCHES "${pattern}")
      fail("${stream} does not match '${pattern}'")
    endif()
  endforeach()
  split_list(patterns "${${stream}_NOMATCH}")
  foreach(pattern IN LISTS patterns)
    if(text MATCHES "${pattern}")
      fail("${stream} matches '${pattern}' but must not")
    endif()
  endforeach()
  if(${stream}_EMPTY AND NOT text STREQUAL "")
    fail("${stream} is not empty")
  endif()
endforeach()

if(DEFINED COLOR)
  string(ASCII 27 escape)
  string(FIND "${err}" "${escape}[" at)
  if(COLOR AND at EQUAL -1)
    fail("stderr has no color escapes")
  elseif(NOT COLOR AND NOT at EQUAL -1)
    fail("stderr has color escapes")
  endif()
endif()

if(DEFINED JSON_LENGTH OR DEFINED JSON_CHECKS)
  string(JSON type ERROR_VARIABLE json_error TYPE "${out}")
  if(json_error)
    fail("stdout is not JSON: ${json_error}")
  elseif(NOT type STREQUAL "ARRAY")
    fail("stdout is JSON ${type}, not an array")
  else()
    if(DEFINED JSON_LENGTH)
      string(JSON length LENGTH "${out}")
      if(NOT length EQUAL JSON_LENGTH)
        fail("JSON array has ${length} elements, expected ${JSON_LENGTH}")
      endif()
    endif()
    split_list(checks "${JSON_CHECKS}")
    foreach(check IN LISTS checks)
      string(FIND "${check}" "=" eq)
      string(SUBSTRING "${check}" 0 ${eq} path)
      math(EXPR value_at "${eq} + 1")
      string(SUBSTRING "${check}" ${value_at} -1 pattern)
      string(REPLACE " " ";" keys "${path}")
      string(JSON value ERROR_VARIABLE get_error GET "${out}" ${keys})
      if(get_error)
        fail("JSON has no '${path}': ${get_error}")
      elseif(NOT value MATCHES "${pattern}")
        fail("JSON '${path}' is '${value}', which does not match '${pattern}'")
      endif()
    endforeach()
  endif()
endif()

if(NOT failures STREQUAL "")
  string(REPLACE "@@" " " shown "${ARGS}")
  message(FATAL_ERROR "heraldc ${shown}\n${failures}"
                      "--- stdout ---\n${out}--- stderr ---\n${err}")
endif()
