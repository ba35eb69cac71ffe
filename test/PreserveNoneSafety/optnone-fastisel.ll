; On AArch64, FastISel lowers the calls of optnone functions in an optimizing
; compile, and passes preserve_none arguments in the AAPCS registers (x0, x1,
; ...) where the callee reads x20, x21, ... (LLVM 19 and 22; found by
; scripts/difftest, see test/Reliability/aarch64-optnone-caller.c). Such calls
; go through a shield, which is not optnone. x86-64's FastISel leaves
; preserve_none calls to SelectionDAG, so nothing changes there.
;
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefix=A64
; RUN: sed -e 's/TRIPLE/x86_64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefix=X86
;
; The shield's code is what the optimizing selector makes: arguments in x20..
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety | llc -O2 | FileCheck %s --check-prefix=ASM
; At -O0 with -fno-global-isel FastISel lowers the shield too: its call is
; marked tail (in tail position), which FastISel leaves to SelectionDAG.
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety | llc -O0 -global-isel=0 -fast-isel | FileCheck %s --check-prefix=ASM

target triple = "TRIPLE"

declare preserve_nonecc i64 @pn(i64, i64)

define i64 @optnone_direct(i64 %x) noinline optnone {
; A64-LABEL: define i64 @optnone_direct(
; A64: %r = call i64 @pn.cacs.shield(i64 %x, i64 7)
; X86-LABEL: define i64 @optnone_direct(
; X86: %r = call preserve_nonecc i64 @pn(i64 %x, i64 7)
  %r = call preserve_nonecc i64 @pn(i64 %x, i64 7)
  ret i64 %r
}

define i64 @optnone_indirect(ptr %f, i64 %x) noinline optnone {
; A64-LABEL: define i64 @optnone_indirect(
; A64: %r = call i64 @indirect.cacs.shield(ptr %f, i64 %x, i64 8)
; X86-LABEL: define i64 @optnone_indirect(
; X86: %r = call preserve_nonecc i64 %f(i64 %x, i64 8)
  %r = call preserve_nonecc i64 %f(i64 %x, i64 8)
  ret i64 %r
}

define i64 @optimized(i64 %x) {
; A64-LABEL: define i64 @optimized(
; A64: %r = call preserve_nonecc i64 @pn(i64 %x, i64 9)
  %r = call preserve_nonecc i64 @pn(i64 %x, i64 9)
  ret i64 %r
}

; A64: define private i64 @pn.cacs.shield(i64 %0, i64 %1) #[[ATTR:[0-9]+]]
; A64: tail call preserve_nonecc i64 @pn(i64 %0, i64 %1)
; A64: define private i64 @indirect.cacs.shield(ptr %0, i64 %1, i64 %2) #[[ATTR]]
; A64: tail call preserve_nonecc i64 %0(i64 %1, i64 %2)
; A64: attributes #[[ATTR]] = { noinline uwtable "cacs-wrapper" }
; X86-NOT: cacs.shield

; ASM-LABEL: pn.cacs.shield:
; ASM-DAG: mov x20, x0
; ASM-DAG: mov x21, x1
; ASM: bl pn
; ASM-LABEL: indirect.cacs.shield:
; ASM-DAG: mov x20, x1
; ASM-DAG: mov x21, x2
; ASM: blr x{{[0-9]+}}
