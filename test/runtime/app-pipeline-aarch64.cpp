// app-pipeline.cpp on AArch64 (under qemu): the output of every build must
// equal the plain x86-64 one (libcacs compiled from its sources with stock
// clang -O0, no cacs flags).
// REQUIRES: qemu-aarch64
// RUN: %stock_clangxx -std=c++17 -O0 -I%cacs_include %S/app-pipeline.cpp $(%cacs_rt_objs %stock_clang -O0 -I%cacs_include) -lpthread -o %tref && %tref > %t.ref
// RUN: %clangxx %aarch64_flags -std=c++17 -O0 -I%cacs_include %S/app-pipeline.cpp %cacs_rt_aarch64 -lpthread -o %t0 && %run_aarch64 %t0 | diff %t.ref -
// RUN: %clangxx %aarch64_flags -std=c++17 -O2 -fauto-preserve-none -I%cacs_include %S/app-pipeline.cpp %cacs_rt_aarch64 -lpthread -o %t2 && %run_aarch64 %t2 | diff %t.ref -
// RUN: %clangxx %aarch64_flags -std=c++17 -O2 -flto -fauto-preserve-none -I%cacs_include %S/app-pipeline.cpp %cacs_rt_aarch64 -lpthread -o %tl && %run_aarch64 %tl | diff %t.ref -
