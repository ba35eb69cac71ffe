// Sites inside LTO'd code: with full LTO the link lowers, after its walks
// have seen every unit's calls (lto.ll); ThinLTO keeps the calls (its
// backends cannot be told from compile steps on LLVM 19). Each, with its
// units split so that the sites are in a unit other than main's, prints
// what stock clang -O0 computes (Inputs/sites.c), with GNU ld and lld.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clang -O0 -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/ref
// RUN: %t/ref > %t/want
// RUN: %clang -O2 -flto -fswitch-site-jumps -DSITES_DSO -I%cacs_include -c %S/Inputs/sites.c -o %t/full-dso.o
// RUN: %clang -O2 -flto -fswitch-site-jumps -DSITES_MAIN -I%cacs_include -c %S/Inputs/sites.c -o %t/full-main.o
// RUN: %clang -O2 -flto -fswitch-site-jumps %t/full-dso.o %t/full-main.o %cacs_rt_x86_64 -o %t/full
// RUN: %t/full | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/full | FileCheck %s --check-prefix=FULL
// RUN: %clang -O2 -flto -fuse-ld=lld -fswitch-site-jumps %t/full-dso.o %t/full-main.o %cacs_rt_x86_64 -o %t/full-lld
// RUN: %t/full-lld | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/full-lld | FileCheck %s --check-prefix=FULL
// RUN: %clang -O2 -flto=thin -fswitch-site-jumps -DSITES_DSO -I%cacs_include -c %S/Inputs/sites.c -o %t/thin-dso.o
// RUN: %clang -O2 -flto=thin -fswitch-site-jumps -DSITES_MAIN -I%cacs_include -c %S/Inputs/sites.c -o %t/thin-main.o
// RUN: %clang -O2 -flto=thin -fswitch-site-jumps %t/thin-dso.o %t/thin-main.o %cacs_rt_x86_64 -o %t/thin
// RUN: %t/thin | diff %t/want -
// RUN: %clang -O2 -flto=thin -fuse-ld=lld -fswitch-site-jumps %t/thin-dso.o %t/thin-main.o %cacs_rt_x86_64 -o %t/thin-lld
// RUN: %t/thin-lld | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping %t/thin-lld | FileCheck %s --check-prefix=THIN
//
// FULL-LABEL: <sites_ping>:
// FULL:         movq %r11, -0x8(%rsp)
// FULL-NEXT:    jmp {{.*}}<cacs__yield_pn_jmp>
// FULL-LABEL: <sites_level2>:
// FULL:         movq %r11, -0x8(%rsp)
// FULL-NEXT:    jmp {{.*}}<cacs__yield_pn_jmp>
// THIN-LABEL: <sites_ping>:
// THIN-NOT:     _pn_jmp
// THIN:         callq {{.*}}<cacs__yield_pn>
// THIN-NOT:     _pn_jmp
