# Installs the engine as a CMake package: find_package(structure) gives structure::structure.
# The installed headers are the public API, include/structure/, and nothing else; the static
# libraries behind it are installed because a static library's users link its dependencies.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STRUCTURE_EXPORTED_LIBS
  structure_base structure_config structure_validator structure_generate structure_lowering
  structure_evidence structure_files
  structure_content structure_providers structure_transport structure_pool structure_registry
  structure_builder_cache structure_redis structure_actors structure_engine)
# Position-independent, so a shared object links them too: the Python package's extension
# module (python/, docs/python.md) is one. -fno-semantic-interposition keeps the calls inside a
# library as direct (and inlinable) as in position-dependent code.
foreach(lib IN LISTS STRUCTURE_EXPORTED_LIBS)
  string(REPLACE "structure_" "" short "${lib}")
  target_include_directories(${lib} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${short} POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${lib} PRIVATE -fno-semantic-interposition)
endforeach()

add_library(structure_package INTERFACE)
target_link_libraries(structure_package INTERFACE structure_engine)
set_target_properties(structure_package PROPERTIES EXPORT_NAME structure)

install(TARGETS ${STRUCTURE_EXPORTED_LIBS} structure_package EXPORT structureTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT structureTargets NAMESPACE structure::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/structure)
install(DIRECTORY include/structure DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY registry/schemas DESTINATION ${CMAKE_INSTALL_DATADIR}/structure)
configure_package_config_file(cmake/structureConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/structureConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/structure)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/structureConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/structureConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/structureConfigVersion.cmake cmake/FindCAF.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/structure)
