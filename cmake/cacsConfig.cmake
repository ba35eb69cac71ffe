# find_package(cacs CONFIG) for an installed cacs prefix. Gives
#   cacs::cacs           the whole runtime with its headers, for the
#                        architecture being built (x86-64 or AArch64):
#                        libcacs and its I/O module (cacs/io.h), so that any
#                        program using cacs links with it alone (a static
#                        archive adds only what the program calls: a program
#                        without I/O gets none of the module)
#   cacs::core           libcacs without the I/O module
#   cacs::io             the I/O module, libcacs_io; links cacs::core
#   CACS_PREFIX          the prefix
#   CACS_C_COMPILER, CACS_CXX_COMPILER   the front door
#   CACS_TOOLCHAIN_FILE  cacs-toolchain.cmake (use it as CMAKE_TOOLCHAIN_FILE
#                        to compile the whole project with cacs)
# A project configured without the toolchain file is compiled by the
# system's compiler (gcc): libcacs works with it, but a cacs flag
# (-fauto-preserve-none, ...) does not, so the configure fails at its end,
# naming the target, the flag and the line to add.
get_filename_component(CACS_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(CACS_C_COMPILER "${CACS_PREFIX}/bin/clang")
set(CACS_CXX_COMPILER "${CACS_PREFIX}/bin/clang++")
set(CACS_TOOLCHAIN_FILE "${CMAKE_CURRENT_LIST_DIR}/cacs-toolchain.cmake")

if(NOT TARGET cacs::cacs)
  set(_cacs_arch "${CMAKE_SYSTEM_PROCESSOR}")
  if(_cacs_arch MATCHES "^(aarch64|arm64|ARM64)$" AND
     NOT CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(_cacs_libdir "${CACS_PREFIX}/lib/aarch64-linux-gnu")
  else()
    set(_cacs_libdir "${CACS_PREFIX}/lib")
  endif()
  set(_cacs_lib "${_cacs_libdir}/libcacs.a")
  if(NOT EXISTS "${_cacs_lib}")
    set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
    set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE
        "libcacs for ${_cacs_arch} is not installed (${_cacs_lib})")
    return()
  endif()
  add_library(cacs::core STATIC IMPORTED)
  set_target_properties(cacs::core PROPERTIES
    IMPORTED_LOCATION "${_cacs_lib}"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "${CACS_PREFIX}/include")
  add_library(cacs::cacs INTERFACE IMPORTED)
  if(EXISTS "${_cacs_libdir}/libcacs_io.a")
    add_library(cacs::io STATIC IMPORTED)
    # The host module's io_uring engine needs liburing, when it is here
    # (the cross-built module runs on epoll only).
    set(_cacs_io_deps cacs::core)
    if(_cacs_libdir STREQUAL "${CACS_PREFIX}/lib")
      find_library(CACS_URING_LIBRARY uring)
      if(CACS_URING_LIBRARY)
        list(APPEND _cacs_io_deps "${CACS_URING_LIBRARY}")
      endif()
    endif()
    set_target_properties(cacs::io PROPERTIES
      IMPORTED_LOCATION "${_cacs_libdir}/libcacs_io.a"
      IMPORTED_LINK_INTERFACE_LANGUAGES "C"
      INTERFACE_LINK_LIBRARIES "${_cacs_io_deps}")
    unset(_cacs_io_deps)
    set_target_properties(cacs::cacs PROPERTIES
      INTERFACE_LINK_LIBRARIES cacs::io)
  else()
    set_target_properties(cacs::cacs PROPERTIES
      INTERFACE_LINK_LIBRARIES cacs::core)
  endif()
  unset(_cacs_lib)
  unset(_cacs_libdir)
  unset(_cacs_arch)
endif()

# The compiler check: at the end of the top directory, when every target's
# options are known. CMake picks the compiler at project(), before
# find_package, so all this can do is say what to add.
function(_cacs_front_door_check toolchain_file)
  set(_dirs "${CMAKE_SOURCE_DIR}")
  set(_targets)
  while(_dirs)
    list(POP_FRONT _dirs _dir)
    get_property(_sub DIRECTORY "${_dir}" PROPERTY SUBDIRECTORIES)
    get_property(_t DIRECTORY "${_dir}" PROPERTY BUILDSYSTEM_TARGETS)
    list(APPEND _dirs ${_sub})
    list(APPEND _targets ${_t})
  endwhile()
  get_property(_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  foreach(_lang C CXX)
    if(NOT _lang IN_LIST _langs)
      continue()
    endif()
    # The front door finds its plugins in ../lib (installed or built).
    get_filename_component(_bin "${CMAKE_${_lang}_COMPILER}" DIRECTORY)
    if(EXISTS "${_bin}/../lib/CACSPasses.so")
      continue()
    endif()
    foreach(_t "" ${_targets})
      if(_t)
        get_target_property(_type ${_t} TYPE)
        if(_type STREQUAL "INTERFACE_LIBRARY")
          continue()
        endif()
        get_target_property(_opts ${_t} COMPILE_OPTIONS)
        get_target_property(_flags ${_t} COMPILE_FLAGS)
        set(_what "target '${_t}'")
      else()
        set(_opts "${CMAKE_${_lang}_FLAGS} ${CMAKE_${_lang}_FLAGS_${CMAKE_BUILD_TYPE}}")
        set(_flags)
        set(_what "every target (CMAKE_${_lang}_FLAGS)")
      endif()
      if("${_opts} ${_flags}" MATCHES
         "(-fauto-preserve-none|-fno-auto-preserve-none|-fpreserve-none-[a-z-]+|-fcoroutine-migration)")
        message(FATAL_ERROR
          "cacs: ${_what} is compiled with ${CMAKE_MATCH_1}, a cacs flag, "
          "but the ${_lang} compiler is ${CMAKE_${_lang}_COMPILER} "
          "(${CMAKE_${_lang}_COMPILER_ID} ${CMAKE_${_lang}_COMPILER_VERSION}), "
          "not the cacs front door. CMake chooses the compiler once, when a "
          "build directory is first configured: configure a new one with\n"
          "  -DCMAKE_TOOLCHAIN_FILE=${toolchain_file}\n")
      endif()
    endforeach()
  endforeach()
endfunction()
get_property(_cacs_checking GLOBAL PROPERTY _CACS_FRONT_DOOR_CHECK)
if(NOT _cacs_checking)
  set_property(GLOBAL PROPERTY _CACS_FRONT_DOOR_CHECK ON)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _cacs_front_door_check
                 "${CACS_TOOLCHAIN_FILE}")
endif()
unset(_cacs_checking)
