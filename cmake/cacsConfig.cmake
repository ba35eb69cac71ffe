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
    set_target_properties(cacs::io PROPERTIES
      IMPORTED_LOCATION "${_cacs_libdir}/libcacs_io.a"
      IMPORTED_LINK_INTERFACE_LANGUAGES "C"
      INTERFACE_LINK_LIBRARIES cacs::core)
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
