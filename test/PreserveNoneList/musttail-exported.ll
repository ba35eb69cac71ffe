; A listed externally visible function that cannot be preserve_none for a
; reason only its own module sees (a musttail call) is an error where it is
; defined: other translation units compiled with the list call its decorated
; body. A declaration is left as is, with a warning: its calls reach the C
; entry of the plain name.
; When both ends of the musttail call are listed, both are converted.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/bad-def.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false \
; RUN:   -disable-output %t/def.ll 2>&1 | FileCheck %s --check-prefix=ERR -DLIST=%t/bad-def.txt
; ERR: {{^}}error: [[LIST]]:1:1: function 'caller' listed here cannot be preserve_none: it makes a musttail call to 'callee', which is not preserve_none; it is externally visible, and other translation units compiled with the list would call it as preserve_none{{$}}
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/bad.txt \
; RUN:   -S %t/in.ll 2>&1 | FileCheck %s --check-prefix=WARN -DLIST=%t/bad.txt
; WARN: {{^}}warning: [[LIST]]:1:1: function 'callee' listed here cannot be preserve_none: 'caller' makes a musttail call to it and is not preserve_none; left as is{{$}}
; WARN: musttail call i32 @callee(i32 %x)
;
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/good.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false -S %t/in.ll | FileCheck %s
; CHECK: define preserve_nonecc i32 @caller.preserve_none_list(i32 %x)
; CHECK-NEXT: musttail call preserve_nonecc i32 @callee.preserve_none_list(i32 %x)
; CHECK: declare preserve_nonecc i32 @callee.preserve_none_list(i32)

;--- bad-def.txt
fun:caller
;--- bad.txt
fun:callee
;--- good.txt
fun:callee
fun:caller
;--- in.ll
target triple = "x86_64-unknown-linux-gnu"
define i32 @caller(i32 %x) {
  %r = musttail call i32 @callee(i32 %x)
  ret i32 %r
}
declare i32 @callee(i32)
;--- def.ll
target triple = "x86_64-unknown-linux-gnu"
define i32 @caller(i32 %x) {
  %r = musttail call i32 @callee(i32 %x)
  ret i32 %r
}
declare i32 @callee(i32)
