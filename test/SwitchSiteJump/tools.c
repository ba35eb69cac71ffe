// -fswitch-site-jumps with the tools a program is checked with, each run
// on Inputs/sites.c and compared with stock clang -O0's output:
//  - UBSan: no sanitizer attribute on the functions, so the sites are jumps,
//    and nothing is reported;
//  - ASan and TSan (libcacs built with them, so its fiber annotations are
//    on): the flag is accepted and does nothing in instrumented functions
//    (the sites stay calls: unsupported.c shows the remark);
//  - valgrind memcheck: the site's store below rsp (the word a call
//    pushes) and the entry's move of rsp onto it raise no error;
//  - CET IBT (-fcf-protection=branch, program and libcacs): every object
//    is IBT-marked, the jump entries start with endbr64 (an indirect jump
//    reaches them from another module), and the resumers jump to the
//    resume points, which have no endbr64, by `notrack`. This machine's
//    CPU has no IBT (no `ibt` in /proc/cpuinfo), so nothing enforces it:
//    the marks are checked, not the enforcement. -fcf-protection=full
//    (a shadow stack): the calls stay, with a warning (run-rings.c).
// gdb's backtrace from inside a coroutine resumed through a site:
// gdb-backtrace.c, gdb-jump-entry.c.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clang -O0 -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/ref
// RUN: %t/ref > %t/want
//
// RUN: %clang -O2 -fswitch-site-jumps -fsanitize=undefined -fno-sanitize-recover=all -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/ubsan
// RUN: %t/ubsan 2> %t/ubsan.err | diff %t/want -
// RUN: not grep -q . %t/ubsan.err
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping %t/ubsan | FileCheck %s --check-prefix=JMP
//
// RUN: %clang -O2 -g -fswitch-site-jumps -fsanitize=address -I%cacs_include %S/Inputs/sites.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -o %t/asan
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=1 %t/asan | diff %t/want -
// RUN: %clang -O2 -g -fswitch-site-jumps -fsanitize=thread -I%cacs_include %S/Inputs/sites.c $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -lpthread -o %t/tsan
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t/tsan | diff %t/want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping %t/asan %t/tsan | FileCheck %s --check-prefix=SAN
//
// RUN: %if valgrind %{ %clang -O2 -gdwarf-4 -fswitch-site-jumps -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/vg %}
// RUN: %if valgrind %{ valgrind -q --error-exitcode=99 %t/vg 2> %t/vg.err | diff %t/want - %}
// RUN: %if valgrind %{ not grep -q . %t/vg.err %}
//
// RUN: %clang -O2 -fswitch-site-jumps -fcf-protection=branch -I%cacs_include -c %S/Inputs/sites.c -o %t/ibt.o
// RUN: %clang %t/ibt.o $(%cacs_rt_objs %clang -O2 -fcf-protection=branch -I%cacs_include) -o %t/ibt
// RUN: %t/ibt | diff %t/want -
// Every object is IBT-marked (the program is not: Debian's crt objects are
// not, so the linker drops the mark; test/runtime/cet-bti.c):
// RUN: objs="%t/ibt.o $(%cacs_rt_objs %clang -O2 -fcf-protection=branch -I%cacs_include)"; \
// RUN:   test "$(llvm-readelf -n $objs | grep -c 'x86 feature: IBT')" = "$(echo $objs | wc -w)"
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=sites_ping %t/ibt | FileCheck %s --check-prefix=IBTSITE
// RUN: llvm-objdump -d --disassemble-symbols=cacs__yield_pn_jmp %t/ibt | FileCheck %s --check-prefix=IBTYIELD
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=cacs__effect_perform_pn_jmp,cacs__effect_resume_pn_jmp %t/ibt | FileCheck %s --check-prefix=IBTFX
//
// JMP-LABEL: <sites_ping>:
// JMP:         movq %r11, -0x8(%rsp)
// JMP-NEXT:    jmp {{.*}}<cacs__yield_pn_jmp>
// SAN-NOT:     _pn_jmp
// SAN:         callq {{.*}}<cacs__yield_pn
// SAN-NOT:     _pn_jmp
// The site's function has its one landing pad at its start; the resume
// point after the jump has none:
// IBTSITE-LABEL: <sites_ping>:
// IBTSITE-NEXT:    endbr64
// IBTSITE-NOT:     endbr64
// IBTSITE:         movq %r11, -0x8(%rsp)
// IBTSITE-NEXT:    jmp {{.*}}<cacs__yield_pn_jmp>
// IBTSITE-NOT:     endbr64
// IBTYIELD-LABEL: <cacs__yield_pn_jmp>:
// IBTYIELD-NEXT:    endbr64
// (llvm-objdump does not print the notrack prefix, 3e)
// IBTYIELD:         3e ff e2 {{ *}}jmpq *%rdx
// IBTFX-LABEL: <cacs__effect_perform_pn_jmp>:
// IBTFX-NEXT:    endbr64
// IBTFX-LABEL: <cacs__effect_resume_pn_jmp>:
// IBTFX-NEXT:    endbr64
