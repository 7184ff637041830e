# The shape of generated C++ (codegen/README.md, "Layout"): what a careful
# hand-written file would not have.
#
# herald_generated_style(FILE OUT): sets OUT to a message naming each line
# of FILE longer than 100 columns, each namespace block with nothing in it
# and each #include written twice, or to "" when there is none.
function(herald_generated_style file out)
  set(problems "")
  file(STRINGS "${file}" long LENGTH_MINIMUM 101)
  foreach(line ${long})
    string(LENGTH "${line}" n)
    string(APPEND problems "\n  a line of ${n} columns: ${line}")
  endforeach()
  file(READ "${file}" text)
  string(REGEX MATCHALL "namespace [^\n]*{\n\n*}  // namespace[^\n]*" empty
               "${text}")
  foreach(block ${empty})
    string(APPEND problems "\n  an empty namespace block: ${block}")
  endforeach()
  file(STRINGS "${file}" includes REGEX "^#include ")
  set(seen "")
  foreach(line ${includes})
    if(line IN_LIST seen)
      string(APPEND problems "\n  included twice: ${line}")
    endif()
    list(APPEND seen "${line}")
  endforeach()
  if(problems)
    set(${out} "${file}:${problems}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# herald_unused_attributes(CXX FLAGS SOURCES OUT): every [[maybe_unused]] of
# SOURCES is needed. Each source is copied without them and the copies are
# compiled as one unit (the front end's warnings are the same, and the
# runtime headers are parsed once), warnings on and not errors: each
# attribute on a parameter or a function must be answered by one
# -Wunused-parameter or -Wunused-function warning, or OUT names the
# difference. An attribute on a local (`const auto x = ...`) only bounds the
# -Wunused-variable warnings from above: the compilers do not warn about an
# unused local of a class type with a constructor or destructor of its own
# (a String, an opaque id), which the generated code still marks. Compiling
# each source as it is with -Werror shows that none is missing.
function(herald_unused_attributes cxx flags sources out)
  set(expected 0)
  set(local_attributes 0)
  set(copies "")
  set(unity_text "")
  foreach(source ${sources})
    file(READ "${source}" text)
    string(REGEX MATCHALL "\\[\\[maybe_unused\\]\\] " attributes "${text}")
    list(LENGTH attributes all)
    string(REGEX MATCHALL "\\[\\[maybe_unused\\]\\] const auto " locals
                 "${text}")
    list(LENGTH locals n_locals)
    math(EXPR expected "${expected} + ${all} - ${n_locals}")
    math(EXPR local_attributes "${local_attributes} + ${n_locals}")
    string(REPLACE "[[maybe_unused]] " "" stripped "${text}")
    get_filename_component(dir "${source}" DIRECTORY)
    get_filename_component(name "${source}" NAME_WE)
    set(copy "${dir}/${name}.no_attributes.cxx")
    file(WRITE "${copy}" "${stripped}")
    list(APPEND copies "${copy}")
    string(APPEND unity_text "#include \"${copy}\"\n")
  endforeach()
  list(GET sources 0 first)
  get_filename_component(dir "${first}" DIRECTORY)
  set(unity "${dir}/no_attributes.unity.cxx")
  file(WRITE "${unity}" "${unity_text}")
  execute_process(COMMAND "${cxx}" ${flags} -x c++ "${unity}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE text ERROR_VARIABLE err)
  file(REMOVE ${copies} "${unity}")
  if(NOT status EQUAL 0)
    set(${out} "${sources} do not compile without their attributes:\n${err}"
        PARENT_SCOPE)
    return()
  endif()
  string(REGEX MATCHALL "\\[-Wunused-(parameter|function)\\]" warnings "${err}")
  list(LENGTH warnings found)
  string(REGEX MATCHALL "\\[-Wunused-(but-set-)?variable\\]" variables "${err}")
  list(LENGTH variables found_locals)
  if(NOT found EQUAL expected)
    set(${out} "the sources have ${expected} [[maybe_unused]] on parameters and functions but ${found} unused ones without them:\n${err}"
        PARENT_SCOPE)
  elseif(found_locals GREATER local_attributes)
    set(${out} "the sources have ${local_attributes} [[maybe_unused]] on locals but ${found_locals} unused locals without them:\n${err}"
        PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()
