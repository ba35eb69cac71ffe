; Infecting a function rewrites every call site of it in the module in the
; same step, calls and invokes, in any caller (C callers that stay C
; included), so that no call mismatches its callee's convention. Uses of a
; seed other than as a callee do not make their function a caller.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s

declare preserve_nonecc void @seed()
declare i32 @__gxx_personality_v0(...)
declare void @take(ptr)

; CHECK-LABEL: define internal preserve_nonecc i32 @f(i32 %x)
define internal i32 @f(i32 %x) {
  call preserve_nonecc void @seed()
  ret i32 %x
}

; CHECK-LABEL: define void @caller1(
; CHECK:         call preserve_nonecc i32 @f(i32 1)
; CHECK:         tail call preserve_nonecc i32 @f(i32 2)
define void @caller1() {
  %a = call i32 @f(i32 1)
  %b = tail call i32 @f(i32 2)
  ret void
}

; CHECK-LABEL: define void @caller2(
; CHECK:         invoke preserve_nonecc i32 @f(i32 3)
define void @caller2() personality ptr @__gxx_personality_v0 {
  %r = invoke i32 @f(i32 3) to label %ok unwind label %lp
ok:
  ret void
lp:
  %e = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %e
}

; An invoke of a seed makes its function a caller, too.
; CHECK-LABEL: define internal preserve_nonecc void @invoker(
; CHECK:         invoke preserve_nonecc void @seed()
define internal void @invoker() personality ptr @__gxx_personality_v0 {
  invoke preserve_nonecc void @seed() to label %ok unwind label %lp
ok:
  ret void
lp:
  %e = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %e
}

; CHECK-LABEL: define void @caller3(
; CHECK:         call preserve_nonecc void @invoker()
define void @caller3() {
  call void @invoker()
  ret void
}

; Passing the seed around is not calling it.
; CHECK-LABEL: define internal void @passes_seed(
define internal void @passes_seed() {
  call void @take(ptr @seed)
  ret void
}

define void @caller4() {
  call void @passes_seed()
  ret void
}
