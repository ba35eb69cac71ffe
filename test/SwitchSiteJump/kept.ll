; The calls stay calls, with a missed remark saying why, in functions
; instrumented by a sanitizer (libcacs switches through its annotated slow
; path there), optnone ones, and functions that may address their frame
; through rbx (a dynamic alloca: the safety pass's shield saves rbx around
; the call, and the backend reserves it), and functions hardened against
; indirect-branch speculation.
;
; RUN: %opt_cacs -passes=switch-site-jump -pass-remarks-missed=switch-site-jump -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @cacs__yield_pn()
declare void @use(ptr)

; CHECK-LABEL: define void @asan()
; CHECK-NEXT:    call preserve_nonecc void @cacs__yield_pn()
; REMARK: remark: <unknown>:0:0: cacs_yield stays a call: the function is instrumented by a sanitizer
define void @asan() sanitize_address {
  call preserve_nonecc void @cacs__yield_pn()
  ret void
}

; CHECK-LABEL: define void @tsan()
; CHECK-NEXT:    call preserve_nonecc void @cacs__yield_pn()
; REMARK: remark: <unknown>:0:0: cacs_yield stays a call: the function is instrumented by a sanitizer
define void @tsan() sanitize_thread {
  call preserve_nonecc void @cacs__yield_pn()
  ret void
}

; CHECK-LABEL: define void @unoptimized()
; CHECK-NEXT:    call preserve_nonecc void @cacs__yield_pn()
; REMARK: remark: <unknown>:0:0: cacs_yield stays a call: the function is optnone
define void @unoptimized() noinline optnone {
  call preserve_nonecc void @cacs__yield_pn()
  ret void
}

; CHECK-LABEL: define void @dynamic(i64 %n)
; CHECK-NEXT:    %p = alloca i8, i64 %n
; CHECK-NEXT:    call void @use(ptr %p)
; CHECK-NEXT:    call preserve_nonecc void @cacs__yield_pn()
; REMARK: remark: <unknown>:0:0: cacs_yield stays a call: the function may address its frame through rbx
define void @dynamic(i64 %n) {
  %p = alloca i8, i64 %n
  call void @use(ptr %p)
  call preserve_nonecc void @cacs__yield_pn()
  ret void
}

; -mretpoline: hardened builds keep the plain call (SwitchSiteJump.cpp).
; CHECK-LABEL: define void @retpoline()
; CHECK-NEXT:    call preserve_nonecc void @cacs__yield_pn()
; REMARK: remark: <unknown>:0:0: cacs_yield stays a call: the function is hardened against indirect-branch speculation (-mretpoline, -mlvi-cfi, -mharden-sls, SLH)
define void @retpoline() "target-features"="+retpoline-indirect-branches,+retpoline-indirect-calls" {
  call preserve_nonecc void @cacs__yield_pn()
  ret void
}
