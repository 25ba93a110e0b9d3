# The few compiler-rt CMake functions and variables that the upstream
# sanitizer_common, interception and efsan CMakeLists.txt use, for x86-64
# Linux built with clang. They keep upstream target names
# (RTSanitizerCommon.x86_64, clang_rt.efsan-x86_64, ...), so the same
# CMakeLists.txt files build in llvm-project and here.

set(SANITIZER_COMMON_SUPPORTED_ARCH x86_64)
set(SANITIZER_COMMON_SUPPORTED_OS linux)
set(EFSAN_SUPPORTED_ARCH x86_64)
# ubsan: only its object libraries (RTUbsan, RTUbsan_cxx) are built; the
# standalone UBSan runtimes stay off (COMPILER_RT_HAS_UBSAN is unset).
set(UBSAN_COMMON_SUPPORTED_ARCH x86_64)
set(SANITIZER_CAN_USE_CXXABI TRUE)
set(COMPILER_RT_HAS_WNO_FORMAT TRUE)
set(COMPILER_RT_HAS_FPIE_FLAG TRUE)
set(COMPILER_RT_HAS_FFREESTANDING_FLAG TRUE)
set(SANITIZER_USE_SYMBOLS TRUE)
set(HAVE_RPC_XDR_H 0)
set(COMPILER_RT_SOURCE_DIR ${EFSAN_LLVM_SOURCE_DIR}/compiler-rt)
set(COMPILER_RT_OUTPUT_LIBRARY_DIR ${EFSAN_RUNTIME_OUTPUT_DIR})
set(COMPILER_RT_INSTALL_LIBRARY_DIR ${EFSAN_CLANG_RESOURCE_SUBDIR}/lib/linux)

# Upstream's SANITIZER_COMMON_CFLAGS for Linux/clang. The C++-only ones are
# wrapped so a runtime may also hold C sources.
set(SANITIZER_COMMON_CFLAGS
  -fPIC -fno-builtin -fno-exceptions -funwind-tables -fno-stack-protector
  -fno-sanitize=safe-stack -fvisibility=hidden -fno-lto -O3
  # Thread-locals without __tls_get_addr, which may allocate, also in the
  # shared runtime (as upstream builds every sanitizer runtime).
  -ftls-model=initial-exec
  -gline-tables-only -Wno-unused-parameter -Wno-gnu
  $<$<COMPILE_LANGUAGE:CXX>:-nostdinc++>
  $<$<COMPILE_LANGUAGE:CXX>:-fvisibility-inlines-hidden>
  $<$<COMPILE_LANGUAGE:CXX>:-std=c++17>)

macro(append_list_if condition value)
  if(${condition})
    list(APPEND ${ARGN} ${value})
  endif()
endmacro()

macro(append_rtti_flag polarity list)
  if(${polarity})
    list(APPEND ${list} $<$<COMPILE_LANGUAGE:CXX>:-frtti>)
  else()
    list(APPEND ${list} $<$<COMPILE_LANGUAGE:CXX>:-fno-rtti>)
  endif()
endmacro()

function(add_compiler_rt_component name)
  if(NOT TARGET ${name})
    add_custom_target(${name})
  endif()
endfunction()

function(_efsan_rt_target_flags target)
  cmake_parse_arguments(A "" "" "CFLAGS;DEFS;INCLUDES" ${ARGN})
  target_compile_options(${target} PRIVATE ${A_CFLAGS})
  target_compile_definitions(${target} PRIVATE ${A_DEFS})
  target_include_directories(${target} PRIVATE
    ${COMPILER_RT_SOURCE_DIR}/lib ${COMPILER_RT_SOURCE_DIR}/include ${A_INCLUDES})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

# add_compiler_rt_object_libraries(<name> ARCHS ... SOURCES ... CFLAGS ... DEFS ...)
function(add_compiler_rt_object_libraries name)
  cmake_parse_arguments(A "" "" "OS;ARCHS;SOURCES;ADDITIONAL_HEADERS;CFLAGS;DEFS;DEPS" ${ARGN})
  foreach(arch ${A_ARCHS})
    add_library(${name}.${arch} OBJECT ${A_SOURCES})
    _efsan_rt_target_flags(${name}.${arch} CFLAGS ${A_CFLAGS} DEFS ${A_DEFS}
                           INCLUDES ${CMAKE_CURRENT_SOURCE_DIR}/..)
  endforeach()
endfunction()

# add_compiler_rt_runtime(<name> STATIC|SHARED ARCHS ... SOURCES ... CFLAGS ...
#                         LINK_FLAGS ... LINK_LIBS ... PARENT_TARGET ...)
# As upstream: lib<name>-<arch>.a, or lib<name>-<arch>.so from the target
# <name>-dynamic-<arch>.
function(add_compiler_rt_runtime name type)
  cmake_parse_arguments(A "" "PARENT_TARGET" "OS;ARCHS;SOURCES;OBJECT_LIBS;ADDITIONAL_HEADERS;CFLAGS;DEFS;LINK_FLAGS;LINK_LIBS" ${ARGN})
  if(NOT type STREQUAL "STATIC" AND NOT type STREQUAL "SHARED")
    message(FATAL_ERROR "add_compiler_rt_runtime: ${type} is not STATIC or SHARED")
  endif()
  foreach(arch ${A_ARCHS})
    set(output_name ${name}-${arch})
    if(type STREQUAL "SHARED")
      set(target ${name}-dynamic-${arch})
    else()
      set(target ${output_name})
    endif()
    set(objs)
    foreach(lib ${A_OBJECT_LIBS})
      list(APPEND objs $<TARGET_OBJECTS:${lib}.${arch}>)
    endforeach()
    add_library(${target} ${type} ${A_SOURCES} ${objs})
    # A runtime may consist of object libraries only (efsan_cxx).
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
    _efsan_rt_target_flags(${target} CFLAGS ${A_CFLAGS} DEFS ${A_DEFS}
                           INCLUDES ${CMAKE_CURRENT_SOURCE_DIR}/..)
    set_target_properties(${target} PROPERTIES
      OUTPUT_NAME ${output_name}
      ARCHIVE_OUTPUT_DIRECTORY ${COMPILER_RT_OUTPUT_LIBRARY_DIR}
      LIBRARY_OUTPUT_DIRECTORY ${COMPILER_RT_OUTPUT_LIBRARY_DIR})
    if(type STREQUAL "SHARED")
      target_link_options(${target} PRIVATE ${A_LINK_FLAGS})
      target_link_libraries(${target} PRIVATE ${A_LINK_LIBS})
      install(TARGETS ${target} LIBRARY DESTINATION ${COMPILER_RT_INSTALL_LIBRARY_DIR})
    else()
      install(TARGETS ${target} ARCHIVE DESTINATION ${COMPILER_RT_INSTALL_LIBRARY_DIR})
    endif()
    if(A_PARENT_TARGET)
      add_dependencies(${A_PARENT_TARGET} ${target})
    endif()
  endforeach()
endfunction()

# add_sanitizer_rt_symbols(<name> ARCHS ... EXTRA ...): the --dynamic-list
# file the driver links with, generated by upstream's own script.
function(add_sanitizer_rt_symbols name)
  cmake_parse_arguments(A "" "" "ARCHS;EXTRA" ${ARGN})
  foreach(arch ${A_ARCHS})
    set(target ${name}-${arch})
    set(extra)
    foreach(e ${A_EXTRA})
      list(APPEND extra --extra ${CMAKE_CURRENT_SOURCE_DIR}/${e})
    endforeach()
    set(out ${COMPILER_RT_OUTPUT_LIBRARY_DIR}/lib${target}.a.syms)
    add_custom_command(OUTPUT ${out}
      COMMAND ${Python3_EXECUTABLE}
              ${COMPILER_RT_SOURCE_DIR}/lib/sanitizer_common/scripts/gen_dynamic_list.py
              ${extra} $<TARGET_FILE:${target}>
              --nm-executable ${LLVM_TOOLS_BINARY_DIR}/llvm-nm -o ${out}
      DEPENDS ${target} ${A_EXTRA}
      COMMENT "Generating exported symbols for ${target}")
    add_custom_target(${target}-symbols ALL DEPENDS ${out})
    install(FILES ${out} DESTINATION ${COMPILER_RT_INSTALL_LIBRARY_DIR})
  endforeach()
endfunction()

find_package(Python3 REQUIRED COMPONENTS Interpreter)
