# The cross-build scenario of CMakeLists.txt.
#   cmake -DV1=<program> -DV2=<program> -DLOCK=<v2 lock> -DDB=<path>
#         -P replay.cmake
cmake_minimum_required(VERSION 3.25)
foreach(suffix "" "-wal" "-shm" ".lock")
  file(REMOVE "${DB}${suffix}")
endforeach()

function(run program)
  execute_process(COMMAND ${program} ${ARGN} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "${program} ${shown}: exit ${status}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(expect_log program key expected)
  run(${program} log "${DB}" "${key}")
  if(NOT out STREQUAL expected)
    message(FATAL_ERROR "subscriber log '${key}' holds\n${out}expected\n"
                        "${expected}")
  endif()
endfunction()

file(READ ${LOCK} lock)
if(NOT lock MATCHES "\nevent evo\\.orders\\.Placed 2\n")
  message(FATAL_ERROR "the v2 build did not bump Placed to 2:\n${lock}")
endif()

# Three orders at version 1, then two at version 2 (with the new fields
# set), the v2 build replaying the v1 events to its new subscribers first.
run(${V1} place "${DB}" o1 100 o2 200 o3 300)
run(${V2} place "${DB}" o4 400 o5 500)

# Version 1 events read by v2: the defaults filled in (a variant, None, a
# record, an opaque and a refined value).
set(v1_events "v1 o1 100 Domestic - 0 EUR untagged 1\nv1 o2 200 Domestic - 0 EUR untagged 1\nv1 o3 300 Domestic - 0 EUR untagged 1\n")
set(v2_events "v2 o4 400 Abroad gift 400 CHF tagged 3\nv2 o5 500 Abroad gift 500 CHF tagged 3\n")
expect_log(${V2} "v1" "${v1_events}")
expect_log(${V2} "v2.." "${v2_events}")
expect_log(${V2} "_" "${v1_events}${v2_events}")

# The v1 build reads the v2 events: delivered, the fields it does not know
# ignored.
expect_log(${V1} "v1 build"
           "v1 o1 100\nv1 o2 200\nv1 o3 300\nv2 o4 400\nv2 o5 500\n")
