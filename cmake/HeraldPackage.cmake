# Installation: heraldc, the herald operator tool, herald_runtime with its
# public headers, the test kit herald_testing, the backend libraries, and the CMake package
# find_package(Herald CONFIG) finds (HeraldConfig.cmake.in). Each backend
# library is a component with an export set of its own, so a consumer that
# does not ask for it needs none of its dependencies.
# Inside this build the same names exist as aliases, so herald_generate()
# (HeraldGenerate.cmake) reads the same in the examples as in a user's
# project.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(Herald::runtime ALIAS herald_runtime)
add_library(Herald::runtime_sqlite ALIAS herald_runtime_sqlite)
if(HERALD_HAVE_NATS)
  add_library(Herald::runtime_nats ALIAS herald_runtime_nats)
endif()
add_library(Herald::testing ALIAS herald_testing)
# HERALD_HERALDC names a heraldc built elsewhere from the same sources, which
# herald_generate() then runs instead of building this tree's: the
# ThreadSanitizer build of the runtime's tests uses the main build's.
if(HERALD_HERALDC)
  add_executable(Herald::heraldc IMPORTED GLOBAL)
  set_target_properties(Herald::heraldc PROPERTIES IMPORTED_LOCATION
                                                   ${HERALD_HERALDC})
else()
  add_executable(Herald::heraldc ALIAS heraldc)
endif()
add_executable(Herald::herald ALIAS herald)
include(${CMAKE_CURRENT_LIST_DIR}/HeraldGenerate.cmake)

set(HERALD_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Herald)

set_target_properties(herald_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(herald_runtime_sqlite PROPERTIES EXPORT_NAME runtime_sqlite)
set_target_properties(herald_testing PROPERTIES EXPORT_NAME testing)
install(TARGETS herald_runtime herald_testing heraldc herald EXPORT HeraldTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS herald_runtime_sqlite EXPORT HeraldSqliteTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The nats backend, where the NATS C client was found: component `nats`.
# Its link interface names the client by its pkg-config target, which
# HeraldConfig.cmake defines again in the consumer.
if(HERALD_HAVE_NATS)
  set_target_properties(herald_runtime_nats PROPERTIES EXPORT_NAME runtime_nats)
  install(TARGETS herald_runtime_nats EXPORT HeraldNatsTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT HeraldNatsTargets NAMESPACE Herald::
          DESTINATION ${HERALD_INSTALL_CMAKEDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/herald
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT HeraldTargets NAMESPACE Herald::
        DESTINATION ${HERALD_INSTALL_CMAKEDIR})
install(EXPORT HeraldSqliteTargets NAMESPACE Herald::
        DESTINATION ${HERALD_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/HeraldConfig.cmake.in
  ${PROJECT_BINARY_DIR}/HeraldConfig.cmake
  INSTALL_DESTINATION ${HERALD_INSTALL_CMAKEDIR})
# The generated C++ checks HERALD_RUNTIME_VERSION itself; the package
# version only has to keep 0.x releases apart.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/HeraldConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/HeraldConfig.cmake
              ${PROJECT_BINARY_DIR}/HeraldConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/HeraldGenerate.cmake
              ${CMAKE_CURRENT_LIST_DIR}/HeraldGenerateRun.cmake
        DESTINATION ${HERALD_INSTALL_CMAKEDIR})
