; The address of a listed extern_weak function may be compared with null;
; its C-entry thunk never is null, so taking it is an error.
; Direct calls of it are fine.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -disable-output %t/in.ll 2>&1 | FileCheck %s -DLIST=%t/list.txt
; CHECK: error: the address of weak function 'maybe' from preserve-none list '[[LIST]]' line 1 is taken: its C-entry thunk could not be null when the function is missing; do not list it, or define it
;
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -S %t/call.ll | FileCheck %s --check-prefix=CALL
; CALL: call preserve_nonecc void @maybe()

;--- list.txt
fun:maybe
;--- in.ll
declare extern_weak void @maybe()
define void @f() {
  %c = icmp ne ptr @maybe, null
  br i1 %c, label %t, label %e
t:
  call void @maybe()
  br label %e
e:
  ret void
}
;--- call.ll
declare extern_weak void @maybe()
define void @f() {
  call void @maybe()
  ret void
}
