cmake_minimum_required(VERSION 3.25)
# The whole programs of a Markdown document check clean.
#
# A ```herald block whose first line starts with `context` is a whole
# program: `heraldc check` on it alone must report nothing and exit 0.
# Other ```herald blocks show fragments of the syntax and are not run.
#
# Usage: cmake -DHERALDC=... -DDOC=... -DWORK=... -P reference_examples.cmake
if(NOT EXISTS "${HERALDC}")
  message(FATAL_ERROR "no heraldc at '${HERALDC}'")
endif()
file(READ "${DOC}" text)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(programs 0)
set(failed 0)
set(rest "${text}")
while(TRUE)
  string(FIND "${rest}" "```herald\n" open)
  if(open EQUAL -1)
    break()
  endif()
  math(EXPR open "${open} + 10")
  string(SUBSTRING "${rest}" ${open} -1 rest)
  string(FIND "${rest}" "```" close)
  if(close EQUAL -1)
    message(FATAL_ERROR "unclosed ```herald block in ${DOC}")
  endif()
  string(SUBSTRING "${rest}" 0 ${close} code)
  math(EXPR close "${close} + 3")
  string(SUBSTRING "${rest}" ${close} -1 rest)
  if(NOT code MATCHES "^context ")
    continue()
  endif()
  math(EXPR programs "${programs} + 1")
  set(path "${WORK}/program${programs}.herald")
  file(WRITE "${path}" "${code}")
  execute_process(COMMAND "${HERALDC}" --color=never check "${path}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT err STREQUAL "")
    math(EXPR failed "${failed} + 1")
    message("program ${programs} of ${DOC} (${path}) does not check clean "
            "(exit ${status}):\n${err}")
  endif()
endwhile()
if(programs EQUAL 0)
  message(FATAL_ERROR "no whole programs (```herald blocks starting with "
                      "`context`) in ${DOC}")
endif()
math(EXPR passed "${programs} - ${failed}")
message(STATUS "programs: ${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} program(s) do not check clean")
endif()
