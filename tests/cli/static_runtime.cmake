# heraldc, linked with the C++ runtime, fmt and terminfo statically (see
# tools/heraldc/CMakeLists.txt), needs no shared library but the C
# library's: its dynamic section names no libstdc++, libgcc_s, libfmt or
# libtinfo, and it still runs.
#
#   cmake -DHERALDC=... -DREADELF=... -P static_runtime.cmake
execute_process(COMMAND ${READELF} --dynamic ${HERALDC}
                RESULT_VARIABLE status OUTPUT_VARIABLE dynamic
                ERROR_VARIABLE error)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "readelf --dynamic ${HERALDC} failed: ${error}")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]+\\]" needed "${dynamic}")
if(NOT needed MATCHES "libc\\.so")
  message(FATAL_ERROR "no NEEDED entries read (libc expected):\n${dynamic}")
endif()
foreach(library IN ITEMS libstdc++ libgcc_s libfmt libtinfo)
  string(FIND "${needed}" "[${library}." at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR
            "heraldc loads ${library} as a shared library:\n${needed}")
  endif()
endforeach()
execute_process(COMMAND ${HERALDC} --version RESULT_VARIABLE status
                OUTPUT_VARIABLE version ERROR_VARIABLE error)
if(NOT status EQUAL 0 OR NOT version MATCHES "^heraldc ")
  message(FATAL_ERROR "heraldc --version: exit ${status}\n${version}${error}")
endif()
string(REGEX REPLACE "\\(NEEDED\\)[^[]*\\[([^]]+)\\]" "\\1" names "${needed}")
message(STATUS "heraldc needs only: ${names}")
