// app-proxy.c on AArch64 (under qemu): the output of every build must equal
// the plain x86-64 one (libcacs compiled from its sources with stock clang
// -O0, no cacs flags).
// REQUIRES: qemu-aarch64
// RUN: %stock_clang -O0 -I%cacs_include %S/app-proxy.c $(%cacs_rt_objs --io %stock_clang -O0 -I%cacs_include) -lpthread -o %tref && %tref > %t.ref
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/app-proxy.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t0 && %run_aarch64 %t0 | diff %t.ref -
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/app-proxy.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t2 && %run_aarch64 %t2 | diff %t.ref -
// RUN: %clang %aarch64_flags -O2 -flto -fauto-preserve-none -I%cacs_include %S/app-proxy.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %tl && %run_aarch64 %tl | diff %t.ref -
// RUN: printf 'fun:kv_*\nfun:srv_*\nfun:cli_*\nfun:px_*\nfun:echo_*\nfun:cl_*\n' > %t.list
// RUN: %clang %aarch64_flags -O2 -fpreserve-none-list=%t.list -I%cacs_include %S/app-proxy.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %tp && %run_aarch64 %tp | diff %t.ref -
