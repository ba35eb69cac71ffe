// AArch64 (under qemu) runs of park-pointers.c.
// REQUIRES: qemu-aarch64
// RUN: %stock_clang %aarch64_flags -O0 -DREF -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %tref && %run_aarch64 %tref > %t.ref
// RUN: FileCheck %S/park-pointers.c < %t.ref
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %t0 && %run_aarch64 %t0 | diff %t.ref -
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %t2 && %run_aarch64 %t2 | diff %t.ref -
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %ta && %run_aarch64 %ta | diff %t.ref -
// RUN: %clang %aarch64_flags -O2 -DOPTNONE -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %tn && %run_aarch64 %tn | diff %t.ref -
// RUN: %clang %aarch64_flags -O2 -fglobal-isel -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %tgi && %run_aarch64 %tgi | diff %t.ref -
// RUN: %stock_clang %aarch64_flags -O0 -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %ts0 && %run_aarch64 %ts0 | diff %t.ref -
// RUN: %stock_clang %aarch64_flags -O2 -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %ts2 && %run_aarch64 %ts2 | diff %t.ref -
// RUN: %if gcc %{ command -v aarch64-linux-gnu-gcc >/dev/null || exit 0; aarch64-linux-gnu-gcc -O2 -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %tg && %run_aarch64 %tg | diff %t.ref - %}
// The test fails where a call loses the base pointer (x19): stock clang
// made to bind to the plain entries.
// RUN: %stock_clang %aarch64_flags -O2 -DCACS_YIELD_SAVE_BP=0 -I%cacs_include %S/park-pointers.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %tu
// RUN: timeout 20 %run_aarch64 %tu > %tu.out || true
// RUN: not diff %t.ref %tu.out
