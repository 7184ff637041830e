# ctest driver: generates the schema of a small project in FORMAT twice
# (the same seed must give the same bytes) and runs the format's compiler
# on it, which must succeed without printing anything and write the
# compiled schema. Prints "skipped: ..." (the test's skip pattern) when that
# compiler is not installed.
#   cmake -DGEN=... -DHERALDC=... -DFORMAT=fbs|proto|capnp|herald-schema
#         -DOUT=... -P compiles.cmake
foreach(var GEN HERALDC FORMAT OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()

if(FORMAT STREQUAL "herald-schema")
  set(compiler "${HERALDC}")
elseif(FORMAT STREQUAL "fbs")
  find_program(compiler flatc)
elseif(FORMAT STREQUAL "proto")
  find_program(compiler protoc)
elseif(FORMAT STREQUAL "capnp")
  find_program(compiler capnp)
else()
  message(FATAL_ERROR "unknown FORMAT '${FORMAT}'")
endif()
if(NOT compiler)
  message("skipped: no compiler for ${FORMAT} is installed "
          "(apt-get install flatbuffers-compiler protobuf-compiler capnproto)")
  return()
endif()

file(REMOVE_RECURSE "${OUT}")
foreach(copy a b)
  execute_process(COMMAND "${GEN}" --lines 20000 --seed 42 --format ${FORMAT}
                          --out "${OUT}/${copy}"
                  RESULT_VARIABLE status OUTPUT_QUIET)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "herald_bench_gen --format ${FORMAT} failed (${status})")
  endif()
endforeach()
file(GLOB_RECURSE files RELATIVE "${OUT}/a" "${OUT}/a/*")
list(SORT files)
if(files STREQUAL "")
  message(FATAL_ERROR "herald_bench_gen --format ${FORMAT} wrote nothing")
endif()
foreach(f IN LISTS files)
  file(SHA256 "${OUT}/a/${f}" hash_a)
  file(SHA256 "${OUT}/b/${f}" hash_b)
  if(NOT hash_a STREQUAL hash_b)
    message(FATAL_ERROR "the same seed wrote a different ${f}")
  endif()
endforeach()

set(dir "${OUT}/a")
if(FORMAT STREQUAL "herald-schema")
  set(command "${compiler}" check --color=never "${dir}")
elseif(FORMAT STREQUAL "fbs")
  set(command "${compiler}" -b --schema -o "${OUT}/out" "${dir}/schema.fbs")
elseif(FORMAT STREQUAL "proto")
  set(command "${compiler}" "--descriptor_set_out=${OUT}/out.pb"
              "-I${dir}" "${dir}/schema.proto")
else()
  # capnp warns when PWD is stale, as ctest leaves it.
  set(command "${CMAKE_COMMAND}" -E env --unset=PWD "${compiler}" compile "-o-"
              "${dir}/schema.capnp")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE status
                OUTPUT_FILE "${OUT}/stdout" ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT err STREQUAL "")
  string(SUBSTRING "${err}" 0 4000 excerpt)
  message(FATAL_ERROR "${command} rejected the generated schema "
                      "(exit ${status}):\n${excerpt}")
endif()
file(SIZE "${OUT}/stdout" printed)
if(FORMAT STREQUAL "capnp")
  # The compiled schema itself goes to stdout.
  set(compiled "${OUT}/stdout")
elseif(NOT printed EQUAL 0)
  file(READ "${OUT}/stdout" out LIMIT 4000)
  message(FATAL_ERROR "${command} printed:\n${out}")
elseif(FORMAT STREQUAL "fbs")
  set(compiled "${OUT}/out/schema.bfbs")
elseif(FORMAT STREQUAL "proto")
  set(compiled "${OUT}/out.pb")
endif()
if(DEFINED compiled)
  if(NOT EXISTS "${compiled}")
    message(FATAL_ERROR "${command} wrote no ${compiled}")
  endif()
  file(SIZE "${compiled}" size)
  if(size EQUAL 0)
    message(FATAL_ERROR "${command} wrote an empty ${compiled}")
  endif()
endif()
file(REMOVE_RECURSE "${OUT}")
