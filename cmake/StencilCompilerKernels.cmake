# stencil_add_kernel(): compile a stencil (.mlir) into a C++ header at build
# time, for an application that runs it through libStencilRuntime
# (docs/Embedding.md, "Kernels at build time").
#
#   stencil_add_kernel(<target>
#     SOURCE <file.mlir>             the stencil (a func.func with one stencil op)
#     [FUNCTION <name>]              the header's entry point,
#                                    stencil_kernels::<name>(...)
#                                    (default: the file's name, '-' as '_')
#     [PIPELINE <flag>]              the pipeline (default: lower-to-auto)
#     [OPTIONS <options>]            its options, one string ("chip=sm_90a")
#     [HEADER <file.h>])             the header's name (default: <name>.h)
#
# The header is written to <binary dir>/stencil_kernels/ (added to the
# target's include directories) whenever the source, the options or the
# compiler change; the target links StencilCompiler::StencilRuntime when the
# package's StencilRuntime component was found. The compiler
# (stencil-opt, stencil-translate) is the installed one next to this
# package, or STENCIL_OPT / STENCIL_TRANSLATE when set.
include_guard(GLOBAL)

# The installed tools' directory: STENCIL_COMPILER_TOOLS_DIR, which the
# package's config sets before including this file; kept in a global
# property so that a call from any directory finds it.
set_property(GLOBAL PROPERTY STENCIL_COMPILER_TOOLS_DIR
  "${STENCIL_COMPILER_TOOLS_DIR}")

function(stencil_add_kernel target)
  cmake_parse_arguments(ARG "" "SOURCE;FUNCTION;PIPELINE;OPTIONS;HEADER" ""
                        ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "stencil_add_kernel: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "stencil_add_kernel: '${target}' is not a target")
  endif()
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "stencil_add_kernel(${target}): SOURCE is required")
  endif()
  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE)
  if(NOT EXISTS "${source}")
    message(FATAL_ERROR "stencil_add_kernel(${target}): no file ${source}")
  endif()
  if(NOT ARG_FUNCTION)
    get_filename_component(ARG_FUNCTION "${source}" NAME_WE)
    string(MAKE_C_IDENTIFIER "${ARG_FUNCTION}" ARG_FUNCTION)
  endif()
  if(NOT ARG_PIPELINE)
    set(ARG_PIPELINE lower-to-auto)
  endif()
  string(REGEX REPLACE "^--" "" ARG_PIPELINE "${ARG_PIPELINE}")
  if(NOT ARG_HEADER)
    set(ARG_HEADER "${ARG_FUNCTION}.h")
  endif()

  get_property(tools_dir GLOBAL PROPERTY STENCIL_COMPILER_TOOLS_DIR)
  set(opt "${STENCIL_OPT}")
  set(translate "${STENCIL_TRANSLATE}")
  if(NOT opt)
    set(opt "${tools_dir}/stencil-opt")
  endif()
  if(NOT translate)
    set(translate "${tools_dir}/stencil-translate")
  endif()
  foreach(tool IN ITEMS "${opt}" "${translate}")
    if(NOT EXISTS "${tool}")
      message(FATAL_ERROR "stencil_add_kernel(${target}): no ${tool} (install "
        "the compiler, or set STENCIL_OPT and STENCIL_TRANSLATE)")
    endif()
  endforeach()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/stencil_kernels")
  set(header "${dir}/${ARG_HEADER}")
  set(lowered "${dir}/${ARG_FUNCTION}.lowered.mlir")
  set(flag "--${ARG_PIPELINE}")
  if(ARG_OPTIONS)
    set(flag "--${ARG_PIPELINE}=${ARG_OPTIONS}")
  endif()
  add_custom_command(
    OUTPUT "${header}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND "${opt}" "${source}" "${flag}" -o "${lowered}"
    COMMAND "${translate}" --to-c-header "--header-function=${ARG_FUNCTION}"
            "${lowered}" -o "${header}"
    DEPENDS "${source}" "${opt}" "${translate}"
    COMMENT "Compiling stencil ${ARG_SOURCE} (${flag}) into ${ARG_HEADER}"
    VERBATIM)
  target_sources(${target} PRIVATE "${header}")
  target_include_directories(${target} PRIVATE "${dir}")
  if(TARGET StencilCompiler::StencilRuntime)
    target_link_libraries(${target} PRIVATE StencilCompiler::StencilRuntime)
  endif()
endfunction()
