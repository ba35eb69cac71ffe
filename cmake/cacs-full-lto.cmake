# CMAKE_USER_MAKE_RULES_OVERRIDE set by cacs-toolchain.cmake when CACS_FULL_LTO
# is on: CMAKE_INTERPROCEDURAL_OPTIMIZATION then compiles with -flto=full
# (CMake's default for clang is -flto=thin, where APN and the lists run per
# translation unit only) and the front door runs the cacs passes in the link.
foreach(lang C CXX)
  set(CMAKE_${lang}_COMPILE_OPTIONS_IPO "-flto=full")
endforeach()
if(CACS_USER_MAKE_RULES_OVERRIDE)
  include("${CACS_USER_MAKE_RULES_OVERRIDE}")
endif()
