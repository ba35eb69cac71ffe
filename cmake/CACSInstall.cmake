# Install rules: `cmake --install build --prefix P` gives
#   P/bin/clang, P/bin/clang++            the front door
#   P/lib/CACSPasses.so, CACSClangPlugin.so   the plugins (next to bin/..)
#   P/share/cacs/cacs-settings.h          the settings header the front door
#                                         includes
#   P/share/man/man1/cacs.1               the front door's man page
#   P/include/cacs/*.h *.hpp              the libcacs headers
#   P/lib/libcacs.a, libcacs_io.a         libcacs and its I/O module, host
#   P/lib/aarch64-linux-gnu/libcacs*.a    the same for AArch64 (cross build)
#   P/lib/pkgconfig/cacs.pc, cacs-io.pc (and in lib/aarch64-linux-gnu)
#   P/lib/cmake/cacs/                     find_package(cacs CONFIG): the
#                                         targets cacs::cacs and cacs::io,
#                                         the toolchain file
# Targets are referred to by name; the runtime's own CMakeLists.txt is not
# touched. Everything is relocatable: the files find each other relative to
# where they are.
include(GNUInstallDirs)

install(TARGETS cacs-driver RUNTIME DESTINATION bin)
install(CODE "execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink clang
  \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/bin/clang++\")")
# The front door looks for the plugins in ../lib, whatever libdir is.
install(TARGETS CACSPasses CACSClangPlugin LIBRARY DESTINATION lib)
install(FILES ${CMAKE_BINARY_DIR}/share/cacs/cacs-settings.h DESTINATION share/cacs)
install(FILES ${CMAKE_BINARY_DIR}/share/man/man1/cacs.1 DESTINATION share/man/man1)

set(CACS_CMAKE_DIR lib/cmake/cacs)
if(TARGET cacs)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/cacs
          DESTINATION include FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
  install(TARGETS cacs cacs_io ARCHIVE DESTINATION lib)
  set(CACS_PC_LIBDIR "lib")
  set(CACS_PC_UP "../..")
  string(JOIN " " CACS_PC_IO_LIBS ${CACS_IO_LINK_FLAGS}) # liburing
  foreach(pc cacs cacs-io)
    configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in
                   ${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
    install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc
            DESTINATION lib/pkgconfig)
  endforeach()
endif()
if(TARGET cacs-aarch64)
  install(FILES ${CMAKE_BINARY_DIR}/runtime/aarch64/libcacs.a
                ${CMAKE_BINARY_DIR}/runtime/aarch64/libcacs_io.a
          DESTINATION lib/aarch64-linux-gnu)
  set(CACS_PC_LIBDIR "lib/aarch64-linux-gnu")
  set(CACS_PC_UP "../../..")
  set(CACS_PC_IO_LIBS "") # the cross build runs on epoll only
  foreach(pc cacs cacs-io)
    configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in
                   ${CMAKE_BINARY_DIR}/pkgconfig/aarch64/${pc}.pc @ONLY)
    install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/aarch64/${pc}.pc
            DESTINATION lib/aarch64-linux-gnu/pkgconfig)
  endforeach()
endif()

include(CMakePackageConfigHelpers)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/cmake/cacsConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_LIST_DIR}/cacsConfig.cmake
  ${CMAKE_BINARY_DIR}/cmake/cacsConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/cacs-toolchain.cmake
  ${CMAKE_CURRENT_LIST_DIR}/cacs-full-lto.cmake
  DESTINATION ${CACS_CMAKE_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/clang/tools/driver/clangd.yaml DESTINATION share/cacs)
