# Fails when a test case of a doctest executable whose cases ctest discovers
# one by one (doctest_discover_tests) has a name ctest cannot hold: a ';'
# splits it into two entries that each run no case, so the case never runs.
# Usage: cmake -DPROGRAM=<doctest executable> -P discoverable_names.cmake
execute_process(COMMAND ${PROGRAM} --list-test-cases --no-version
                RESULT_VARIABLE status OUTPUT_VARIABLE listed)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --list-test-cases failed (exit ${status})")
endif()
string(REGEX MATCHALL "[^\n]*;[^\n]*" split "${listed}")
if(split)
  message(FATAL_ERROR "test case names with ';' (ctest would run none of "
                      "them): ${split}")
endif()
string(REGEX MATCHALL "\n" lines "${listed}")
list(LENGTH lines count)
message(STATUS "${count} lines of test case names, none with ';'")
