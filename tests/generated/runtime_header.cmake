cmake_minimum_required(VERSION 3.25)
# herald/runtime.hpp declares the host API only: no friend (the runtime's
# own parts reach RuntimeImpl through Runtime::impl()), and no
# nlohmann/json.hpp, not even through the headers it includes.
#
#   cmake -DCXX=... -DINCLUDES=dir;dir -DHEADER=.../herald/runtime.hpp
#         -P runtime_header.cmake
foreach(var CXX INCLUDES HEADER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "runtime_header.cmake needs -D${var}=...")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/forbidden_includes.cmake)

file(READ "${HEADER}" text)
string(REGEX MATCHALL "[^\n]*[^A-Za-z0-9_]friend[^A-Za-z0-9_][^\n]*" friends
       "${text}")
if(friends)
  string(REPLACE ";" "\n" friends "${friends}")
  message(FATAL_ERROR "${HEADER} declares friends:\n${friends}")
endif()
herald_forbidden_includes("${CXX}" "${INCLUDES}" "${HEADER}"
                          "nlohmann/json.hpp" problem)
if(problem)
  message(FATAL_ERROR "${problem}")
endif()
message(STATUS "${HEADER}: no friend, no nlohmann/json.hpp")
