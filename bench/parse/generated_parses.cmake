# ctest driver: a generated project must lex and parse without a single
# diagnostic, and the same seed must give byte-identical files.
#   cmake -DGEN=... -DPARSE=... -DOUT=... -P generated_parses.cmake
foreach(var GEN PARSE OUT)
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
file(REMOVE_RECURSE "${OUT}")
