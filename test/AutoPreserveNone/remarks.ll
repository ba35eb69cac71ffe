; -pass-remarks=auto-preserve-none lists the functions made preserve_none
; (what they call, how many call sites changed); -pass-remarks-missed lists
; the callers left alone, with the reason. Other passes' names select nothing.
;
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PASSED --implicit-check-not='not made'
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISSED --implicit-check-not='made '
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks=inline -pass-remarks-missed=inline %s 2>&1 \
; RUN:   | count 0
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-output=%t.yaml %s
; RUN: FileCheck %s --check-prefix=YAML < %t.yaml

declare preserve_nonecc void @seed()

; PASSED: remark: {{.*}}made 'leaf' preserve_none: it calls preserve_none 'seed' (2 call sites rewritten)
; PASSED: remark: {{.*}}made 'mid' preserve_none: it calls preserve_none 'leaf' (1 call site rewritten)
; MISSED: remark: {{.*}}'top' calls preserve_none 'mid' but is not made preserve_none: it is visible outside the module, where callers keep the C convention

; YAML:      --- !Passed
; YAML-NEXT: Pass: auto-preserve-none
; YAML-NEXT: Name: Infected
; YAML-NEXT: Function: leaf
; YAML:      --- !Missed
; YAML-NEXT: Pass: auto-preserve-none
; YAML-NEXT: Name: NotLocal
; YAML-NEXT: Function: top

define internal void @leaf() {
  call preserve_nonecc void @seed()
  ret void
}

define internal void @mid() {
  call void @leaf()
  call void @leaf()
  ret void
}

define void @top() {
  call void @mid()
  ret void
}
