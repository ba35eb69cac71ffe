; The fact cacs's wrappers (shields and C-entry thunks) rely on: a `tail`
; preserve_none call from a C function is never made a sibling call (the C
; caller's callee-saved registers are not a subset of preserve_none's), so
; the wrapper keeps its frame and saves rbx, rbp and r12-r15 (LLVM 19 and 22,
; -O0 and -O2).
;
; RUN: llc -O2 -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s
; RUN: llc -O0 -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s

declare preserve_nonecc i64 @leaf(i64, i64)

define i64 @wrapper(i64 %a, i64 %b) noinline {
; CHECK-LABEL: wrapper:
; CHECK: pushq %r15
; CHECK: pushq %rbx
; CHECK-DAG: movq %rdi, %r12
; CHECK-DAG: movq %rsi, %r13
; CHECK: callq leaf
; CHECK-NOT: jmp leaf
; CHECK: popq %rbx
; CHECK: retq
  %r = tail call preserve_nonecc i64 @leaf(i64 %a, i64 %b)
  ret i64 %r
}
