; REQUIRES: llvm-19
; Documents an LLVM 19 limitation: a preserve_nonecc function on x86-64 that
; needs both stack realignment and a dynamic alloca (i.e. a base pointer)
; is rejected by llc with a fatal error (abort), because preserve_none does
; not preserve %rbx, which would have to hold the base pointer.
; LLVM 22 compiles it; see preserve_none-realign-dynalloca-llvm22.ll.
; => On LLVM 19 such functions are not eligible for preserve_none.
;
; RUN: not --crash llc -mtriple=x86_64-linux-gnu < %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s
; CHECK: LLVM ERROR: Stack realignment in presence of dynamic allocas is not supported with{{ ?}}this calling convention

declare preserve_nonecc void @pn_callee(i64)
declare void @use(ptr, ptr)

define preserve_nonecc void @pn_realign_dynalloca(i64 %n) nounwind {
  %big = alloca i64, align 64
  %dyn = alloca i8, i64 %n, align 16
  call preserve_nonecc void @pn_callee(i64 %n)
  call void @use(ptr %big, ptr %dyn)
  ret void
}
