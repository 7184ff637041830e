# `heraldc fmt` keeps CRLF files CRLF. The CRLF inputs are made here from
# LF files, so no checkout setting can change what is tested. Usage:
#   cmake -DHERALDC=<exe> -DCANONICAL=<relative .herald> -DUNFORMATTED=<relative .herald>
#         -DSCRATCH=<dir> -P fmt_crlf.cmake
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/heraldc.cmake)

file(MAKE_DIRECTORY ${SCRATCH})
function(write_crlf from to)
  file(READ ${from} text)
  string(REPLACE "\n" "\r\n" text "${text}")
  file(WRITE ${to} "${text}")
endfunction()

# execute_process drops the `\r` of captured output, so the bytes go through
# a file and are compared in hex.
function(run_fmt out_var status_var)
  set(path ${SCRATCH}/stdout)
  execute_process(COMMAND ${HERALDC} fmt ${ARGN} RESULT_VARIABLE status
                  OUTPUT_FILE ${path} ERROR_QUIET)
  file(READ ${path} out HEX)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${status_var} "${status}" PARENT_SCOPE)
endfunction()
function(read_hex path out_var)
  file(READ ${path} out HEX)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# A canonical file with CRLF line ends is canonical: --check passes and fmt
# prints it unchanged.
set(canonical ${SCRATCH}/canonical_crlf.herald)
write_crlf(${CANONICAL} ${canonical})
run_heraldc(out err status fmt --check ${canonical})
if(NOT status EQUAL 0 OR NOT out STREQUAL "" OR NOT err STREQUAL "")
  message(FATAL_ERROR "fmt --check on a canonical CRLF file: exit ${status}\n"
                      "--- stdout ---\n${out}--- stderr ---\n${err}")
endif()
read_hex(${canonical} expected)
run_fmt(out status ${canonical})
if(NOT status EQUAL 0 OR NOT out STREQUAL expected)
  message(FATAL_ERROR "fmt on a canonical CRLF file changed it: exit ${status}")
endif()

# An unformatted CRLF file: the canonical form has CRLF on every line and is
# the LF canonical form otherwise; --write keeps CRLF too.
set(unformatted ${SCRATCH}/unformatted_crlf.herald)
write_crlf(${UNFORMATTED} ${unformatted})
set(lf_canonical ${SCRATCH}/lf_canonical.herald)
execute_process(COMMAND ${HERALDC} fmt ${UNFORMATTED} RESULT_VARIABLE status
                OUTPUT_FILE ${lf_canonical})
read_hex(${lf_canonical} lf)
if(NOT status EQUAL 0 OR lf MATCHES "^(..)*0d")
  message(FATAL_ERROR "fmt on an LF file: exit ${status} or a carriage return")
endif()
set(want_file ${SCRATCH}/want.herald)
write_crlf(${lf_canonical} ${want_file})
read_hex(${want_file} want)
run_fmt(out status ${unformatted})
if(NOT status EQUAL 0 OR NOT out STREQUAL want)
  message(FATAL_ERROR "fmt on an unformatted CRLF file: exit ${status}, "
                      "expected the LF canonical form with CRLF line ends")
endif()
execute_process(COMMAND ${HERALDC} fmt --write ${unformatted}
                RESULT_VARIABLE status)
read_hex(${unformatted} written)
if(NOT status EQUAL 0 OR NOT written STREQUAL want)
  message(FATAL_ERROR "fmt --write on a CRLF file: exit ${status}, or the "
                      "file is not the canonical form with CRLF line ends")
endif()
