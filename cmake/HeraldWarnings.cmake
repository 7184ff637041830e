# Warnings for Herald's own code; generated scanner/parser code gets a
# quieter set (see lang/CMakeLists.txt).
function(herald_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
                         -Wno-missing-field-initializers)
  if(HERALD_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
