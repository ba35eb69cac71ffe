// A call through an old-style declaration: knr-def.c defines `long kf(long)`,
// knr-use.c calls it through `long kf();`, both built with `fun:kf`. The
// unprototyped declaration cannot take the convention (clang gives it a
// variadic type), so its call stays a C call of the plain name, which is a C
// entry: the result is stock clang's at every -O, with -flto too (before, the
// definition was preserve_none under the plain name: wrong results per unit,
// and under -flto a refusal that called the direct call "indirect ...
// variadic": issue 21, defect 2).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 %S/Inputs/boundary/knr-def.c %S/Inputs/boundary/knr-use.c -o %t/ref
// RUN: %t/ref > %t/expected
// RUN: for O in -O0 -O2 "-O2 -flto" "-O2 -flto=thin"; do \
// RUN:   %clang $O -c %S/Inputs/boundary/knr-def.c -o %t/def.o -fpreserve-none-list=%S/Inputs/boundary/knr.list && \
// RUN:   %clang $O -c %S/Inputs/boundary/knr-use.c -o %t/use.o -fpreserve-none-list=%S/Inputs/boundary/knr.list 2>/dev/null && \
// RUN:   %clang $O %t/def.o %t/use.o -o %t/prog && %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ for O in -O0 -O2 "-O2 -flto"; do \
// RUN:   %clang %aarch64_flags $O -c %S/Inputs/boundary/knr-def.c -o %t/def-a64.o -fpreserve-none-list=%S/Inputs/boundary/knr.list && \
// RUN:   %clang %aarch64_flags $O -c %S/Inputs/boundary/knr-use.c -o %t/use-a64.o -fpreserve-none-list=%S/Inputs/boundary/knr.list 2>/dev/null && \
// RUN:   %clang %aarch64_flags $O %t/def-a64.o %t/use-a64.o -o %t/prog-a64 && %run_aarch64 %t/prog-a64 > %t/out-a64 && diff %t/expected %t/out-a64 || exit 1; \
// RUN: done %}
