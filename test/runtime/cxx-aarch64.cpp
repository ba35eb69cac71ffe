// AArch64 (under qemu) runs of the C++ tests.
// REQUIRES: qemu-aarch64
// RUN: %clangxx %aarch64_flags -std=c++17 -O0 -I%cacs_include %S/cxx-generator.cpp %cacs_rt_aarch64 -o %tg0 && %run_aarch64 %tg0 | FileCheck %S/cxx-generator.cpp
// RUN: %clangxx %aarch64_flags -std=c++17 -O2 -I%cacs_include %S/cxx-generator.cpp %cacs_rt_aarch64 -o %tg2 && %run_aarch64 %tg2 | FileCheck %S/cxx-generator.cpp
// RUN: %clangxx %aarch64_flags -std=c++17 -O3 -fno-omit-frame-pointer -I%cacs_include %S/cxx-generator.cpp %cacs_rt_aarch64 -o %tg3 && %run_aarch64 %tg3 | FileCheck %S/cxx-generator.cpp
// RUN: %clangxx %aarch64_flags -std=c++17 -O0 -I%cacs_include %S/cxx-exceptions.cpp %cacs_rt_aarch64 -o %te0 && %run_aarch64 %te0 | FileCheck %S/cxx-exceptions.cpp
// RUN: %clangxx %aarch64_flags -std=c++17 -O2 -I%cacs_include %S/cxx-exceptions.cpp %cacs_rt_aarch64 -o %te2 && %run_aarch64 %te2 | FileCheck %S/cxx-exceptions.cpp
// RUN: ulimit -c 0; not --crash %run_aarch64 %te2 escape 2>&1 | FileCheck %S/cxx-exceptions.cpp --check-prefix=ESCAPE
// RUN: ulimit -c 0; not --crash %run_aarch64 %te2 escape-raw 2>&1 | FileCheck %S/cxx-exceptions.cpp --check-prefix=RAW
