; The calls that stay calls under calls by jump, each for one reason
; (callByJumpReason), with a missed remark naming it where the callee is
; switch-aware: an invoke (no remark: not a call), a callee that may unwind
; called from a function with a personality (an inline assembly statement
; has no call-site entry), a callee that does not return by the switch
; returns, more than six arguments, an i16 argument (preserve_none gives it
; a register of the C convention's list), an sret argument, a musttail call, a
; tail call the backend makes a jump, a callee that may clobber rbp, and
; every call with -mllvm -cacs-calls-by-jump=false. A call by jump in a
; function with a personality is kept only for a callee that may unwind.
;
; RUN: %opt_cacs -passes=switch-site-jump -pass-remarks-missed=switch-site-jump -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt_cacs -passes=switch-site-jump -cacs-calls-by-jump=false -pass-remarks-missed=switch-site-jump -S %s -o - 2>%t.off | FileCheck %s --check-prefix=OFF
; RUN: FileCheck %s --check-prefix=OFFREMARK < %t.off

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @cacs__yield_pn()
declare i32 @__gxx_personality_v0(...)

define internal preserve_nonecc i64 @aware(i64 %a) #0 {
  call preserve_nonecc void @cacs__yield_pn()
  ret i64 %a
}

define internal preserve_nonecc i64 @aware_nounwind(i64 %a) #1 {
  call preserve_nonecc void @cacs__yield_pn()
  ret i64 %a
}

define internal preserve_nonecc i64 @plain(i64 %a) {
  ret i64 %a
}

define internal preserve_nonecc i64 @seven(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g) #0 {
  call preserve_nonecc void @cacs__yield_pn()
  ret i64 %g
}

define internal preserve_nonecc i64 @narrow(i16 %a) #0 {
  call preserve_nonecc void @cacs__yield_pn()
  %w = zext i16 %a to i64
  ret i64 %w
}

define internal preserve_nonecc void @sret(ptr sret({ i64, i64, i64 }) %p) #0 {
  call preserve_nonecc void @cacs__yield_pn()
  store i64 1, ptr %p
  ret void
}

define internal preserve_nonecc i64 @rbp(i64 %a) #2 {
  call preserve_nonecc void @cacs__yield_pn()
  ret i64 %a
}

; CHECK-LABEL: define i64 @invoke(i64 %x) {{.*}}personality ptr @__gxx_personality_v0
; CHECK-NEXT:    %r = invoke preserve_nonecc i64 @aware(i64 %x)
; Under the personality, the nounwind callee is entered by a jump:
; CHECK:       ok:
; CHECK-NEXT:    %u = call preserve_nonecc i64 @aware(i64 %r)
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    %v.site = call { i64, i64 } asm sideeffect alignstack "leaq 1f(%rip), %r11\0A\09pushq %r11\0A\09jmp ${3:P}\0A1:"
; CHECK-SAME:    (i64 %u, ptr @aware_nounwind, ptr elementtype(i8) %cacs.site.frame)
; REMARK: remark: <unknown>:0:0: the call of aware stays a call: the callee may unwind and the caller has a personality function
; REMARK-NOT: {{.*}}aware_nounwind
define i64 @invoke(i64 %x) personality ptr @__gxx_personality_v0 {
  %r = invoke preserve_nonecc i64 @aware(i64 %x) to label %ok unwind label %lp
ok:
  %u = call preserve_nonecc i64 @aware(i64 %r)
  %v = call preserve_nonecc i64 @aware_nounwind(i64 %u)
  ret i64 %v
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

; CHECK-LABEL: define i64 @kept(i64 %x, ptr %p)
; CHECK-NEXT:    %a = call preserve_nonecc i64 @plain(i64 %x)
; CHECK-NEXT:    %b = call preserve_nonecc i64 @seven(i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a)
; CHECK-NEXT:    %n = call preserve_nonecc i64 @narrow(i16 7)
; CHECK-NEXT:    call preserve_nonecc void @sret(ptr sret({ i64, i64, i64 }) %p)
; CHECK-NEXT:    %c = call preserve_nonecc i64 @rbp(i64 %b)
; CHECK-NEXT:    ret i64 %c
; REMARK: remark: <unknown>:0:0: the call of seven stays a call: the call has more than six arguments
; REMARK: remark: <unknown>:0:0: the call of narrow stays a call: an argument is not an i32, an i64 or a pointer
; REMARK: remark: <unknown>:0:0: the call of sret stays a call: an argument is byval, sret, inalloca, preallocated, byref, nest, inreg or swift*
; REMARK: remark: <unknown>:0:0: the call of rbp stays a call: the callee may clobber rbp
define i64 @kept(i64 %x, ptr %p) {
  %a = call preserve_nonecc i64 @plain(i64 %x)
  %b = call preserve_nonecc i64 @seven(i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a)
  %n = call preserve_nonecc i64 @narrow(i16 7)
  call preserve_nonecc void @sret(ptr sret({ i64, i64, i64 }) %p)
  %c = call preserve_nonecc i64 @rbp(i64 %b)
  ret i64 %c
}

; The last act of a caller of the callee's convention: the backend's tail
; jump (a C caller's is entered by a jump: tail-yield.ll).
; CHECK-LABEL: define preserve_nonecc i64 @tail(i64 %x)
; CHECK-NEXT:    %r = tail call preserve_nonecc i64 @aware(i64 %x)
; CHECK-NEXT:    ret i64 %r
; REMARK: remark: <unknown>:0:0: the call of aware stays a call: the call is the function's last act, which the backend makes a tail jump
define preserve_nonecc i64 @tail(i64 %x) {
  %r = tail call preserve_nonecc i64 @aware(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: define preserve_nonecc i64 @must(i64 %x)
; CHECK-NEXT:    %r = musttail call preserve_nonecc i64 @aware(i64 %x)
; REMARK: remark: <unknown>:0:0: the call of aware stays a call: the call is musttail
define preserve_nonecc i64 @must(i64 %x) {
  %r = musttail call preserve_nonecc i64 @aware(i64 %x)
  ret i64 %r
}

; With the knob off, even the call lowered above stays.
; CHECK-LABEL: define i64 @lowered(i64 %x)
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    %r.site = call { i64, i64 } asm sideeffect alignstack "leaq 1f(%rip), %r11\0A\09pushq %r11\0A\09jmp ${3:P}\0A1:"
; OFF-LABEL:   define i64 @lowered(i64 %x)
; OFF-NEXT:      %r = call preserve_nonecc i64 @aware(i64 %x)
; OFF-NOT:     asm
; OFF:         attributes #{{[0-9]+}} = { "cacs-calls-by-jump"="false" "cacs-switch-site-jumps" }
; OFFREMARK: remark: <unknown>:0:0: the call of aware stays a call: calls by jump are off (-mllvm -cacs-calls-by-jump=false)
define i64 @lowered(i64 %x) {
  %r = call preserve_nonecc i64 @aware(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

attributes #0 = { fn_ret_thunk_extern }
attributes #1 = { fn_ret_thunk_extern nounwind }
attributes #2 = { fn_ret_thunk_extern "no_callee_saved_registers" }
