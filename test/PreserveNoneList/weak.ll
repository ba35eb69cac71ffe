; A listed extern_weak declaration is optional: the program may test its
; address (`if (&maybe) maybe();`) and run without it. Its calls stay C calls
; of the plain name, which is a C entry wherever the function is defined,
; with the list or without, so they are right whether or not it is there
; (before the decorated names, taking its address was an error, and its calls
; were preserve_none). A weak definition, which another definition may
; replace at link time, is left as is with a warning: callers built with the
; list would still call its own body.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -S %t/in.ll 2>&1 | FileCheck %s -DLIST=%t/list.txt --implicit-check-not=preserve_nonecc
; CHECK: {{^}}warning: [[LIST]]:2:1: function 'hook' listed here cannot be preserve_none: it is a weak definition, which another may replace at link time; left as is{{$}}
; CHECK: declare extern_weak void @maybe()
; CHECK: icmp ne ptr @maybe, null
; CHECK: call void @maybe()
; CHECK: call void @hook()
; CHECK: define weak void @hook()

;--- list.txt
fun:maybe
fun:hook
;--- in.ll
declare extern_weak void @maybe()
define void @f() {
  %c = icmp ne ptr @maybe, null
  br i1 %c, label %t, label %e
t:
  call void @maybe()
  br label %e
e:
  call void @hook()
  ret void
}
define weak void @hook() {
  ret void
}
