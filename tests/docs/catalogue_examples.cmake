cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/HeraldCatalogue.cmake")
# Every example of the diagnostic catalogue is a test.
#
# In each `### CODE name` section of the catalogue, the first ```herald block
# is the example: checked on its own, it must report that code and nothing
# else (exit 1 for an error, 0 for a warning). Any later ```herald block of
# the section is the fixed program: it must check with no diagnostic at all.
# A section without an example must be one of RESERVED (codes no command
# reports yet) or UNSHOWN (codes whose trigger is too large to show, tested
# elsewhere), and a RESERVED section must not have one.
#
# In examples, `<0xHH>` stands for the single byte HH, so that input that is
# not UTF-8 can be shown in a UTF-8 document.
#
# Usage: cmake -DHERALDC=... -DCATALOGUE=... -DWORK=... [-DRESERVED=E0601,E0602] [-DUNSHOWN=E0111]
#              [-DONLY=E0501] -P catalogue_examples.cmake
if(NOT EXISTS "${HERALDC}")
  message(FATAL_ERROR "no heraldc at '${HERALDC}'")
endif()
file(READ "${CATALOGUE}" text)
string(REPLACE "," ";" RESERVED "${RESERVED}")
string(REPLACE "," ";" UNSHOWN "${UNSHOWN}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# The bytes an example stands for.
function(decode_example code out)
  set(result "")
  while(TRUE)
    string(REGEX MATCH "<0x([0-9A-Fa-f][0-9A-Fa-f])>" escape "${code}")
    if(escape STREQUAL "")
      break()
    endif()
    string(FIND "${code}" "${escape}" at)
    string(SUBSTRING "${code}" 0 ${at} before)
    math(EXPR after "${at} + 6")
    string(SUBSTRING "${code}" ${after} -1 code)
    math(EXPR value "0x${CMAKE_MATCH_1}")
    string(ASCII ${value} byte)
    string(APPEND result "${before}${byte}")
  endwhile()
  set(${out} "${result}${code}" PARENT_SCOPE)
endfunction()

# Runs `heraldc check` on `code`; sets <prefix>_status, <prefix>_codes (the
# codes reported, in order) and <prefix>_problem (output that is not the
# expected JSON).
function(check_example path code prefix)
  decode_example("${code}" bytes)
  file(WRITE "${path}" "${bytes}")
  execute_process(COMMAND "${HERALDC}" --color=never --diagnostics-format=json
                          check "${path}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  set(codes "")
  set(problem "")
  string(JSON count ERROR_VARIABLE json_error LENGTH "${out}")
  if(json_error)
    set(problem "output is not a JSON array (${json_error}):\n${out}${err}")
  elseif(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON c GET "${out}" ${i} code)
      list(APPEND codes "${c}")
    endforeach()
  endif()
  set(${prefix}_status "${status}" PARENT_SCOPE)
  set(${prefix}_codes "${codes}" PARENT_SCOPE)
  set(${prefix}_problem "${problem}" PARENT_SCOPE)
endfunction()

set(passed 0)
set(failed 0)
set(missing "")
set(sections 0)
herald_catalogue_sections("${text}" items)
foreach(item IN LISTS items)
  herald_catalogue_section("${text}" "${item}" code name section)
  if(DEFINED ONLY AND NOT code STREQUAL ONLY)
    continue()
  endif()
  math(EXPR sections "${sections} + 1")
  string(SUBSTRING "${code}" 0 1 severity)

  # The section's ```herald blocks, in order.
  set(blocks 0)
  set(body "${section}")
  while(TRUE)
    string(FIND "${body}" "```herald\n" open)
    if(open EQUAL -1)
      break()
    endif()
    math(EXPR open "${open} + 10")
    string(SUBSTRING "${body}" ${open} -1 body)
    string(FIND "${body}" "```" close)
    if(close EQUAL -1)
      message("${code} ${name}: unclosed ```herald block")
      math(EXPR failed "${failed} + 1")
      break()
    endif()
    string(SUBSTRING "${body}" 0 ${close} example)
    math(EXPR close "${close} + 3")
    string(SUBSTRING "${body}" ${close} -1 body)
    math(EXPR blocks "${blocks} + 1")
    set(path "${WORK}/${code}_${blocks}.herald")
    check_example("${path}" "${example}" run)
    if(NOT run_problem STREQUAL "")
      math(EXPR failed "${failed} + 1")
      message("${code} ${name} (block ${blocks}): ${run_problem}")
      continue()
    endif()
    string(REPLACE ";" ", " reported "${run_codes}")
    if(reported STREQUAL "")
      set(reported "nothing")
    endif()
    if(blocks EQUAL 1)
      # The example: this code, only this code, and the matching exit code.
      set(others "${run_codes}")
      list(REMOVE_ITEM others "${code}")
      if(severity STREQUAL "E")
        set(want_status 1)
      else()
        set(want_status 0)
      endif()
      if(NOT code IN_LIST run_codes OR others OR
         NOT run_status STREQUAL want_status)
        math(EXPR failed "${failed} + 1")
        message("${code} ${name}: the example reports ${reported} (exit ${run_status}); expected only ${code} (exit ${want_status}) -- ${path}")
      else()
        math(EXPR passed "${passed} + 1")
      endif()
    else()
      # A fixed program: clean.
      if(run_codes OR NOT run_status STREQUAL "0")
        math(EXPR failed "${failed} + 1")
        message("${code} ${name}: the fixed program (block ${blocks}) reports ${reported} (exit ${run_status}); expected none -- ${path}")
      else()
        math(EXPR passed "${passed} + 1")
      endif()
    endif()
  endwhile()

  if(code IN_LIST RESERVED)
    if(blocks GREATER 0)
      math(EXPR failed "${failed} + 1")
      message("${code} ${name}: reserved, so it must have no example (update RESERVED once a command reports it)")
    endif()
  elseif(blocks EQUAL 0 AND NOT code IN_LIST UNSHOWN)
    list(APPEND missing "${code} ${name}")
  endif()
endforeach()

if(sections EQUAL 0)
  message(FATAL_ERROR "no `### CODE name` sections in ${CATALOGUE}")
endif()
foreach(entry IN LISTS missing)
  math(EXPR failed "${failed} + 1")
  message("${entry}: no ```herald example")
endforeach()
message(STATUS "catalogue examples: ${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} catalogue example(s) failed")
endif()
