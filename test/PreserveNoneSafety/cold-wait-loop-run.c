// The program of cold-call-shield-run.c (a producer coroutine and main pass
// 100,000 bytes through a 64-byte pipe, byte by byte, each yielding only when
// the pipe is full or empty: bench/patterns' server client) as a user writes
// it, without the hint that the waits are rare. The wait-loop heuristic
// takes both yields as rare and routes them through a shield
// (shieldsColdCall, isRareWait); the output must equal the one of stock
// clang -O0 (the program and libcacs from its sources), on x86-64 and on
// AArch64 (qemu). With -mllvm -cacs-cold-wait-loop=false no wait is shielded.
//
// RUN: %stock_clang -O0 -I%cacs_include '-DWAIT_RARE(c)=(c)' %S/cold-call-shield-run.c $(%cacs_rt_objs %stock_clang -O0 -I%cacs_include) -lpthread -o %tref
// RUN: %tref > %t.ref && FileCheck %s < %t.ref
// RUN: %clang -O2 -fauto-preserve-none -Rpass=preserve-none-safety -I%cacs_include '-DWAIT_RARE(c)=(c)' %S/cold-call-shield-run.c %cacs_rt_x86_64 -o %t2 2> %t2.remarks && %t2 | diff %t.ref -
// RUN: FileCheck %s --check-prefix=REMARK < %t2.remarks
// RUN: grep -c "goes through a shield" %t2.remarks | FileCheck %s --check-prefix=TWO
// RUN: %clang -O2 -mllvm -cacs-cold-wait-loop=false -Rpass=preserve-none-safety -I%cacs_include '-DWAIT_RARE(c)=(c)' %S/cold-call-shield-run.c %cacs_rt_x86_64 -o %t3 2> %t3.remarks && %t3 | diff %t.ref -
// RUN: FileCheck %s --check-prefix=OFF --allow-empty < %t3.remarks
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fauto-preserve-none -Rpass=preserve-none-safety -I%cacs_include '-DWAIT_RARE(c)=(c)' %S/cold-call-shield-run.c %cacs_rt_aarch64 -o %ta 2> %ta.remarks && %run_aarch64 %ta | diff %t.ref - %}
// RUN: %if qemu-aarch64 %{ FileCheck %s --check-prefix=REMARK < %ta.remarks %}
// RUN: %if qemu-aarch64 %{ grep -c "goes through a shield" %ta.remarks | FileCheck %s --check-prefix=TWO %}
//
// CHECK: bytes=100000 yields={{[0-9]+}} sum={{[0-9]+}}
//
// REMARK-DAG: remark: a preserve_none call in 'producer' goes through a shield (callee 'cacs__yield_{{[a-z_]+}}'): the call waits in a loop inside a work loop that does not arm the wait, taken as rare, and the work loop keeps its callee-saved registers
// REMARK-DAG: remark: a preserve_none call in 'main' goes through a shield (callee 'cacs__yield_{{[a-z_]+}}'): the call waits in a loop inside a work loop that does not arm the wait, taken as rare, and the work loop keeps its callee-saved registers
// TWO: {{^}}2{{$}}
// OFF-NOT: goes through a shield
