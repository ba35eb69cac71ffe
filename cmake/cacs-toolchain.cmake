# CMake toolchain file: build a project with the cacs front door.
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=/path/to/cacs/cmake/cacs-toolchain.cmake \
#         -DCACS_BUILD_DIR=/path/to/cacs/build ...
#
# Then add the cacs flags as usual, e.g.
#   target_compile_options(app PRIVATE -fauto-preserve-none)
#   target_compile_options(app PRIVATE -fpreserve-none-list=${CMAKE_SOURCE_DIR}/pn.list)
# With -flto (or CMAKE_INTERPROCEDURAL_OPTIMIZATION) the front door links with
# lld and runs the cacs passes at link time.
if(NOT CACS_BUILD_DIR)
  get_filename_component(CACS_BUILD_DIR "${CMAKE_CURRENT_LIST_DIR}/../build" ABSOLUTE)
endif()
set(CACS_BUILD_DIR "${CACS_BUILD_DIR}" CACHE PATH "cacs build directory (holds bin/clang)")
if(NOT EXISTS "${CACS_BUILD_DIR}/bin/clang")
  message(FATAL_ERROR "cacs: ${CACS_BUILD_DIR}/bin/clang not found; run ./scripts/setup")
endif()
set(CMAKE_C_COMPILER "${CACS_BUILD_DIR}/bin/clang")
set(CMAKE_CXX_COMPILER "${CACS_BUILD_DIR}/bin/clang++")
# The runtime headers and library, for projects that use libcacs.
set(CACS_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../runtime/include")
set(CACS_RUNTIME_LIBRARY "${CACS_BUILD_DIR}/runtime/x86_64/libcacs.a")
