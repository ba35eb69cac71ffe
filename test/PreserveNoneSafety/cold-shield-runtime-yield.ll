; A rare call of libcacs's preserve_none yield (cacs__yield_pn, or its _bp
; and _none entries) needs no shield of its own: libcacs's default-convention
; cacs_yield saves the same registers, and on x86-64 resumes its caller by a
; jump, where a shield's `ret` after the switch mispredicts on every resume
; (issue 22). Other preserve_none callees, the waits included, keep their
; shield, and cacs_yield itself (sched.c defines it in C off x86-64) keeps
; its call.
;
; RUN: %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s
; RUN: %opt_cacs -passes=preserve-none-safety -S %s -mtriple=aarch64-unknown-linux-gnu | FileCheck %s
; RUN: %opt_cacs -passes=preserve-none-safety -disable-output %s -pass-remarks=preserve-none-safety 2>&1 | FileCheck %s --check-prefix=REMARK

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @cacs__yield_pn()
declare preserve_nonecc void @cacs__yield_pn_bp()
declare preserve_nonecc void @cacs__yield_pn_none()
declare preserve_nonecc void @cacs__park_pn()

; CHECK-LABEL: define void @wait_pn(
; CHECK: wait:
; CHECK-NEXT: call void @cacs_yield()
; CHECK-NEXT: br label %check
define void @wait_pn(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %store ]
  br label %check
check:
  %len = load volatile i32, ptr %p
  %full = icmp eq i32 %len, 256
  br i1 %full, label %wait, label %store, !prof !0
wait:
  call preserve_nonecc void @cacs__yield_pn()
  br label %check
store:
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: define void @wait_bp_none(
; CHECK: wait:
; CHECK-NEXT: call void @cacs_yield()
; CHECK-NEXT: call void @cacs_yield()
; CHECK-NEXT: br label %check
define void @wait_bp_none(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %store ]
  br label %check
check:
  %len = load volatile i32, ptr %p
  %full = icmp eq i32 %len, 256
  br i1 %full, label %wait, label %store, !prof !0
wait:
  call preserve_nonecc void @cacs__yield_pn_bp()
  call preserve_nonecc void @cacs__yield_pn_none()
  br label %check
store:
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: define void @wait_park(
; CHECK: wait:
; CHECK-NEXT: call void @cacs__park_pn.cacs.shield()
define void @wait_park(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %store ]
  br label %check
check:
  %len = load volatile i32, ptr %p
  %full = icmp eq i32 %len, 256
  br i1 %full, label %wait, label %store, !prof !0
wait:
  call preserve_nonecc void @cacs__park_pn()
  br label %check
store:
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: define void @cacs_yield(
; CHECK: wait:
; CHECK-NEXT: call void @cacs__yield_pn.cacs.shield()
define void @cacs_yield() {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %store ]
  br label %check
check:
  %len = load volatile i32, ptr null
  %full = icmp eq i32 %len, 256
  br i1 %full, label %wait, label %store, !prof !0
wait:
  call preserve_nonecc void @cacs__yield_pn()
  br label %check
store:
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 100
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 2000}

; REMARK: remark: {{.*}}a preserve_none call in 'wait_pn' goes through a shield (callee 'cacs__yield_pn'): the call is rare, and the hot path around it keeps its callee-saved registers; the shield is libcacs's default-convention 'cacs_yield'
; REMARK: remark: {{.*}}a preserve_none call in 'wait_park' goes through a shield (callee 'cacs__park_pn'): the call is rare, and the hot path around it keeps its callee-saved registers{{$}}
