; The wait-loop heuristic of shieldsColdCall (isRareWait in
; PreserveNoneRules.cpp). Without a profile or a hint, the static block
; frequencies take the wait loop `while (full) yield();` for 32 times hotter
; than the byte loop around it; the heuristic takes such a yield as rare and
; routes it through a C-convention shield, unless the loop around it arms the
; wait itself (stores what makes it wait: a one-slot channel), the yield is
; not inside a work loop, the loop does more than wait, or branch weights say
; how often it waits.
;
; RUN: %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s --check-prefixes=CHECK,X86
; RUN: %opt_cacs -passes=preserve-none-safety -S %s -mtriple=aarch64-unknown-linux-gnu | FileCheck %s --check-prefixes=CHECK,A64
; RUN: %opt_cacs -passes=preserve-none-safety -S %s -cacs-cold-wait-loop=false | FileCheck %s --check-prefix=OFF
; RUN: %opt_cacs -passes=preserve-none-safety -S %s -cacs-cold-call-shield=false | FileCheck %s --check-prefix=OFF
; RUN: %opt_cacs -passes=preserve-none-safety -disable-output %s -pass-remarks=preserve-none-safety 2>&1 | FileCheck %s --check-prefix=REMARK

target triple = "x86_64-unknown-linux-gnu"

@waits = global i64 0
@count = global i64 0

declare preserve_nonecc void @yield()
declare preserve_nonecc i32 @pn_setjmp(ptr) returns_twice
declare void @poll()
declare i32 @__gxx_personality_v0(...)

; bench/patterns/srv_client.c's send_request, as -O2 leaves it: the byte loop
; stores len + 1, which does not decide whether the next byte waits.
define void @wait_in_byte_loop(ptr %p, i64 %n) {
; CHECK-LABEL: define void @wait_in_byte_loop(
; CHECK: wait:
; CHECK-NEXT: %w = load i64, ptr @waits, align 8
; CHECK-NEXT: %w1 = add i64 %w, 1
; CHECK-NEXT: store i64 %w1, ptr @waits, align 8
; CHECK-NEXT: call void @yield.cacs.shield()
; CHECK-NEXT: %len1 = load i32, ptr %p, align 4
; CHECK-NEXT: %full1 = icmp eq i32 %len1, 256
; CHECK-NEXT: br i1 %full1, label %wait, label %put
; OFF-LABEL: define void @wait_in_byte_loop(
; OFF: wait:
; OFF: call preserve_nonecc void @yield()
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %put ]
  %len0 = load i32, ptr %p, align 4
  %full0 = icmp eq i32 %len0, 256
  br i1 %full0, label %wait, label %put
wait:
  %w = load i64, ptr @waits, align 8
  %w1 = add i64 %w, 1
  store i64 %w1, ptr @waits, align 8
  call preserve_nonecc void @yield()
  %len1 = load i32, ptr %p, align 4
  %full1 = icmp eq i32 %len1, 256
  br i1 %full1, label %wait, label %put
put:
  %len = phi i32 [ %len0, %loop ], [ %len1, %wait ]
  %slot = getelementptr i8, ptr %p, i64 8
  store i8 7, ptr %slot, align 1
  %len.next = add i32 %len, 1
  store i32 %len.next, ptr %p, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A wait that is not rotated (header and body), leaves early when the pipe
; is closed (srv_read's), and yields through an invoke.
define void @wait_two_exits(ptr %p, i64 %n) personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @wait_two_exits(
; CHECK: body:
; CHECK-NEXT: invoke void @yield.cacs.shield()
; CHECK-NEXT: to label %head unwind label %lp
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %take ]
  br label %head
head:
  %len = load volatile i32, ptr %p, align 4
  %empty = icmp eq i32 %len, 0
  br i1 %empty, label %closed, label %take
closed:
  %cp = getelementptr i8, ptr %p, i64 4
  %c = load i32, ptr %cp, align 4
  %isclosed = icmp ne i32 %c, 0
  br i1 %isclosed, label %exit, label %body
body:
  invoke preserve_nonecc void @yield() to label %head unwind label %lp
take:
  %len.next = add i32 %len, -1
  store volatile i32 %len.next, ptr %p, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

; A one-slot channel: the put stores full = 1, so the next put waits unless
; the other side ran (bench/patterns' pipeline): armed, not rare.
define void @armed_by_store(ptr %p, i64 %n) {
; CHECK-LABEL: define void @armed_by_store(
; CHECK: wait:
; CHECK-NEXT: call preserve_nonecc void @yield()
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %put ]
  %f0 = load i32, ptr %p, align 4
  %full0 = icmp ne i32 %f0, 0
  br i1 %full0, label %wait, label %put
wait:
  call preserve_nonecc void @yield()
  %f1 = load i32, ptr %p, align 4
  %full1 = icmp ne i32 %f1, 0
  br i1 %full1, label %wait, label %put
put:
  %v = getelementptr i8, ptr %p, i64 8
  store i64 %i, ptr %v, align 8
  store i32 1, ptr %p, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; The same after GVN saw the store: the flag comes round the loop as a
; constant in a phi.
define void @armed_by_phi(ptr %p, i64 %n) {
; CHECK-LABEL: define void @armed_by_phi(
; CHECK: wait:
; CHECK-NEXT: call preserve_nonecc void @yield()
entry:
  %f0 = load i32, ptr %p, align 4
  %empty0 = icmp eq i32 %f0, 0
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %put ]
  %empty = phi i1 [ %empty0, %entry ], [ false, %put ]
  br i1 %empty, label %put, label %wait
wait:
  call preserve_nonecc void @yield()
  %f1 = load i32, ptr %p, align 4
  %empty1 = icmp eq i32 %f1, 0
  br i1 %empty1, label %put, label %wait
put:
  store i32 1, ptr %p, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; No work loop around the wait: nothing to keep registers for.
define void @wait_alone(ptr %p) {
; CHECK-LABEL: define void @wait_alone(
; CHECK: wait:
; CHECK-NEXT: call preserve_nonecc void @yield()
entry:
  br label %wait
wait:
  call preserve_nonecc void @yield()
  %len = load i32, ptr %p, align 4
  %empty = icmp eq i32 %len, 0
  br i1 %empty, label %wait, label %exit
exit:
  ret void
}

; A work loop that yields on every round (the ring), inside another loop:
; it carries its sum from round to round.
define i64 @hot_work_loop(ptr %p, i64 %n, i64 %m) {
; CHECK-LABEL: define i64 @hot_work_loop(
; CHECK: inner:
; CHECK: call preserve_nonecc void @yield()
entry:
  br label %outer
outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %latch ]
  %s0 = phi i64 [ 0, %entry ], [ %s, %latch ]
  br label %inner
inner:
  %i = phi i64 [ 0, %outer ], [ %i.next, %inner ]
  %s = phi i64 [ %s0, %outer ], [ %s.next, %inner ]
  %s.next = add i64 %s, %i
  call preserve_nonecc void @yield()
  %lim = load i64, ptr %p, align 8
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %lim
  br i1 %more, label %inner, label %latch
latch:
  %j.next = add i64 %j, 1
  %done = icmp eq i64 %j.next, %m
  br i1 %done, label %exit, label %outer
exit:
  ret i64 %s
}

; A loop that calls something else besides the yield does work.
define void @wait_and_poll(ptr %p, i64 %n) {
; CHECK-LABEL: define void @wait_and_poll(
; CHECK: wait:
; CHECK-NEXT: call void @poll()
; CHECK-NEXT: call preserve_nonecc void @yield()
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %put ]
  br label %wait
wait:
  call void @poll()
  call preserve_nonecc void @yield()
  %len = load i32, ptr %p, align 4
  %full = icmp eq i32 %len, 256
  br i1 %full, label %wait, label %put
put:
  %len.next = add i32 %len, 1
  store i32 %len.next, ptr %p, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; `while (count--) yield();` on a global counts down what it reads: it
; yields on every round it runs, it does not wait.
define void @countdown(ptr %p, i64 %n) {
; CHECK-LABEL: define void @countdown(
; CHECK: wait:
; CHECK: call preserve_nonecc void @yield()
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %put ]
  br label %wait
wait:
  %c = load i64, ptr @count, align 8
  %c1 = add i64 %c, -1
  store i64 %c1, ptr @count, align 8
  call preserve_nonecc void @yield()
  %c2 = load i64, ptr @count, align 8
  %more = icmp ne i64 %c2, 0
  br i1 %more, label %wait, label %put
put:
  store i32 0, ptr %p, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A hint that the wait is likely (`__builtin_expect(full, 1)`) is believed.
define void @hinted_likely(ptr %p, i64 %n) {
; CHECK-LABEL: define void @hinted_likely(
; CHECK: wait:
; CHECK-NEXT: call preserve_nonecc void @yield()
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %put ]
  %len0 = load i32, ptr %p, align 4
  %full0 = icmp eq i32 %len0, 256
  br i1 %full0, label %wait, label %put, !prof !0
wait:
  call preserve_nonecc void @yield()
  %len1 = load i32, ptr %p, align 4
  %full1 = icmp eq i32 %len1, 256
  br i1 %full1, label %wait, label %put, !prof !0
put:
  %len = phi i32 [ %len0, %loop ], [ %len1, %wait ]
  %len.next = add i32 %len, 1
  store i32 %len.next, ptr %p, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; What a shield cannot keep exactly stays as it is in a rare wait too: a
; second return into the shield's frame (returns_twice), operand bundles.
define void @wait_unshieldable(ptr %p, i64 %n) {
; CHECK-LABEL: define void @wait_unshieldable(
; CHECK: twice:
; CHECK-NEXT: %r = call preserve_nonecc i32 @pn_setjmp(ptr %p)
; CHECK: bundle:
; CHECK-NEXT: call preserve_nonecc void @yield() [ "deopt"() ]
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %put ]
  br label %twice
twice:
  %r = call preserve_nonecc i32 @pn_setjmp(ptr %p)
  %len1 = load i32, ptr %p, align 4
  %full1 = icmp eq i32 %len1, 256
  br i1 %full1, label %twice, label %mid
mid:
  br label %bundle
bundle:
  call preserve_nonecc void @yield() [ "deopt"() ]
  %len2 = load i32, ptr %p, align 4
  %full2 = icmp eq i32 %len2, 256
  br i1 %full2, label %bundle, label %put
put:
  %len.next = add i32 %len2, 1
  store i32 %len.next, ptr %p, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; optnone code is left as it is (AArch64 shields it for FastISel, which
; lowers it, as the safety pass always does).
define void @wait_optnone(ptr %p, i64 %n) noinline optnone {
; CHECK-LABEL: define void @wait_optnone(
; CHECK: wait:
; X86-NEXT: call preserve_nonecc void @yield()
; A64-NEXT: call void @yield.cacs.shield{{.*}}()
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %put ]
  br label %wait
wait:
  call preserve_nonecc void @yield()
  %len = load i32, ptr %p, align 4
  %full = icmp eq i32 %len, 256
  br i1 %full, label %wait, label %put
put:
  %len.next = add i32 %len, 1
  store i32 %len.next, ptr %p, align 4
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; X86: define private void @yield.cacs.shield()
; X86-NOT: cacs.shield
; OFF-NOT: cacs.shield

; REMARK: remark: <unknown>:0:0: a preserve_none call in 'wait_in_byte_loop' goes through a shield (callee 'yield'): the call waits in a loop inside a work loop that does not arm the wait, taken as rare, and the work loop keeps its callee-saved registers
; REMARK-NEXT: remark: <unknown>:0:0: a preserve_none call in 'wait_two_exits' goes through a shield (callee 'yield'): the call waits in a loop inside a work loop that does not arm the wait, taken as rare, and the work loop keeps its callee-saved registers
; REMARK-NOT: remark

!0 = !{!"branch_weights", i32 2000, i32 1}
