// AArch64 (under qemu) runs of park-address.c.
// REQUIRES: qemu-aarch64
// RUN: %stock_clang %aarch64_flags -O0 -DCACS_YIELD_FULL_SAVE=1 -I%cacs_include %S/park-address.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %tref && %run_aarch64 %tref > %t.ref
// RUN: FileCheck %S/park-address.c < %t.ref
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/park-address.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %t0 && %run_aarch64 %t0 | diff %t.ref -
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/park-address.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %t2 && %run_aarch64 %t2 | diff %t.ref -
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/park-address.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %ta && %run_aarch64 %ta | diff %t.ref -
// RUN: %stock_clang %aarch64_flags -O0 -I%cacs_include %S/park-address.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %ts0 && %run_aarch64 %ts0 | diff %t.ref -
// RUN: %stock_clang %aarch64_flags -O2 -I%cacs_include %S/park-address.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %ts2 && %run_aarch64 %ts2 | diff %t.ref -
// The table filled by gcc, called through by cacs, and the reverse:
// RUN: %if gcc %{ command -v aarch64-linux-gnu-gcc >/dev/null || exit 0; aarch64-linux-gnu-gcc -O2 -DFILL_ONLY -I%cacs_include -c %S/park-address.c -o %t.fill-gcc.o && %clang %aarch64_flags -O2 -DCALL_ONLY -fauto-preserve-none -I%cacs_include %S/park-address.c %t.fill-gcc.o %cacs_io_aarch64 %cacs_rt_aarch64 -o %tx1 && %run_aarch64 %tx1 | diff %t.ref - %}
// RUN: %if gcc %{ command -v aarch64-linux-gnu-gcc >/dev/null || exit 0; %clang %aarch64_flags -O2 -DFILL_ONLY -I%cacs_include -c %S/park-address.c -o %t.fill-cacs.o && aarch64-linux-gnu-gcc -O2 -DCALL_ONLY -I%cacs_include %S/park-address.c %t.fill-cacs.o %cacs_io_aarch64 %cacs_rt_aarch64 -o %tx2 && %run_aarch64 %tx2 | diff %t.ref - %}
