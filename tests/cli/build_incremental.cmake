# `heraldc build` rewrites only the files whose content changed: a rebuild
# of unchanged sources touches nothing, and after an edit of one context
# only that context's files get a new modification time. No temporary file
# is left behind.
# Usage:
#   cmake -DHERALDC=<exe> -DINPUT=<directory holding a/one.herald and
#         b/deep/two.herald> -DSCRATCH=<dir> -P build_incremental.cmake
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/build_tree.cmake)

file(REMOVE_RECURSE ${SCRATCH})
file(COPY ${INPUT}/ DESTINATION ${SCRATCH}/sources)
set(out ${SCRATCH}/out)

# Modification times with sub-second precision where `stat` offers them.
function(mtimes dir out_var)
  tree_files(${dir} files)
  set(result "")
  foreach(file IN LISTS files)
    execute_process(COMMAND stat -c %y ${dir}/${file}
                    OUTPUT_VARIABLE time OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND result "${file} ${time}")
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

function(expect_same what before after)
  if(NOT before STREQUAL after)
    string(REPLACE ";" "\n  " b "${before}")
    string(REPLACE ";" "\n  " a "${after}")
    message(FATAL_ERROR "${what}: modification times changed\n  before:\n  "
                        "${b}\n  after:\n  ${a}")
  endif()
endfunction()

build_ok(${SCRATCH}/sources -o ${out})
mtimes(${out} first)
# So that a rewrite would show even with a coarse clock.
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)

build_ok(${SCRATCH}/sources -o ${out})
mtimes(${out} second)
expect_same("a rebuild of unchanged sources" "${first}" "${second}")

# A change to demo.two only: a second file of it.
file(WRITE ${SCRATCH}/sources/b/three.herald
     "context demo.two\n\ntype Discount = { percent: Int }\n")
build_ok(${SCRATCH}/sources -o ${out})
mtimes(${out} third)
list(FILTER first INCLUDE REGEX "^demo/one\\.")
list(FILTER third INCLUDE REGEX "^demo/one\\.")
expect_same("demo.one after an edit of demo.two" "${first}" "${third}")
mtimes(${out} all)
list(FILTER all INCLUDE REGEX "^demo/two\\.h ")
list(FILTER second INCLUDE REGEX "^demo/two\\.h ")
if(all STREQUAL second)
  message(FATAL_ERROR "demo/two.h was not rewritten after an edit of "
                      "demo.two: ${all}")
endif()

tree_files(${out} files)
list(FILTER files INCLUDE REGEX "tmp")
if(files)
  message(FATAL_ERROR "heraldc build left temporary files: ${files}")
endif()
