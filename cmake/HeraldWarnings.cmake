# Warnings for Herald's own code; generated scanner/parser code gets a
# quieter set (see lang/CMakeLists.txt).
function(herald_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
                         -Wno-missing-field-initializers)
  # GCC 12 reports impossible overlaps in libstdc++'s inlined std::string
  # concatenation at -O3 (GCC PR 105651), so -Wrestrict cannot be trusted.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
     AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
     AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(HERALD_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
