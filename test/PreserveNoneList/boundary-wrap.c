// `-Wl,--wrap=scale12` (a test double, cmocka's way) where scale12 is
// listed: main's unit and lib.c are built with `fun:scale12`, the wrapper
// (Inputs/wrap/mock.c) by stock clang. The linker sends every call of
// `scale12` to `__wrap_scale12`; stock clang's program goes through the
// wrapper and prints 78001. cacs's callers built with the list call
// `scale12.preserve_none_list`, which --wrap does not name: they would
// reach the real body and the wrapper would never run (the program printed
// 78, with no diagnostic, GNU ld and lld, x86-64 and AArch64).
//
// Why not a transparent fix: the front door could add
// `--wrap=<name>.preserve_none_list` for each `--wrap=<name>`; a wrapper
// built without the list then fails to link (undefined
// `__wrap_scale12.preserve_none_list`), which is right under GNU ld. But lld
// also wraps references inside the defining object, so the C entry
// `scale12` would call the wrapper's body instead of its own, and
// `__real_scale12` from a wrapper built with a list that names
// `__wrap_scale12` but not `__real_scale12` would loop.
//
// So the front door refuses the link instead: for each wrapped name it has
// the linker trace `<name>.preserve_none_list` (--trace-symbol), and an
// input that references it is an error naming that input; the output is
// removed, and the trace lines reach neither standard output nor standard
// error.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:scale12' > %t/list
// RUN: %stock_clang -O0 -c %S/Inputs/wrap/mock.c -o %t/mock.o
// RUN: %stock_clang -O0 %s %S/Inputs/wrap/lib.c %t/mock.o -Wl,--wrap=scale12 -o %t/ref
// RUN: %t/ref | FileCheck %s --check-prefix=OUT
// OUT: 78001
// OUT-NOT: {{.}}
//
// RUN: %clang -O2 -fpreserve-none-list=%t/list -c %s -o %t/main.o
// RUN: %clang -O2 -fpreserve-none-list=%t/list -c %S/Inputs/wrap/lib.c -o %t/lib.o
//
// GNU ld, each spelling of the wrap the linkers take.
// RUN: for W in -Wl,--wrap=scale12 -Wl,--wrap,scale12 -Wl,-wrap=scale12 "-Xlinker --wrap=scale12" "-Xlinker --wrap -Xlinker scale12" "-Xlinker -wrap -Xlinker scale12"; do \
// RUN:   touch %t/prog && \
// RUN:   not %clang -fuse-ld=bfd %t/main.o %t/lib.o %t/mock.o $W -o %t/prog > %t/out 2> %t/err || exit 1; \
// RUN:   count 0 < %t/out && FileCheck %s -DMAIN=%t/main.o < %t/err && not test -e %t/prog || exit 1; \
// RUN: done
// CHECK: clang: error: '--wrap=scale12' does not reach the calls to 'scale12' from code built with '-fpreserve-none-list=': '[[MAIN]]' calls its preserve_none body 'scale12.preserve_none_list', which the wrap does not name; leave 'scale12' out of the list, or build that code without it
// CHECK-NOT: {{.}}
//
// lld, compiling and linking in one command, and from a response file.
// RUN: not %clang -fuse-ld=lld -O2 -fpreserve-none-list=%t/list %s %S/Inputs/wrap/lib.c %t/mock.o -Wl,--wrap=scale12 -o %t/prog-lld > %t/out-lld 2> %t/err-lld
// RUN: count 0 < %t/out-lld
// RUN: FileCheck %s --check-prefix=ONE < %t/err-lld
// RUN: not test -e %t/prog-lld
// ONE: clang: error: '--wrap=scale12' does not reach the calls to 'scale12' {{.*}}: '{{.*}}boundary-wrap-{{.*}}.o' calls its preserve_none body 'scale12.preserve_none_list'{{.*}}
// ONE-NOT: {{.}}
// RUN: echo '-fuse-ld=lld -fpreserve-none-list=%t/list %t/main.o %t/lib.o %t/mock.o -Xlinker --wrap -Xlinker scale12 -o %t/prog-lld' > %t/rsp
// RUN: not %clang @%t/rsp > %t/out-rsp 2> %t/err-rsp
// RUN: count 0 < %t/out-rsp
// RUN: FileCheck %s -DMAIN=%t/main.o < %t/err-rsp
//
// Full LTO and ThinLTO (the front door links with lld then), with -s:
// bitcode callers are traced too.
// RUN: for L in -flto -flto=thin; do \
// RUN:   %clang $L -O2 -fpreserve-none-list=%t/list -c %s -o %t/main-lto.o && \
// RUN:   not %clang $L -O2 %t/main-lto.o %t/lib.o %t/mock.o -Wl,--wrap=scale12 -s -o %t/prog-lto > %t/out-lto 2> %t/err-lto || exit 1; \
// RUN:   count 0 < %t/out-lto && FileCheck %s -DMAIN=%t/main-lto.o < %t/err-lto && not test -e %t/prog-lto || exit 1; \
// RUN: done
//
// C++: the wrap names the mangled symbol, as the linker does.
// RUN: echo 'fun:_Z5scalel' > %t/list-cxx
// RUN: echo 'long scale(long a) { return a; }' > %t/lib.cpp
// RUN: printf 'long scale(long);\nint main() { return (int)scale(1); }\n' > %t/use.cpp
// RUN: printf 'long __real__Z5scalel(long);\nextern "C" long __wrap__Z5scalel(long a) { return a + 1; }\n' > %t/wrap.cpp
// RUN: %clangxx -fpreserve-none-list=%t/list-cxx -c %t/lib.cpp -o %t/libxx.o
// RUN: %clangxx -fpreserve-none-list=%t/list-cxx -c %t/use.cpp -o %t/usexx.o
// RUN: %stock_clangxx -c %t/wrap.cpp -o %t/wrapxx.o
// RUN: for L in bfd lld; do \
// RUN:   not %clangxx -fuse-ld=$L %t/usexx.o %t/libxx.o %t/wrapxx.o -Wl,--wrap=_Z5scalel -o %t/progxx 2> %t/errxx || exit 1; \
// RUN:   FileCheck %s --check-prefix=CXX -DUSE=%t/usexx.o < %t/errxx || exit 1; \
// RUN: done
// CXX: clang++: error: '--wrap=_Z5scalel' does not reach the calls to '_Z5scalel' {{.*}}: '[[USE]]' calls its preserve_none body '_Z5scalel.preserve_none_list'{{.*}}
// CXX-NOT: {{.}}
//
// A caller in an archive: the error names the member as the linker does.
// RUN: rm -f %t/libmain.a && llvm-ar rc %t/libmain.a %t/main.o
// RUN: not %clang -fuse-ld=lld %t/lib.o %t/mock.o %t/libmain.a -Wl,--wrap=scale12 -o %t/prog-ar 2> %t/err-ar
// RUN: FileCheck %s --check-prefix=AR < %t/err-ar
// RUN: not %clang -fuse-ld=bfd %t/lib.o %t/mock.o %t/libmain.a -Wl,--wrap=scale12 -o %t/prog-ar 2> %t/err-ar-bfd
// RUN: FileCheck %s --check-prefix=AR < %t/err-ar-bfd
// AR: clang: error: '--wrap=scale12' {{.*}}: '{{.*}}libmain.a(main.o)' calls its preserve_none body
//
// No false error: a wrap of a name the list does not name, and a wrapper
// built with a list that names scale12 and __wrap_scale12 (it defines
// `__wrap_scale12.preserve_none_list`): they link, say nothing about the
// wrap (only that the list's one entry matched no function), and run as
// stock clang's program does.
// RUN: echo 'fun:other' > %t/other-list
// RUN: echo 'fun:scale12' > %t/both-list
// RUN: echo 'fun:__wrap_scale12' >> %t/both-list
// RUN: %clang -O2 -fpreserve-none-list=%t/both-list -c %S/Inputs/wrap/mock.c -o %t/mock-list.o
// RUN: %clang -O2 -fpreserve-none-list=%t/other-list -c %s -o %t/main-other.o
// RUN: %clang -O2 -fpreserve-none-list=%t/other-list -c %S/Inputs/wrap/lib.c -o %t/lib-other.o
// RUN: for L in bfd lld; do \
// RUN:   %clang -fuse-ld=$L -O2 -fpreserve-none-list=%t/other-list %s %S/Inputs/wrap/lib.c %t/mock.o -Wl,--wrap=scale12 -o %t/unlisted > %t/out-unlisted 2>&1 && \
// RUN:   FileCheck %s --check-prefix=UNUSED -DP=%t --implicit-check-not=error: --implicit-check-not=warning: < %t/out-unlisted && %t/unlisted | FileCheck %s --check-prefix=OUT || exit 1; \
// RUN:   %clang -fuse-ld=$L %t/main-other.o %t/lib-other.o %t/mock-list.o -Wl,--wrap=scale12 -o %t/wrapper-listed > %t/out-wrapper 2>&1 && \
// RUN:   count 0 < %t/out-wrapper && %t/wrapper-listed | FileCheck %s --check-prefix=OUT || exit 1; \
// RUN: done
//
// The wrapped function's definition built with the list, its callers
// without: GNU ld wraps no call inside the defining object, with or
// without the list, so the link is right and goes through. lld also wraps
// the calls inside it, which code built with the list makes to the body:
// an error naming the defining object.
// RUN: %clang -fuse-ld=bfd %t/main-other.o %t/lib.o %t/mock.o -Wl,--wrap=scale12 -o %t/def-bfd > %t/out-def 2>&1
// RUN: count 0 < %t/out-def
// RUN: %t/def-bfd | FileCheck %s --check-prefix=OUT
// RUN: not %clang -fuse-ld=lld %t/main-other.o %t/lib.o %t/mock.o -Wl,--wrap=scale12 -o %t/def-lld > %t/out-def 2> %t/err-def
// RUN: count 0 < %t/out-def
// RUN: FileCheck %s --check-prefix=DEF -DLIB=%t/lib.o < %t/err-def
// DEF: clang: error: '--wrap=scale12' does not reach the calls to 'scale12' from code built with '-fpreserve-none-list=': '[[LIB]]' defines its preserve_none body 'scale12.preserve_none_list', which its own calls reach without the wrap; leave 'scale12' out of the list, or build that code without it
// DEF-NOT: {{.}}
//
// AArch64: the same error, and the same program without the list.
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O0 -c %S/Inputs/wrap/mock.c -o %t/mock-a64.o && \
// RUN:   %clang %aarch64_flags -O2 -fpreserve-none-list=%t/list -c %s -o %t/main-a64.o && \
// RUN:   %clang %aarch64_flags -O2 -fpreserve-none-list=%t/list -c %S/Inputs/wrap/lib.c -o %t/lib-a64.o && \
// RUN:   not %clang %aarch64_flags %t/main-a64.o %t/lib-a64.o %t/mock-a64.o -Wl,--wrap=scale12 -o %t/a64 2> %t/err-a64 && \
// RUN:   FileCheck %s -DMAIN=%t/main-a64.o < %t/err-a64 && not test -e %t/a64 && \
// RUN:   %clang %aarch64_flags -O2 -fpreserve-none-list=%t/other-list %s %S/Inputs/wrap/lib.c %t/mock-a64.o -Wl,--wrap=scale12 -o %t/a64-unlisted && \
// RUN:   %run_aarch64 %t/a64-unlisted | FileCheck %s --check-prefix=OUT %}
// UNUSED: {{^}}[[P]]/other-list:1:1: warning: 'fun:other' matched no function in the program{{$}}
#include <stdio.h>

long scale12(long, long, long, long, long, long, long, long, long, long, long,
             long);

int main(int Argc, char **Argv) {
  (void)Argv;
  printf("%ld\n", scale12(Argc, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1));
  return 0;
}
