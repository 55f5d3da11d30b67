# Helpers shared by the project's libraries.

# add_stencil_library(name sources... [DEPENDS ...] [LINK_LIBS ...]
#                     [MLIR_LIBS ...])
# A library of this project. MLIR_LIBS are upstream MLIR libraries; they are
# linked through mlir_target_link_libraries so that, with libMLIR.so, they
# resolve to the single shared library instead of static archives.
#
# The library is installed and exported as StencilCompiler::<name>
# (docs/Embedding.md), with the include directories a consumer needs.
function(add_stencil_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_mlir_library(${name}
    ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS}
  )
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${STENCIL_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${STENCIL_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  install(TARGETS ${name}
    EXPORT StencilCompilerTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  set_property(GLOBAL APPEND PROPERTY STENCIL_EXPORTED_LIBRARIES ${name})
endfunction()
