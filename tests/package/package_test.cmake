# Installs Herald from a finished build into a fresh prefix, then configures,
# builds and runs tests/package/consumer against it, as a user's project
# would (find_package(Herald CONFIG) + herald_generate). A second build must
# find nothing to do; after an edit of the Herald source only the generation
# step and what its output changed run again.
# Usage:
#   cmake -DHERALD_BUILD=<build dir> -DCONSUMER=<source dir> -DWORK=<dir>
#         -DEXAMPLE=<examples/payment> -DCXX=<compiler> [-DLAUNCHER=ccache]
#         -P package_test.cmake
# Then the payment example is built as it stands, as a user who copies it
# builds it, and its tests run: the program's output and its regression
# test written with herald::testing (Herald::testing, a golden trace).
cmake_minimum_required(VERSION 3.25)

foreach(required HERALD_BUILD CONSUMER EXAMPLE WORK CXX)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "package_test.cmake: ${required} is not set")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${status}):\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${HERALD_BUILD}
    --prefix ${prefix})
foreach(installed bin/heraldc bin/herald include/herald/runtime.hpp
                  include/herald/version.hpp include/herald/sqlite_backend.hpp
                  include/herald/testing.hpp)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "cmake --install did not install ${installed}")
  endif()
endforeach()
file(GLOB_RECURSE configs ${prefix}/*/HeraldConfig.cmake)
if(NOT configs)
  message(FATAL_ERROR "cmake --install did not install HeraldConfig.cmake")
endif()

# A copy of the consumer, so the edit below leaves the checkout alone.
file(COPY ${CONSUMER}/ DESTINATION ${WORK}/consumer)
set(launcher "")
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
set(build ${WORK}/build)
run("configuring the consumer" ${CMAKE_COMMAND} -S ${WORK}/consumer
    -B ${build} -G Ninja -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX} ${launcher} -DCMAKE_PREFIX_PATH=${prefix})
run("building the consumer" ${CMAKE_COMMAND} --build ${build})
run("running the consumer" ${build}/counter)
if(NOT out STREQUAL "visits: 5\n")
  message(FATAL_ERROR "the consumer printed '${out}', expected 'visits: 5'")
endif()

# A memory-only program links neither SQLite nor the sqlite backend: not on
# its link line, not in the binary.
run("listing the consumer's build commands" ${CMAKE_COMMAND} --build ${build}
    -- -t commands counter)
string(REGEX MATCH "[^\n]* -o counter [^\n]*" link_line "${out}")
if(NOT link_line)
  message(FATAL_ERROR "no link command of counter in:\n${out}")
endif()
string(TOLOWER "${link_line}" link_line_lower)
if(link_line_lower MATCHES "sqlite")
  message(FATAL_ERROR "the memory-only consumer links SQLite:\n${link_line}")
endif()
find_program(NM nm REQUIRED)
run("listing the consumer's symbols" ${NM} ${build}/counter)
if(out MATCHES "sqlite3_")
  message(FATAL_ERROR "the memory-only consumer holds SQLite's code")
endif()

# Configured for a backend it did not link, it stops at start-up with an
# error that names the component to link.
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env HERALD_BACKEND_KIND=sqlite
          HERALD_BACKEND_SQLITE_PATH=${WORK}/unlinked.db ${build}/counter
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0 OR NOT err MATCHES "Herald::runtime_sqlite"
   OR NOT err MATCHES "COMPONENTS sqlite" OR EXISTS ${WORK}/unlinked.db)
  message(FATAL_ERROR "the memory-only consumer configured for sqlite exited "
                      "${status}, printed '${out}' and '${err}'")
endif()

run("building the consumer again" ${CMAKE_COMMAND} --build ${build} -- -v)
if(NOT out MATCHES "no work to do")
  message(FATAL_ERROR "a second build of the consumer did work:\n${out}")
endif()

# Builds compare modification times, which the file system keeps in coarse
# ticks (a few milliseconds here, a second on some): an edit made in the
# tick the last build ended in would look older than what that build wrote.
# Every edit below waits a second first, as a person's would.
function(after_a_tick)
  execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1)
endfunction()

# The schema lock: by default beside the consumer's CMakeLists.txt, written
# by the generation; a change to it generates again (and the rewritten lock
# drops the hand-added line), recompiling nothing.
set(lock ${WORK}/consumer/herald.schema.lock)
if(NOT EXISTS ${lock})
  message(FATAL_ERROR "herald_generate wrote no schema lock at ${lock}")
endif()
file(READ ${lock} written_lock)
after_a_tick()
file(APPEND ${lock} "# touched\n")
run("building the consumer after a lock edit" ${CMAKE_COMMAND} --build ${build}
    -- -v)
if(NOT out MATCHES "HeraldGenerateRun\\.cmake" OR out MATCHES "-c [^\n]*\\.cpp")
  message(FATAL_ERROR "after an edit of the schema lock, the build did not "
                      "regenerate or recompiled:\n${out}")
endif()
file(READ ${lock} rewritten_lock)
if(NOT rewritten_lock STREQUAL written_lock)
  message(FATAL_ERROR "the regenerated schema lock holds\n${rewritten_lock}")
endif()

# A comment changes no generated file: the generation step runs again, the
# compiler does not.
after_a_tick()
file(APPEND ${WORK}/consumer/counter.herald "-- touched\n")
run("building the consumer after an edit" ${CMAKE_COMMAND} --build ${build}
    -- -v)
if(NOT out MATCHES "HeraldGenerateRun\\.cmake" OR out MATCHES "-c [^\n]*\\.cpp")
  message(FATAL_ERROR "after an edit of counter.herald that changes no "
                      "generated file, the build did not regenerate or "
                      "recompiled:\n${out}")
endif()

# A change of a handler's body: regenerated, recompiled, and the program
# does what the new source says.
file(READ ${WORK}/consumer/counter.herald source)
string(REPLACE "count + step" "count + step * 10" source "${source}")
after_a_tick()
file(WRITE ${WORK}/consumer/counter.herald "${source}")
run("building the consumer after a change" ${CMAKE_COMMAND} --build ${build})
run("running the changed consumer" ${build}/counter)
if(NOT out STREQUAL "visits: 50\n")
  message(FATAL_ERROR "the changed consumer printed '${out}', expected "
                      "'visits: 50'")
endif()

# The sqlite component: a second program of the same source asks for it
# (find_package(... COMPONENTS sqlite), herald_generate(... BACKENDS
# sqlite)) and keeps its count across runs in a database.
run("configuring the consumer with the sqlite component" ${CMAKE_COMMAND}
    -S ${WORK}/consumer -B ${build} -DCOUNTER_DURABLE=ON)
run("building the durable consumer" ${CMAKE_COMMAND} --build ${build})
foreach(expected "visits: 50" "visits: 100")
  run("running the durable consumer" ${CMAKE_COMMAND} -E env
      HERALD_BACKEND_KIND=sqlite HERALD_BACKEND_SQLITE_PATH=${WORK}/visits.db
      ${build}/durable_counter)
  if(NOT out STREQUAL "${expected}\n")
    message(FATAL_ERROR "the durable consumer printed '${out}', expected "
                        "'${expected}'")
  endif()
endforeach()

# The payment example, copied as a user would copy it: its own project,
# find_package(Herald ... COMPONENTS sqlite), nothing of Herald's build.
set(example ${WORK}/payment)
file(COPY ${EXAMPLE}/ DESTINATION ${example}/source)
run("configuring the payment example" ${CMAKE_COMMAND} -S ${example}/source
    -B ${example}/build -G Ninja -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX} ${launcher} -DCMAKE_PREFIX_PATH=${prefix})
run("building the payment example" ${CMAKE_COMMAND} --build ${example}/build)
get_filename_component(cmake_bin "${CMAKE_COMMAND}" DIRECTORY)
run("testing the payment example" ${cmake_bin}/ctest --test-dir ${example}/build
    --output-on-failure)
if(NOT out MATCHES "example_payment_trace" OR NOT out MATCHES "100% tests passed")
  message(FATAL_ERROR "the payment example's tests did not all run:\n${out}")
endif()
