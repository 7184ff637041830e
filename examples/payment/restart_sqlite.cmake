# The PaymentConfirmed example on the sqlite backend, killed midway and run
# again: the second run skips the orders the first one paid, the runtime's
# recovery makes the deliveries the kill interrupted, and the program checks
# that every room holds exactly one payment message (it exits 1 otherwise).
#   cmake -DPROGRAM=payment -DDB=path -P restart_sqlite.cmake
foreach(suffix "" "-wal" "-shm" ".lock")
  file(REMOVE "${DB}${suffix}")
endforeach()
set(env HERALD_BACKEND_KIND=sqlite "HERALD_BACKEND_SQLITE_PATH=${DB}")

execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${PROGRAM} --kill-after-payments 3
                RESULT_VARIABLE first OUTPUT_VARIABLE first_out ERROR_VARIABLE first_err)
message("first run (killed):\n${first_out}${first_err}")
if(first EQUAL 0 OR NOT first_out MATCHES "killed with SIGKILL after 3 payments")
  message(FATAL_ERROR "the first run was not killed after 3 payments: ${first}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${PROGRAM}
                RESULT_VARIABLE second OUTPUT_VARIABLE second_out ERROR_VARIABLE second_err)
message("second run:\n${second_out}${second_err}")
if(NOT second EQUAL 0)
  message(FATAL_ERROR "the second run failed (${second}): a room holds a duplicate or no message, or a dead letter is left")
endif()
string(REGEX MATCHALL "paid in an earlier run" skipped "${second_out}")
list(LENGTH skipped n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "the second run skipped ${n} orders, expected the 3 the first run paid")
endif()
