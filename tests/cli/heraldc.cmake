# Shared by the CLI test scripts: runs ${HERALDC} with the given arguments
# and returns its stdout, stderr and exit status.
function(run_heraldc out_var err_var status_var)
  execute_process(COMMAND ${HERALDC} ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${err_var} "${err}" PARENT_SCOPE)
  set(${status_var} "${status}" PARENT_SCOPE)
endfunction()
