// On AArch64 -fswitch-site-jumps, the default, does nothing, silently (the
// lowering is x86-64 only: unsupported.c checks the remarks and that
// yields, performs and resumes stay calls); the program it compiles runs as
// stock clang -O0's (Inputs/sites.c, under qemu).
// REQUIRES: qemu-aarch64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clang %aarch64_flags -O0 -I%cacs_include %S/Inputs/sites.c %cacs_rt_aarch64 -lpthread -o %t/ref
// RUN: %run_aarch64 %t/ref > %t/want
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/Inputs/sites.c %cacs_rt_aarch64 -lpthread -o %t/o2 2> %t/warn
// RUN: FileCheck %s --allow-empty < %t/warn
// RUN: %run_aarch64 %t/o2 | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping %t/o2 | FileCheck %s --check-prefix=CALL
// CHECK-NOT: {{.}}
// CALL-LABEL: <sites_ping>:
// CALL:         bl {{.*}}<cacs__yield_pn>
