cmake_minimum_required(VERSION 3.25)
# herald/bytes.hpp, the byte API for hosts, parses no JSON library: no
# header of nlohmann's, not even through the headers it includes.
#
#   cmake -DCXX=... -DINCLUDES=dir;dir -DHEADER=.../herald/bytes.hpp
#         -P bytes_header.cmake
foreach(var CXX INCLUDES HEADER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "bytes_header.cmake needs -D${var}=...")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/forbidden_includes.cmake)

herald_forbidden_includes("${CXX}" "${INCLUDES}" "${HEADER}"
                          "nlohmann/json.hpp;nlohmann/json_fwd.hpp" problem)
if(problem)
  message(FATAL_ERROR "${problem}")
endif()
message(STATUS "${HEADER}: no nlohmann header")
