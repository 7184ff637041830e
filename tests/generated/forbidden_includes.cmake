# herald_forbidden_includes(CXX INCLUDES HEADER FORBIDDEN OUT): preprocesses
# HEADER alone (`CXX -M`, with the include directories INCLUDES) and sets
# OUT to a message naming each header of FORBIDDEN (paths as written in an
# #include, e.g. nlohmann/json.hpp) among its transitive includes, or to ""
# when there is none. Generated headers and herald/runtime.hpp promise not
# to parse the runtime's implementation or nlohmann's JSON; only a
# preprocessor run over the header on its own shows what it really pulls in.
function(herald_forbidden_includes cxx includes header forbidden out)
  set(flags -std=c++20 -x c++ -M)
  foreach(dir ${includes})
    list(APPEND flags "-I${dir}")
  endforeach()
  execute_process(COMMAND "${cxx}" ${flags} "${header}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE deps ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    set(${out} "${cxx} cannot preprocess ${header}:\n${err}" PARENT_SCOPE)
    return()
  endif()
  set(found "")
  foreach(name ${forbidden})
    string(REPLACE "." "\\." pattern "${name}")
    if(deps MATCHES "[/ ]${pattern}[ \\\n]" OR deps MATCHES "[/ ]${pattern}$")
      list(APPEND found "${name}")
    endif()
  endforeach()
  if(found)
    string(REPLACE ";" ", " found "${found}")
    set(${out} "${header} includes ${found}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()
