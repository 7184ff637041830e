# Shared by the `heraldc build` test scripts.
include(${CMAKE_CURRENT_LIST_DIR}/heraldc.cmake)

# Runs `heraldc build` and stops the test unless it exits 0 silently. The
# schema lock is kept in SCRATCH, never beside the sources.
function(build_ok)
  run_heraldc(out err status build --schema-lock ${SCRATCH}/herald.schema.lock
              ${ARGN})
  if(NOT status EQUAL 0 OR NOT out STREQUAL "" OR NOT err STREQUAL "")
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "heraldc build ${shown}: exit ${status}, expected 0 "
                        "and no output\n--- stdout ---\n${out}--- stderr "
                        "---\n${err}")
  endif()
endfunction()

# The files under `dir`, relative and sorted.
function(tree_files dir out_var)
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${dir} ${dir}/*)
  list(SORT files)
  set(${out_var} "${files}" PARENT_SCOPE)
endfunction()

# Every file under `dir` with its content, as one string to compare.
function(tree_text dir out_var)
  tree_files(${dir} files)
  set(text "")
  foreach(file IN LISTS files)
    file(READ ${dir}/${file} content)
    string(APPEND text "=== ${file}\n${content}")
  endforeach()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()
