; The rule of which calls are lowered is the yield's (callReason): a
; perform or resume in a function instrumented by a sanitizer or optnone
; stays a call, with a missed remark naming the call the user wrote.
; cacs_effect_resume_with's entry is not lowered (no jump entry).
;
; RUN: %opt_cacs -passes=switch-site-jump -pass-remarks-missed=switch-site-jump -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc ptr @cacs__effect_perform_pn(ptr, ptr)
declare preserve_nonecc { ptr, ptr } @cacs__effect_resume_pn(ptr, ptr, ptr)
declare preserve_nonecc { ptr, ptr } @cacs__effect_resume_with_pn(ptr, ptr, ptr, ptr)

; CHECK-LABEL: define ptr @asan(ptr %e, ptr %p)
; CHECK-NEXT:    %r = call preserve_nonecc ptr @cacs__effect_perform_pn(ptr %e, ptr %p)
; REMARK: remark: <unknown>:0:0: cacs_effect_perform stays a call: the function is instrumented by a sanitizer
define ptr @asan(ptr %e, ptr %p) sanitize_address {
  %r = call preserve_nonecc ptr @cacs__effect_perform_pn(ptr %e, ptr %p)
  ret ptr %r
}

; CHECK-LABEL: define { ptr, ptr } @optnone(ptr %k, ptr %h, ptr %r)
; CHECK-NEXT:    %q = call preserve_nonecc { ptr, ptr } @cacs__effect_resume_pn(ptr %k, ptr %h, ptr %r)
; REMARK: remark: <unknown>:0:0: cacs_effect_resume stays a call: the function is optnone
define { ptr, ptr } @optnone(ptr %k, ptr %h, ptr %r) noinline optnone {
  %q = call preserve_nonecc { ptr, ptr } @cacs__effect_resume_pn(ptr %k, ptr %h, ptr %r)
  ret { ptr, ptr } %q
}

; CHECK-LABEL: define { ptr, ptr } @with(ptr %k, ptr %h, ptr %c, ptr %r)
; CHECK-NEXT:    %q = call preserve_nonecc { ptr, ptr } @cacs__effect_resume_with_pn(ptr %k, ptr %h, ptr %c, ptr %r)
define { ptr, ptr } @with(ptr %k, ptr %h, ptr %c, ptr %r) {
  %q = call preserve_nonecc { ptr, ptr } @cacs__effect_resume_with_pn(ptr %k, ptr %h, ptr %c, ptr %r)
  ret { ptr, ptr } %q
}
; REMARK-NOT: resume_with
