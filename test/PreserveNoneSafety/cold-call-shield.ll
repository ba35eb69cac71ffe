; A rare preserve_none call (here a yield in a wait loop that a hint says is
; seldom entered) goes through a C-convention shield, so that the hot loop
; around it keeps its values in callee-saved registers (shieldsColdCall in
; PreserveNoneRules.cpp). A call as hot as the rest of its function, a
; musttail, returns_twice or noreturn call stays as it is.
;
; RUN: %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s
; RUN: %opt_cacs -passes=preserve-none-safety -S %s -mtriple=aarch64-unknown-linux-gnu | FileCheck %s
; RUN: %opt_cacs -passes=preserve-none-safety -S %s -cacs-cold-call-shield=false | FileCheck %s --check-prefix=OFF
; RUN: %opt_cacs -passes=preserve-none-safety -disable-output %s -pass-remarks=preserve-none-safety 2>&1 | FileCheck %s --check-prefix=REMARK

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @yield()
declare preserve_nonecc i32 @pn_setjmp(ptr) returns_twice
declare preserve_nonecc void @pn_exit() noreturn
declare preserve_nonecc void @pn_tail(ptr, i64)
declare i32 @__gxx_personality_v0(...)

; The byte loop runs 2,000 times for one yield.
define void @cold_in_loop(ptr %p, i64 %n) {
; CHECK-LABEL: define void @cold_in_loop(
; CHECK-NEXT: entry:
; CHECK-NEXT: br label %loop
; CHECK: wait:
; CHECK-NEXT: call void @yield.cacs.shield()
; CHECK-NEXT: br label %check
; OFF-LABEL: define void @cold_in_loop(
; OFF-SAME: #[[OFFATTR:[0-9]+]] {
; OFF: wait:
; OFF-NEXT: call preserve_nonecc void @yield()
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
  call preserve_nonecc void @yield()
  br label %check
store:
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Compiled with -mllvm -cacs-cold-call-shield=false (recorded in the
; function, for an LTO link that is not given the option): left alone.
define void @cold_off_by_compile(ptr %p, i64 %n) #0 {
; CHECK-LABEL: define void @cold_off_by_compile(
; CHECK: wait:
; CHECK-NEXT: call preserve_nonecc void @yield()
; CHECK-NEXT: br label %check
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
  call preserve_nonecc void @yield()
  br label %check
store:
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Without the hint, the wait loop is as hot as anything else here.
define void @hot_in_loop(ptr %p, i64 %n) {
; CHECK-LABEL: define void @hot_in_loop(
; CHECK: call preserve_nonecc void @yield()
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call preserve_nonecc void @yield()
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; An invoke keeps its destinations; the shield is not nounwind and has an
; unwind table, since the exception passes through it.
define void @cold_invoke(ptr %p, i64 %n) personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @cold_invoke(
; CHECK: wait:
; CHECK-NEXT: invoke void @yield.cacs.shield()
; CHECK-NEXT: to label %check unwind label %lp
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
  invoke preserve_nonecc void @yield() to label %check unwind label %lp
store:
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

; A musttail call must stay in a function of its own convention.
define preserve_nonecc void @cold_musttail(ptr %p, i64 %n) {
; CHECK-LABEL: define preserve_nonecc void @cold_musttail(
; CHECK: tail:
; CHECK-NEXT: musttail call preserve_nonecc void @pn_tail(ptr %p, i64 %n)
; CHECK-NEXT: ret void
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %store ]
  %len = load volatile i32, ptr %p
  %full = icmp eq i32 %len, 256
  br i1 %full, label %tail, label %store, !prof !0
tail:
  musttail call preserve_nonecc void @pn_tail(ptr %p, i64 %n)
  ret void
store:
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A second return into a shield's frame that is gone, and a call after
; which nothing is live.
define void @cold_returns_twice_noreturn(ptr %p, i64 %n) {
; CHECK-LABEL: define void @cold_returns_twice_noreturn(
; CHECK: rare:
; CHECK-NEXT: %r = call preserve_nonecc i32 @pn_setjmp(ptr %p)
; CHECK: gone:
; CHECK-NEXT: call preserve_nonecc void @pn_exit()
; CHECK-NEXT: unreachable
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %store ], [ %i, %rare ]
  %len = load volatile i32, ptr %p
  %full = icmp eq i32 %len, 256
  br i1 %full, label %rare, label %store, !prof !0
rare:
  %r = call preserve_nonecc i32 @pn_setjmp(ptr %p)
  %z = icmp eq i32 %r, 7
  br i1 %z, label %gone, label %loop
gone:
  call preserve_nonecc void @pn_exit()
  unreachable
store:
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A shield passes every argument on in its place, with its attributes
; (sret and zeroext change the registers or the extension of a value), and
; the result.
%struct.big = type { [5 x i64] }
declare preserve_nonecc void @pn_args(ptr sret(%struct.big) align 8, i8 zeroext, double, i64, i64)
declare preserve_nonecc signext i16 @pn_ret(i64, i64)

define void @cold_args(ptr %p, ptr %out, i8 %c, i64 %a, i64 %b, double %d) {
; CHECK-LABEL: define void @cold_args(
; CHECK: rare:
; CHECK-NEXT: call void @pn_args.cacs.shield(ptr sret(%struct.big) align 8 %out, i8 zeroext %c, double %d, i64 %a, i64 %b)
; CHECK-NEXT: %r = call signext i16 @pn_ret.cacs.shield(i64 %a, i64 %b)
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %store ]
  %len = load volatile i32, ptr %p
  %full = icmp eq i32 %len, 256
  br i1 %full, label %rare, label %store, !prof !0
rare:
  call preserve_nonecc void @pn_args(ptr sret(%struct.big) align 8 %out, i8 zeroext %c, double %d, i64 %a, i64 %b)
  %r = call preserve_nonecc signext i16 @pn_ret(i64 %a, i64 %b)
  store volatile i16 %r, ptr %p
  br label %store
store:
  store volatile i32 0, ptr %p
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %a
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; One shield per callee and lowering: the call and the invoke share it. The
; callee may throw, so the shield is not nounwind and has an unwind table.
; CHECK: define private void @yield.cacs.shield() #[[ATTR:[0-9]+]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: tail call preserve_nonecc void @yield()
; CHECK-NEXT: ret void
; CHECK-NEXT: }
; CHECK-EMPTY:
; CHECK-NEXT: ; Function Attrs: noinline uwtable
; CHECK-NEXT: define private void @pn_args.cacs.shield(ptr sret(%struct.big) align 8 %0, i8 zeroext %1, double %2, i64 %3, i64 %4) #[[ATTR]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: tail call preserve_nonecc void @pn_args(ptr sret(%struct.big) align 8 %0, i8 zeroext %1, double %2, i64 %3, i64 %4)
; CHECK-NEXT: ret void
; CHECK-NEXT: }
; CHECK-EMPTY:
; CHECK-NEXT: ; Function Attrs: noinline uwtable
; CHECK-NEXT: define private signext i16 @pn_ret.cacs.shield(i64 %0, i64 %1) #[[ATTR]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: %2 = tail call preserve_nonecc signext i16 @pn_ret(i64 %0, i64 %1)
; CHECK-NEXT: ret i16 %2
; CHECK-NEXT: }
; CHECK-NOT: cacs.shield
; CHECK: attributes #[[ATTR]] = { noinline uwtable "cacs-wrapper" }
; OFF-NOT: cacs.shield
; With the option off, the pass records it on every definition, for an LTO
; link.
; OFF: attributes #[[OFFATTR]] = { "cacs-cold-call-shield"="false" }
; OFF-NOT: "cacs-cold-call-shield"

; REMARK: remark: <unknown>:0:0: a preserve_none call in 'cold_in_loop' goes through a shield (callee 'yield'): the call is rare, and the hot path around it keeps its callee-saved registers
; REMARK-NEXT: remark: <unknown>:0:0: a preserve_none call in 'cold_invoke' goes through a shield (callee 'yield'): the call is rare, and the hot path around it keeps its callee-saved registers
; REMARK-NEXT: remark: <unknown>:0:0: a preserve_none call in 'cold_args' goes through a shield (callee 'pn_args'): the call is rare
; REMARK-NEXT: remark: <unknown>:0:0: a preserve_none call in 'cold_args' goes through a shield (callee 'pn_ret'): the call is rare
; REMARK-NOT: remark

attributes #0 = { "cacs-cold-call-shield"="false" }

!0 = !{!"branch_weights", i32 1, i32 2000}
