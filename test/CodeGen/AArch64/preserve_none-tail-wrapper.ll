; The fact cacs's wrappers (shields and C-entry thunks) rely on: a `tail`
; preserve_none call from a C function is never made a sibling call (the C
; caller's callee-saved registers are not a subset of preserve_none's), so
; the wrapper keeps its frame and saves x19-x28; and FastISel, which lowers
; every function at -O0 with -fno-global-isel, leaves a tail call to
; SelectionDAG, which passes the arguments in x20, x21 (LLVM 19 and 22). A
; `notail` call there gets x0, x1 (see NOTAIL).
;
; RUN: llc -O2 -mtriple=aarch64-linux-gnu %s -o - | FileCheck %s
; RUN: llc -O0 -mtriple=aarch64-linux-gnu -global-isel=0 -fast-isel %s -o - | FileCheck %s
; RUN: sed 's/ tail call/ notail call/' %s | llc -O0 -mtriple=aarch64-linux-gnu -global-isel=0 -fast-isel -o - | FileCheck %s --check-prefix=NOTAIL

declare preserve_nonecc i64 @leaf(i64, i64)

define i64 @wrapper(i64 %a, i64 %b) noinline {
; CHECK-LABEL: wrapper:
; CHECK: stp x28, x27
; CHECK-DAG: mov x20, x0
; CHECK-DAG: mov x21, x1
; CHECK-NEXT: bl leaf
; CHECK-NOT: {{\sb\s+leaf}}
; CHECK: ret
; NOTAIL-LABEL: wrapper:
; NOTAIL-NOT: mov x20, x0
; NOTAIL: bl leaf
  %r = tail call preserve_nonecc i64 @leaf(i64 %a, i64 %b)
  ret i64 %r
}
