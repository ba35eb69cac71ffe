; Documents what upstream does (LLVM 19 and 22 alike) for `byval` arguments
; of preserve_nonecc functions on x86-64: this is a MISCOMPILE, recorded as
; current behaviour.
;
; With the C convention the caller copies a byval aggregate into its outgoing
; argument area. Under preserve_none the byval pointer is instead assigned
; to the next preserve_none GPR (r13 here) as if it were a plain pointer, and
; no copy is made; the callee then reads and WRITES the caller's object in
; place. Clang emits byval for C structs passed in memory (e.g. 4 x long), so
; plain C hits this. Run by hand (clang -O2): a preserve_none callee that
; modifies its struct parameter changed the caller's struct on LLVM 19, and
; segfaulted on LLVM 22 when the source was a constant in .rodata.
; => Functions with byval parameters must not be given preserve_none.
; (AArch64: same uncopied pointer on the caller side, and llc crashes on a
; byval formal; see AArch64/preserve_none-byval.ll and -byval-crash.ll.)
;
; RUN: llc -mtriple=x86_64-linux-gnu < %s | FileCheck %s

%S = type { i64, i64, i64, i64 }
declare preserve_nonecc void @pn_byval(i64, ptr byval(%S) align 8)
declare void @c_byval(i64, ptr byval(%S) align 8)
declare void @sink(ptr)

; preserve_none: the caller's pointer is forwarded in r13, no copy.
define void @call_pn_byval(ptr %p) nounwind {
; CHECK-LABEL: call_pn_byval:
; CHECK-NOT:     (%rdi)
; CHECK:         movl $7, %r12d
; CHECK-NEXT:    movq %rdi, %r13
; CHECK-NEXT:    callq pn_byval@PLT
  call preserve_nonecc void @pn_byval(i64 7, ptr byval(%S) align 8 %p)
  ret void
}

; Contrast, C convention: the four words are loaded and pushed (a copy).
define void @call_c_byval(ptr %p) nounwind {
; CHECK-LABEL: call_c_byval:
; CHECK-DAG:     movq 24(%rdi), [[W3:%r[a-z0-9]+]]
; CHECK-DAG:     movq (%rdi), [[W0:%r[a-z0-9]+]]
; CHECK:         pushq [[W3]]
; CHECK:         pushq [[W0]]
; CHECK-NEXT:    callq c_byval@PLT
  call void @c_byval(i64 7, ptr byval(%S) align 8 %p)
  ret void
}

; Callee: the store to "its own copy" goes through the incoming r13 pointer,
; i.e. into the caller's object.
define preserve_nonecc void @def_byval_write(i64 %a, ptr byval(%S) align 8 %p) nounwind {
; CHECK-LABEL: def_byval_write:
; CHECK-DAG:     movq %r12, 24(%r13)
; CHECK-DAG:     movq %r13, %rdi
; CHECK:         callq sink@PLT
  %f = getelementptr %S, ptr %p, i32 0, i32 3
  store i64 %a, ptr %f
  call void @sink(ptr %p)
  ret void
}
