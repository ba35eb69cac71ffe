// -fswitch-site-jumps under every way of linking an executable that holds
// the sites and libcacs: non-PIE, PIE, -static, -static-pie, -fno-plt,
// -z now and -z lazy, -ffunction-sections with --gc-sections (the jump
// entries are kept: the sites refer to them), lld's --icf=all (two
// identical coroutine functions folded into one: a site's resume label is
// its own function's, so the folded one serves both), at -O1, -O3 and -Os,
// with and without frame pointers. Each prints what stock clang -O0
// computes (Inputs/sites.c), and its sites are jumps (a direct `jmp`: the
// entry is in the same module, the linker relaxes the GOT load).
// -flto and -flto=thin: lto.ll, lto-run.c. Shared objects: shared-lazy.c,
// dlopen.c. libcacs is built only as a static archive (runtime/CMakeLists.txt);
// shared-lazy.c links it into a shared object.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clang -O0 -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/ref
// RUN: %t/ref > %t/want
// RUN: %clang -O2 -fno-pic -no-pie -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/nopie
// RUN: %t/nopie | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/nopie | FileCheck %s
// RUN: %clang -O2 -fPIE -pie -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/pie
// RUN: %t/pie | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/pie | FileCheck %s
// RUN: %clang -O2 -static -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/static
// RUN: %t/static | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/static | FileCheck %s
// RUN: %clang -O2 -static-pie -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/static-pie
// RUN: %t/static-pie | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/static-pie | FileCheck %s
// RUN: %clang -O2 -fno-plt -Wl,-z,now -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/noplt
// RUN: %t/noplt | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/noplt | FileCheck %s
// RUN: %clang -O2 -Wl,-z,lazy -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/lazy
// RUN: env -u LD_BIND_NOW %t/lazy | diff %t/want -
// RUN: %clang -O2 -ffunction-sections -fdata-sections -Wl,--gc-sections -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/gc
// RUN: %t/gc | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/gc | FileCheck %s
// RUN: %clang -O2 -fuse-ld=lld -ffunction-sections -Wl,--icf=all -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/icf
// RUN: %t/icf | diff %t/want -
// RUN: llvm-nm %t/icf | FileCheck %s --check-prefix=ICF
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/icf | FileCheck %s
// RUN: %clang -O1 -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/o1
// RUN: %t/o1 | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/o1 | FileCheck %s
// RUN: %clang -O3 -fomit-frame-pointer -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/o3
// RUN: %t/o3 | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/o3 | FileCheck %s
// RUN: %clang -Os -fno-omit-frame-pointer -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/os
// RUN: %t/os | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping,sites_level2 %t/os | FileCheck %s
//
// CHECK-LABEL: <sites_ping>:
// CHECK:         movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmp {{.*}}<cacs__yield_pn_jmp>
// CHECK-LABEL: <sites_level2>:
// CHECK:         movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmp {{.*}}<cacs__yield_pn_jmp>
//
// The twins are one function:
// ICF: [[ADDR:[0-9a-f]+]] T sites_twin_a
// ICF-NEXT: [[ADDR]] T sites_twin_b
