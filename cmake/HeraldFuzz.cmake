# libFuzzer builds of the fuzz targets in tests/fuzz.
#
# With HERALD_FUZZ=ON (clang only, e.g. -DCMAKE_CXX_COMPILER=clang++-14)
# every target is compiled with libFuzzer's coverage instrumentation and
# ASan+UBSan, so the libraries a fuzz target calls report what the fuzzer
# finds, and the fuzz targets link libFuzzer's main. Without it the same
# targets link tests/fuzz/replay_main.cpp and replay their corpus as ctests.
option(HERALD_FUZZ "Build the fuzz targets with libFuzzer (needs clang)" OFF)

if(HERALD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR
      "HERALD_FUZZ needs clang: -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  if(HERALD_SANITIZE)
    message(FATAL_ERROR
      "HERALD_FUZZ brings its own sanitizers; leave HERALD_SANITIZE empty")
  endif()
  # Recovery off: a UBSan report must end the run so libFuzzer records it.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                      -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()

# herald_fuzz_target(NAME SOURCES... LIBS...): one LLVMFuzzerTestOneInput
# in an executable that is a libFuzzer binary in a fuzz build and a corpus
# replayer otherwise.
function(herald_fuzz_target name)
  cmake_parse_arguments(F "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${F_SOURCES})
  target_link_libraries(${name} PRIVATE ${F_LIBS})
  herald_warnings(${name})
  if(HERALD_FUZZ)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  else()
    target_sources(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/fuzz/replay_main.cpp)
  endif()
endfunction()
