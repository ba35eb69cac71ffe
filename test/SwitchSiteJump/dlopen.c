// A shared object built with -fswitch-site-jumps, loaded at run time by
// dlopen, RTLD_LAZY and RTLD_NOW, its yields, performs and resumes
// (Inputs/sites.c) entering libcacs by jumps through its GOT: to the
// libcacs of the executable (exported), or to its own (built with
// -DCACS_TLS_INITIAL_EXEC, as docs/runtime.md says for shared objects).
// Lazily bound, a site that jumped through a PLT entry would have its
// resume address overwritten by the resolver's push (shared-lazy.c); the
// GOT slot is filled when the object is loaded, in either mode. Each
// prints what stock clang -O0 computes.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clang -O0 -I%cacs_include %S/Inputs/sites.c %cacs_rt_x86_64 -o %t/ref
// RUN: %t/ref > %t/want
// RUN: %clang -O2 -fPIC -fswitch-site-jumps -DSITES_DSO -I%cacs_include -c %S/Inputs/sites.c -o %t/dso.o
//
// libcacs in the executable:
// RUN: %clang -shared -Wl,-z,lazy %t/dso.o -o %t/libexe.so
// RUN: %clang -O2 -DSITES_MAIN -DSITES_DLOPEN=%t/libexe.so -DSITES_DLOPEN_MODE=RTLD_LAZY -I%cacs_include %S/Inputs/sites.c -Wl,--export-dynamic -Wl,--whole-archive %cacs_rt_x86_64 -Wl,--no-whole-archive -lpthread -ldl -o %t/exe-lazy
// RUN: env -u LD_BIND_NOW %t/exe-lazy | diff %t/want -
// RUN: %clang -O2 -DSITES_MAIN -DSITES_DLOPEN=%t/libexe.so -DSITES_DLOPEN_MODE=RTLD_NOW -I%cacs_include %S/Inputs/sites.c -Wl,--export-dynamic -Wl,--whole-archive %cacs_rt_x86_64 -Wl,--no-whole-archive -lpthread -ldl -o %t/exe-now
// RUN: env -u LD_BIND_NOW %t/exe-now | diff %t/want -
//
// libcacs in the shared object:
// RUN: %clang -shared -Wl,-z,lazy %t/dso.o $(%cacs_rt_objs %clang -O2 -fPIC -DCACS_TLS_INITIAL_EXEC -I%cacs_include) -lpthread -o %t/libown.so
// RUN: %clang -O2 -DSITES_MAIN -DSITES_DLOPEN=%t/libown.so -DSITES_DLOPEN_MODE=RTLD_LAZY -I%cacs_include %S/Inputs/sites.c -ldl -o %t/own-lazy
// RUN: env -u LD_BIND_NOW %t/own-lazy | diff %t/want -
// RUN: %clang -O2 -DSITES_MAIN -DSITES_DLOPEN=%t/libown.so -DSITES_DLOPEN_MODE=RTLD_NOW -I%cacs_include %S/Inputs/sites.c -ldl -o %t/own-now
// RUN: env -u LD_BIND_NOW %t/own-now | diff %t/want -
//
// The object's sites jump through the GOT, not a PLT entry:
// RUN: llvm-objdump -d --no-show-raw-insn %t/libexe.so | FileCheck %s
// RUN: llvm-objdump -d --no-show-raw-insn %t/libown.so | FileCheck %s
// CHECK-NOT:     {{<cacs__(yield|effect_perform|effect_resume)_pn_jmp@plt>:}}
// CHECK-LABEL: <sites_ping>:
// CHECK:         movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmpq *{{.*}}(%rip)
// CHECK-NOT:     {{<cacs__(yield|effect_perform|effect_resume)_pn_jmp@plt>:}}
