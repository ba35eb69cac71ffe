# CMake toolchain file: build a project with the cacs front door.
#
#   From a build tree:  cmake -DCMAKE_TOOLCHAIN_FILE=<cacs>/cmake/cacs-toolchain.cmake \
#                             -DCACS_BUILD_DIR=<cacs>/build ...
#   From an install:    cmake -DCMAKE_TOOLCHAIN_FILE=<prefix>/lib/cmake/cacs/cacs-toolchain.cmake ...
#
# Then add the cacs flags as usual, e.g.
#   target_compile_options(app PRIVATE -fauto-preserve-none)
#   target_compile_options(app PRIVATE -fpreserve-none-list=${CMAKE_SOURCE_DIR}/pn.list)
#
# Link-time passes: the cacs passes run again at the link only under full
# LTO. CMake's CMAKE_INTERPROCEDURAL_OPTIMIZATION gives -flto=thin with clang
# (APN per translation unit only); with -DCACS_FULL_LTO=ON it gives
# -flto=full, and the front door links with lld and runs the passes there.
#
# Sets CACS_INCLUDE_DIR and CACS_RUNTIME_LIBRARY (libcacs for the target
# architecture: CMAKE_SYSTEM_PROCESSOR if set, else the host's); in an
# installed prefix, find_package(cacs CONFIG) gives the target cacs::cacs.
get_filename_component(_cacs_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT CACS_BUILD_DIR AND EXISTS "${_cacs_prefix}/bin/clang"
   AND EXISTS "${CMAKE_CURRENT_LIST_DIR}/cacsConfig.cmake")
  # An installed prefix: <prefix>/lib/cmake/cacs/cacs-toolchain.cmake.
  set(CACS_PREFIX "${_cacs_prefix}")
  set(_cacs_bin "${_cacs_prefix}/bin")
  set(CACS_INCLUDE_DIR "${_cacs_prefix}/include")
  set(_cacs_rt_x86_64 "${_cacs_prefix}/lib/libcacs.a")
  set(_cacs_rt_aarch64 "${_cacs_prefix}/lib/aarch64-linux-gnu/libcacs.a")
else()
  if(NOT CACS_BUILD_DIR)
    get_filename_component(CACS_BUILD_DIR "${CMAKE_CURRENT_LIST_DIR}/../build" ABSOLUTE)
  endif()
  set(CACS_BUILD_DIR "${CACS_BUILD_DIR}" CACHE PATH "cacs build directory (holds bin/clang)")
  set(_cacs_bin "${CACS_BUILD_DIR}/bin")
  set(CACS_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../runtime/include")
  set(_cacs_rt_x86_64 "${CACS_BUILD_DIR}/runtime/x86_64/libcacs.a")
  set(_cacs_rt_aarch64 "${CACS_BUILD_DIR}/runtime/aarch64/libcacs.a")
endif()
if(NOT EXISTS "${_cacs_bin}/clang")
  message(FATAL_ERROR "cacs: ${_cacs_bin}/clang not found; run ./scripts/setup")
endif()
set(CMAKE_C_COMPILER "${_cacs_bin}/clang")
set(CMAKE_CXX_COMPILER "${_cacs_bin}/clang++")

# libcacs of the architecture being built.
if(CMAKE_SYSTEM_PROCESSOR)
  set(_cacs_arch "${CMAKE_SYSTEM_PROCESSOR}")
else()
  set(_cacs_arch "${CMAKE_HOST_SYSTEM_PROCESSOR}")
endif()
if(_cacs_arch MATCHES "^(aarch64|arm64|ARM64)$")
  set(CACS_RUNTIME_LIBRARY "${_cacs_rt_aarch64}")
  if(CACS_PREFIX AND CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(CACS_RUNTIME_LIBRARY "${_cacs_rt_x86_64}") # the host's, in lib/
  endif()
else()
  set(CACS_RUNTIME_LIBRARY "${_cacs_rt_x86_64}")
endif()

option(CACS_FULL_LTO "CMAKE_INTERPROCEDURAL_OPTIMIZATION gives -flto=full" OFF)
if(CACS_FULL_LTO)
  if(CMAKE_USER_MAKE_RULES_OVERRIDE AND
     NOT CMAKE_USER_MAKE_RULES_OVERRIDE STREQUAL "${CMAKE_CURRENT_LIST_DIR}/cacs-full-lto.cmake")
    set(CACS_USER_MAKE_RULES_OVERRIDE "${CMAKE_USER_MAKE_RULES_OVERRIDE}")
  endif()
  set(CMAKE_USER_MAKE_RULES_OVERRIDE "${CMAKE_CURRENT_LIST_DIR}/cacs-full-lto.cmake")
endif()
unset(_cacs_arch)
unset(_cacs_prefix)
