cmake_minimum_required(VERSION 3.25)
# Every program heraldc accepts builds: `heraldc build` on INPUTS, then every
# generated source compiled by CXX with the project's warnings as errors
# (each source includes its own header first, so every header is compiled
# on its own too).
#
#   cmake -DHERALDC=... -DCXX=... -DINCLUDES=dir;dir -DWORK=... \
#         -DINPUTS=dir-or-file;... | -DGEN=herald_bench_gen -DGEN_LINES=N
#         | -DDOC=file.md  [-DUNITY=ON] [-DCHECK_HEADERS=ON] [-DCHECK_STYLE=ON]
#         [-DPCH=header (its .gch beside it, made with -std=c++20)]
#         -P compile_program.cmake
#
# With UNITY, the sources of a program are compiled as one translation unit
# that includes them all (their helpers sit in each context's namespace), so
# the runtime and JSON headers are parsed once per program, not per context.
#
# With CHECK_HEADERS, each generated header is also preprocessed on its own
# and fails if it includes nlohmann/json.hpp or herald/runtime.hpp,
# directly or through the headers it includes (codegen/README.md, "Files").
#
# With CHECK_STYLE, each generated file keeps to the layout a careful
# hand-written one has (generated_style.cmake: lines within 100 columns, no
# empty namespace block, no #include twice), and, unless UNITY, the sources
# copied without their [[maybe_unused]] attributes and compiled as one unit
# warn once per attribute: each marks a parameter, local or function that is
# in fact unused.
#
# With DOC, each whole program of the Markdown file (a ```herald block whose
# first line starts with `context`) is built and compiled on its own.
foreach(var HERALDC CXX INCLUDES WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compile_program.cmake needs -D${var}=...")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/forbidden_includes.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/generated_style.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

if(DEFINED GEN)
  # A synthetic project from the bench generator.
  execute_process(COMMAND "${GEN}" --lines ${GEN_LINES} --out "${WORK}/src"
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "the bench generator failed:\n${err}")
  endif()
  set(INPUTS "${WORK}/src")
endif()

set(flags -std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only)
# PCH: a header precompiled with this -std (CMakeLists.txt), force-included
# in every compile of a source.
set(pch_flags "")
if(DEFINED PCH AND NOT PCH STREQUAL "")
  set(pch_flags -Winvalid-pch -include "${PCH}")
endif()
list(APPEND flags ${pch_flags})
foreach(dir ${INCLUDES})
  list(APPEND flags "-I${dir}")
endforeach()
set(total 0)
set(failed 0)

# Builds one program into OUT and compiles what it wrote.
function(build_and_compile out)
  # The schema lock goes beside the output, never into the sources.
  execute_process(COMMAND "${HERALDC}" --color=never build
                          --schema-lock "${out}.schema.lock" ${ARGN} -o "${out}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "heraldc build ${ARGN} failed (exit ${status}):\n${text}${err}")
  endif()
  if(CHECK_HEADERS)
    file(GLOB_RECURSE headers "${out}/*.h")
    list(SORT headers)
    foreach(header ${headers})
      math(EXPR total "${total} + 1")
      herald_forbidden_includes("${CXX}" "${INCLUDES};${out}" "${header}"
                                "nlohmann/json.hpp;herald/runtime.hpp" problem)
      if(problem)
        math(EXPR failed "${failed} + 1")
        message("a generated header parses too much (from ${ARGN}): ${problem}")
      endif()
    endforeach()
  endif()
  file(GLOB_RECURSE sources "${out}/*.cpp")
  list(SORT sources)
  if(CHECK_STYLE)
    file(GLOB_RECURSE files "${out}/*.h" "${out}/*.cpp")
    list(SORT files)
    foreach(file ${files})
      math(EXPR total "${total} + 1")
      herald_generated_style("${file}" problem)
      if(problem)
        math(EXPR failed "${failed} + 1")
        message("generated code out of shape (from ${ARGN}): ${problem}")
      endif()
    endforeach()
    if(NOT UNITY)
      set(lenient -std=c++20 -Wall -Wextra -Wpedantic -fsyntax-only ${pch_flags}
                  "-I${out}")
      foreach(dir ${INCLUDES})
        list(APPEND lenient "-I${dir}")
      endforeach()
      math(EXPR total "${total} + 1")
      herald_unused_attributes("${CXX}" "${lenient}" "${sources}" problem)
      if(problem)
        math(EXPR failed "${failed} + 1")
        message("a [[maybe_unused]] too many (from ${ARGN}): ${problem}")
      endif()
    endif()
  endif()
  list(LENGTH sources count)
  if(count EQUAL 0)
    message(FATAL_ERROR "heraldc build wrote no source for ${ARGN}")
  endif()
  if(UNITY)
    set(unity "${out}.unity.cpp")
    set(text "")
    foreach(source ${sources})
      string(APPEND text "#include \"${source}\"\n")
    endforeach()
    file(WRITE "${unity}" "${text}")
    set(sources "${unity}")
  endif()
  foreach(source ${sources})
    math(EXPR total "${total} + 1")
    execute_process(COMMAND "${CXX}" ${flags} "-I${out}" "${source}"
                    RESULT_VARIABLE status OUTPUT_VARIABLE text ERROR_VARIABLE err)
    if(NOT status EQUAL 0)
      math(EXPR failed "${failed} + 1")
      file(RELATIVE_PATH rel "${out}" "${source}")
      string(SUBSTRING "${err}" 0 6000 err)
      message("${CXX} rejects the generated ${rel} (from ${ARGN}):\n${text}${err}")
    endif()
  endforeach()
  set(total ${total} PARENT_SCOPE)
  set(failed ${failed} PARENT_SCOPE)
endfunction()

if(DEFINED DOC)
  file(READ "${DOC}" rest)
  set(programs 0)
  while(TRUE)
    string(FIND "${rest}" "```herald\n" open)
    if(open EQUAL -1)
      break()
    endif()
    math(EXPR open "${open} + 10")
    string(SUBSTRING "${rest}" ${open} -1 rest)
    string(FIND "${rest}" "```" close)
    string(SUBSTRING "${rest}" 0 ${close} code)
    math(EXPR close "${close} + 3")
    string(SUBSTRING "${rest}" ${close} -1 rest)
    if(NOT code MATCHES "^context ")
      continue()
    endif()
    math(EXPR programs "${programs} + 1")
    file(WRITE "${WORK}/src/program${programs}/program.herald" "${code}")
    build_and_compile("${WORK}/gen/program${programs}" "${WORK}/src/program${programs}")
  endwhile()
  if(programs EQUAL 0)
    message(FATAL_ERROR "no whole programs in ${DOC}")
  endif()
else()
  build_and_compile("${WORK}/gen" ${INPUTS})
endif()

math(EXPR passed "${total} - ${failed}")
message(STATUS "generated files: ${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} generated file(s) fail with ${CXX}")
endif()
