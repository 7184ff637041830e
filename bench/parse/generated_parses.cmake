# ctest driver: a generated project must lex, parse and check without a
# single diagnostic (warnings included), and the same seed must give
# byte-identical files.
#   cmake -DGEN=... -DPARSE=... -DHERALDC=... -DOUT=... -P generated_parses.cmake
foreach(var GEN PARSE HERALDC OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${OUT}")
foreach(copy a b)
  execute_process(COMMAND "${GEN}" --lines 20000 --seed 42 --out "${OUT}/${copy}"
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "herald_bench_gen failed (${status})")
  endif()
endforeach()

file(GLOB_RECURSE files_a RELATIVE "${OUT}/a" "${OUT}/a/*.herald")
file(GLOB_RECURSE files_b RELATIVE "${OUT}/b" "${OUT}/b/*.herald")
list(SORT files_a)
list(SORT files_b)
if(NOT files_a STREQUAL files_b)
  message(FATAL_ERROR "the same seed wrote different file sets")
endif()
foreach(f IN LISTS files_a)
  file(SHA256 "${OUT}/a/${f}" hash_a)
  file(SHA256 "${OUT}/b/${f}" hash_b)
  if(NOT hash_a STREQUAL hash_b)
    message(FATAL_ERROR "the same seed wrote a different ${f}")
  endif()
endforeach()

foreach(mode lex parse)
  execute_process(COMMAND "${PARSE}" "${OUT}/a" --mode ${mode}
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "herald_bench_parse --mode ${mode} failed (${status})")
  endif()
endforeach()
execute_process(COMMAND "${HERALDC}" check --color=never "${OUT}/a"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out STREQUAL "" OR NOT err STREQUAL "")
  string(SUBSTRING "${err}" 0 4000 excerpt)
  message(FATAL_ERROR "heraldc check of the generated project is not clean "
                      "(exit ${status}):\n${out}${excerpt}")
endif()
file(REMOVE_RECURSE "${OUT}")
