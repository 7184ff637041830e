# Runs the built `herald` once over a fresh copy of the sample database and
# checks what it did. Usage:
#   cmake -DHERALD=<exe> -DSAMPLE_DB=<herald_tool_sample_db> -DWORK=<dir>
#         -DARGS=<a@@b> -DEXIT=<code> [checks] -P run_herald.cmake
# Lists use "@@" as separator; "%DB%" in an argument is the database's path.
#   STDOUT_MATCH / STDERR_MATCH   regexes that must all match
#   STDOUT_EMPTY / STDERR_EMPTY   ON: the stream must be empty
#   NO_DATABASE                   ON: do not write the sample database
#   DB_FROM_ENV                   ON: name the database by HERALD_DB
#   JSON_CHECKS                   "<key>...=<regex>": the value at that path
#                                 of the stdout JSON must match
#   THEN_ARGS / THEN_MATCH        a second run afterwards (exit 0) whose
#                                 stdout must match every THEN_MATCH regex
cmake_minimum_required(VERSION 3.25)

foreach(required HERALD SAMPLE_DB WORK EXIT)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_herald.cmake: ${required} is not set")
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

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(db ${WORK}/sample.db)
if(NOT NO_DATABASE)
  execute_process(COMMAND ${SAMPLE_DB} ${db} RESULT_VARIABLE made)
  if(NOT made EQUAL 0)
    message(FATAL_ERROR "herald_tool_sample_db failed (${made})")
  endif()
endif()

function(herald_run out_var err_var status_var arg_text)
  split_list(args "${arg_text}")
  list(TRANSFORM args REPLACE "%DB%" "${db}")
  set(command ${HERALD} ${args})
  if(DB_FROM_ENV)
    set(command ${CMAKE_COMMAND} -E env HERALD_DB=${db} ${HERALD} ${args})
  endif()
  execute_process(COMMAND ${command} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
  set(${status_var} "${status}" PARENT_SCOPE)
endfunction()

herald_run(out err status "${ARGS}")

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
  if(${stream}_EMPTY AND NOT text STREQUAL "")
    fail("${stream} is not empty")
  endif()
endforeach()

if(DEFINED JSON_CHECKS)
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

if(DEFINED THEN_ARGS)
  herald_run(then_out then_err then_status "${THEN_ARGS}")
  if(NOT then_status EQUAL 0)
    fail("the second run exited ${then_status}: ${then_err}")
  endif()
  split_list(patterns "${THEN_MATCH}")
  foreach(pattern IN LISTS patterns)
    if(NOT then_out MATCHES "${pattern}")
      fail("the second run's stdout does not match '${pattern}':\n${then_out}")
    endif()
  endforeach()
endif()

if(NOT failures STREQUAL "")
  string(REPLACE "@@" " " shown "${ARGS}")
  message(FATAL_ERROR "herald ${shown}\n${failures}"
                      "--- stdout ---\n${out}--- stderr ---\n${err}")
endif()
