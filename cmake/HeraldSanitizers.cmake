# HERALD_SANITIZE applies to every target so that sanitized libraries and
# tests link consistently.
#
# ThreadSanitizer is the exception: its tests exercise the runtime's threads
# only, and the rest of the tree (lexer, parser, checker, code generation,
# heraldc) is single-threaded and runs there only as the build-time code
# generator. Those targets are compiled without the sanitizer and without
# optimisation or debug information, which halves the cost of that build;
# everything under runtime/ and tests/runtime/ (the generated program too)
# is instrumented. The sanitizer's runtime is linked into every executable,
# which is harmless for code that is not instrumented.
set(HERALD_TSAN_DIRS runtime tests/runtime)

function(_herald_tsan_instrument dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  set(instrumented FALSE)
  foreach(root IN LISTS HERALD_TSAN_DIRS)
    cmake_path(IS_PREFIX root "${dir}" NORMALIZE is_under)
    if(is_under)
      set(instrumented TRUE)
    endif()
  endforeach()
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
      continue()
    endif()
    if(instrumented)
      target_compile_options(${target} PRIVATE -fsanitize=thread
                             -fno-omit-frame-pointer -fno-sanitize-recover=all)
    else()
      target_compile_options(${target} PRIVATE -O0 -g0)
    endif()
  endforeach()
  foreach(subdir IN LISTS subdirs)
    _herald_tsan_instrument(${subdir})
  endforeach()
endfunction()

function(_herald_tsan_instrument_tree)
  list(TRANSFORM HERALD_TSAN_DIRS PREPEND ${CMAKE_SOURCE_DIR}/)
  _herald_tsan_instrument(${CMAKE_SOURCE_DIR})
endfunction()

if(HERALD_SANITIZE STREQUAL "thread")
  add_link_options(-fsanitize=thread)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR}
                 CALL _herald_tsan_instrument_tree)
elseif(HERALD_SANITIZE)
  add_compile_options(-fsanitize=${HERALD_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${HERALD_SANITIZE})
endif()
