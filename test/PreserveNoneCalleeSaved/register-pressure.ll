; With -cacs-preserve-none-callee-saved=none, a local preserve_none function
; whose every use is a direct call saves nothing: with 15 values live at once
; it allocates rbp without a push. Without the setting, upstream's prologue
; pushes rbp. Its caller's call gets the empty mask, so the caller (C
; convention) saves rbp itself.
; REQUIRES: llvm-22
; RUN: %opt_cacs -passes=preserve-none-callee-saved -cacs-preserve-none-callee-saved=none %s -S | FileCheck %s --check-prefix=IR
; RUN: %opt_cacs -passes=preserve-none-callee-saved -cacs-preserve-none-callee-saved=none %s | llc -O2 -verify-machineinstrs | FileCheck %s --check-prefix=NONE
; RUN: %opt_cacs -passes=preserve-none-callee-saved %s | llc -O2 -verify-machineinstrs | FileCheck %s --check-prefix=UPSTREAM

target triple = "x86_64-unknown-linux-gnu"

@g = global [16 x i64] zeroinitializer

; IR: define internal preserve_nonecc void @pressure() #[[PRESSURE:[0-9]+]]
; IR: define void @entry() #[[ENTRY:[0-9]+]]
; IR-NEXT: call preserve_nonecc void @pressure() #[[CALL:[0-9]+]]
; IR-DAG: attributes #[[PRESSURE]] = { nounwind "cacs-preserve-none-callee-saved-none" "no_callee_saved_registers" }
; IR-DAG: attributes #[[ENTRY]] = { nounwind "cacs-preserve-none-callee-saved-none" }
; IR-DAG: attributes #[[CALL]] = { "no_callee_saved_registers" }

; NONE-LABEL: pressure:
; NONE-NEXT:  # %bb.0:
; NONE-NEXT:  movq g@GOTPCREL(%rip), %rax
; NONE:       movq 104(%rax), %rbp
; NONE:       movq %rbp, (%rax)
; NONE-NOT:   %rbp
; NONE:       retq
; UPSTREAM-LABEL: pressure:
; UPSTREAM-NEXT:  # %bb.0:
; UPSTREAM-NEXT:  pushq %rbp
; UPSTREAM:       popq %rbp
; UPSTREAM-NEXT:  retq
define internal preserve_nonecc void @pressure() #0 {
  %a0 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 0)
  %a1 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 1)
  %a2 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 2)
  %a3 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 3)
  %a4 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 4)
  %a5 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 5)
  %a6 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 6)
  %a7 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 7)
  %a8 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 8)
  %a9 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 9)
  %a10 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 10)
  %a11 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 11)
  %a12 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 12)
  %a13 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 13)
  %a14 = load volatile i64, ptr getelementptr (i64, ptr @g, i64 14)
  store volatile i64 %a0, ptr @g
  store volatile i64 %a1, ptr @g
  store volatile i64 %a2, ptr @g
  store volatile i64 %a3, ptr @g
  store volatile i64 %a4, ptr @g
  store volatile i64 %a5, ptr @g
  store volatile i64 %a6, ptr @g
  store volatile i64 %a7, ptr @g
  store volatile i64 %a8, ptr @g
  store volatile i64 %a9, ptr @g
  store volatile i64 %a10, ptr @g
  store volatile i64 %a11, ptr @g
  store volatile i64 %a12, ptr @g
  store volatile i64 %a13, ptr @g
  store volatile i64 %a14, ptr @g
  ret void
}

; NONE-LABEL: entry:
; NONE:       pushq %rbp
; NONE:       callq pressure
; UPSTREAM-LABEL: entry:
; UPSTREAM-NOT:   %rbp
; UPSTREAM:       callq pressure
define void @entry() #0 {
  call preserve_nonecc void @pressure()
  ret void
}

attributes #0 = { nounwind }
