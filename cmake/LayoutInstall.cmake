# Install and export: headers, libraries, tools, the plugin, and the CMake
# package MLIRLayout (lib/cmake/MLIRLayout/MLIRLayoutConfig.cmake).
#
# add_mlir_library puts our libraries in MLIR's own export set (MLIRTargets),
# which an out-of-tree project never installs; we install them again in our
# export set, MLIRLayoutTargets, with the namespace MLIRLayout::.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LAYOUT_EXPORTED_LIBS)
foreach(lib IN LISTS LAYOUT_LIBRARIES)
  if(TARGET ${lib})
    list(APPEND LAYOUT_EXPORTED_LIBS ${lib})
  endif()
endforeach()

install(TARGETS ${LAYOUT_EXPORTED_LIBS}
  EXPORT MLIRLayoutTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# One umbrella target for everything.
# The C API (MLIRLayout::MLIRLayoutCAPI) is not part of it: it brings MLIR's
# C API archives, which C++ users do not need.
set(LAYOUT_UMBRELLA_LIBS ${LAYOUT_EXPORTED_LIBS})
list(REMOVE_ITEM LAYOUT_UMBRELLA_LIBS MLIRLayoutCAPI)
add_library(MLIRLayout INTERFACE)
target_link_libraries(MLIRLayout INTERFACE ${LAYOUT_UMBRELLA_LIBS})
target_include_directories(MLIRLayout INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS MLIRLayout EXPORT MLIRLayoutTargets)

# Headers: the sources' .h/.td and the generated .inc files.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/layout
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/layout-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/layout
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)

# Tools and the plugin. Installed binaries find our libraries next to them and
# LLVM's/MLIR's shared libraries (libMLIR.so is not on the system's library
# path on Debian) where they were found at build time.
foreach(tool layout-opt layout-explain layout-lsp-server layout-reduce
    LayoutPlugin)
  if(TARGET ${tool})
    set_target_properties(${tool} PROPERTIES
      INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR};${LLVM_LIBRARY_DIR}")
  endif()
endforeach()
foreach(tool layout-opt layout-explain layout-lsp-server layout-reduce)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
if(TARGET LayoutPlugin)
  install(FILES $<TARGET_FILE:LayoutPlugin>
    DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

set(LAYOUT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/MLIRLayout)
install(EXPORT MLIRLayoutTargets
  NAMESPACE MLIRLayout::
  DESTINATION ${LAYOUT_CMAKE_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/MLIRLayoutConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/MLIRLayoutConfig.cmake
  INSTALL_DESTINATION ${LAYOUT_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/MLIRLayoutConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/MLIRLayoutConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/MLIRLayoutConfigVersion.cmake
  DESTINATION ${LAYOUT_CMAKE_DIR})
