# herald_generate(TARGET <target> SOURCES <file.herald>... [OUT_DIR <dir>]
#                 [SCHEMA_LOCK <file>] [LOCKED] [BACKENDS <backend>...])
#
# Compiles the Herald sources of one program to C++ at build time with
# `heraldc build`, adds the generated sources and their include directory to
# <target> and links <target> to Herald::runtime. All sources of a program
# go into one call: contexts see each other only when checked together.
#
# Herald::runtime holds the memory backend. BACKENDS names the other
# backends the program may be configured with (backend.kind): `sqlite`
# links Herald::runtime_sqlite, which find_package(Herald CONFIG REQUIRED
# COMPONENTS sqlite) defines; `nats` links Herald::runtime_nats (COMPONENTS
# nats), which brings the sqlite backend with it. A program links no backend it did not ask for,
# and one configured for a backend it did not link stops at start-up with
# an error naming the component.
#
# A build generator must know every source of a target when CMake runs, but
# which files `heraldc build` writes depends on the contexts the sources
# declare (`context a.b` -> a/b.h, a/b.cpp). The list is therefore computed
# at configure time, and every source is a CMAKE_CONFIGURE_DEPENDS, so that
# editing one re-runs CMake and recomputes it:
#
# - with an installed heraldc (find_package(Herald)), by running
#   `heraldc build --list-outputs`, which checks the program and prints the
#   exact list;
# - inside the Herald build itself, where heraldc is a target not yet built
#   when CMake runs, by reading the `context` declarations of the sources
#   (a keyword, so outside comments and doc blocks it starts nothing else).
#
# Either way the build step asks heraldc for the list again after writing the
# files and fails, naming both lists, if it differs from the one CMake used:
# a wrong list can never leave a generated file uncompiled.
#
# The target compiles the program's generated sources as one translation
# unit, <OUT_DIR>.herald_program.cpp, which includes each context's .cpp in
# the sorted order of the list; the per-context .cpp files stay in the
# target's sources, marked HEADER_FILE_ONLY. Every generated unit includes
# the runtime's headers and nlohmann json, so one unit parses them once for
# the whole program instead of once per context. The generated code is
# written for this: each context's definitions live in its own namespace
# (helpers in an anonymous namespace inside it) and no generated file
# defines a macro or a using-directive.
#
# heraldc writes only the files whose content changed, so an edit of one
# context recompiles the program's unit and what includes that context's
# header.
#
# The schema lock (language reference, section 11) is SCHEMA_LOCK, by
# default herald.schema.lock in the calling CMakeLists' source directory;
# heraldc reads and updates it on every generation, and a change of the
# lock (a checkout, an edit) generates again. A missing lock is created
# empty when CMake runs. LOCKED passes `--locked`, so
# a build that would change the lock fails instead (for CI).
include_guard(GLOBAL)

set(_HERALD_GENERATE_RUN ${CMAKE_CURRENT_LIST_DIR}/HeraldGenerateRun.cmake)

# The files `heraldc build` writes for `sources`, read from their context
# declarations.
function(_herald_outputs_from_contexts out_var)
  set(outputs "")
  foreach(source IN LISTS ARGN)
    file(STRINGS ${source} lines)
    set(in_doc FALSE)
    foreach(line IN LISTS lines)
      if(line MATCHES "^[ \t]*---[ \t]*$")
        if(in_doc)
          set(in_doc FALSE)
        else()
          set(in_doc TRUE)
        endif()
      elseif(NOT in_doc AND line MATCHES
             "^[ \t]*context[ \t]+([A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*)")
        string(REPLACE "." "/" stem "${CMAKE_MATCH_1}")
        list(APPEND outputs ${stem}.cpp ${stem}.h)
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES outputs)
  list(SORT outputs)
  set(${out_var} "${outputs}" PARENT_SCOPE)
endfunction()

# The files `heraldc build` writes for `sources`, as heraldc lists them.
function(_herald_outputs_from_heraldc out_var heraldc lock)
  execute_process(COMMAND ${heraldc} --color=never build --list-outputs
                          --schema-lock ${lock} ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE listed
                  ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "herald_generate: heraldc build --list-outputs failed "
                        "(exit ${status}):\n${errors}")
  endif()
  string(STRIP "${listed}" listed)
  string(REPLACE "\n" ";" outputs "${listed}")
  set(${out_var} "${outputs}" PARENT_SCOPE)
endfunction()

function(herald_generate)
  cmake_parse_arguments(PARSE_ARGV 0 HG "LOCKED" "TARGET;OUT_DIR;SCHEMA_LOCK"
                        "SOURCES;BACKENDS")
  if(HG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "herald_generate: unexpected arguments: "
                        "${HG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT HG_TARGET OR NOT TARGET ${HG_TARGET})
    message(FATAL_ERROR "herald_generate: TARGET must name an existing target "
                        "(got '${HG_TARGET}')")
  endif()
  if(NOT HG_SOURCES)
    message(FATAL_ERROR "herald_generate: no SOURCES given")
  endif()
  if(NOT TARGET Herald::heraldc OR NOT TARGET Herald::runtime)
    message(FATAL_ERROR "herald_generate: Herald::heraldc and Herald::runtime "
                        "are not defined; use find_package(Herald CONFIG)")
  endif()
  set(backend_targets "")
  foreach(backend IN LISTS HG_BACKENDS)
    if(backend STREQUAL "memory")
      continue()  # in Herald::runtime
    elseif(NOT backend STREQUAL "sqlite" AND NOT backend STREQUAL "nats")
      message(FATAL_ERROR "herald_generate: BACKENDS: unknown backend "
                          "'${backend}' (expected memory, sqlite or nats)")
    elseif(NOT TARGET Herald::runtime_${backend})
      message(FATAL_ERROR "herald_generate: BACKENDS ${backend} needs "
                          "Herald::runtime_${backend}: find_package(Herald "
                          "CONFIG REQUIRED COMPONENTS ${backend})")
    endif()
    list(APPEND backend_targets Herald::runtime_${backend})
  endforeach()
  if(NOT HG_OUT_DIR)
    set(HG_OUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/herald/${HG_TARGET})
  endif()
  get_filename_component(out_dir "${HG_OUT_DIR}" ABSOLUTE
                         BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})

  if(NOT HG_SCHEMA_LOCK)
    set(HG_SCHEMA_LOCK ${CMAKE_CURRENT_SOURCE_DIR}/herald.schema.lock)
  endif()
  get_filename_component(lock "${HG_SCHEMA_LOCK}" ABSOLUTE
                         BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  # The build depends on the lock, so it must exist: an empty file is an
  # empty lock, which the first generation fills.
  if(NOT EXISTS "${lock}")
    file(TOUCH "${lock}")
  endif()

  set(sources "")
  foreach(source IN LISTS HG_SOURCES)
    get_filename_component(absolute "${source}" ABSOLUTE
                           BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND sources ${absolute})
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${sources})

  get_target_property(imported Herald::heraldc IMPORTED)
  if(imported)
    get_target_property(heraldc Herald::heraldc LOCATION)
    _herald_outputs_from_heraldc(outputs ${heraldc} ${lock} ${sources})
  else()
    _herald_outputs_from_contexts(outputs ${sources})
  endif()
  if(NOT outputs)
    message(FATAL_ERROR "herald_generate: the sources of ${HG_TARGET} declare "
                        "no context")
  endif()
  list(TRANSFORM outputs PREPEND ${out_dir}/ OUTPUT_VARIABLE files)

  # The stamp is the command's output; the generated files are byproducts, so
  # one that heraldc left unchanged does not make the command run again.
  set(stamp ${out_dir}.stamp)
  list(JOIN sources "@@" sources_arg)
  list(JOIN outputs "@@" outputs_arg)
  add_custom_command(
    OUTPUT ${stamp}
    BYPRODUCTS ${files}
    COMMAND ${CMAKE_COMMAND} -DHERALDC=$<TARGET_FILE:Herald::heraldc>
            -DSOURCES=${sources_arg} -DOUT_DIR=${out_dir}
            -DEXPECTED=${outputs_arg} -DSTAMP=${stamp}
            -DSCHEMA_LOCK=${lock} -DLOCKED=${HG_LOCKED}
            -P ${_HERALD_GENERATE_RUN}
    DEPENDS ${sources} ${lock} Herald::heraldc $<TARGET_FILE:Herald::heraldc>
            ${_HERALD_GENERATE_RUN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    COMMENT "Generating C++ for ${HG_TARGET} from its Herald sources"
    VERBATIM)
  set(units ${files})
  list(FILTER units INCLUDE REGEX "\\.cpp$")
  set(program ${out_dir}.herald_program.cpp)
  set(content "// generated by herald_generate for ${HG_TARGET}; do not edit\n")
  foreach(output IN LISTS outputs)
    if(output MATCHES "\\.cpp$")
      string(APPEND content "#include \"${output}\"\n")
    endif()
  endforeach()
  # Written only when the content changes, so re-running CMake recompiles
  # nothing.
  file(CONFIGURE OUTPUT ${program} CONTENT "${content}" @ONLY)
  set_source_files_properties(${units} PROPERTIES HEADER_FILE_ONLY TRUE)
  target_sources(${HG_TARGET} PRIVATE ${stamp} ${files} ${program})
  target_include_directories(${HG_TARGET} PUBLIC ${out_dir})
  target_link_libraries(${HG_TARGET} PUBLIC Herald::runtime ${backend_targets})
endfunction()
