; Which preserve_none definitions and calls get the empty callee-saved list
; under -cacs-preserve-none-callee-saved=none (one case per function), and
; why the others keep upstream's list (-pass-remarks-missed).
; REQUIRES: llvm-22
; RUN: %opt_cacs -passes=preserve-none-callee-saved -cacs-preserve-none-callee-saved=none \
; RUN:   -pass-remarks-missed=preserve-none-callee-saved %s -S -o %t.ll 2> %t.remarks
; RUN: FileCheck %s --input-file %t.ll
; RUN: FileCheck %s --input-file %t.remarks --check-prefix=WHY
; Running the pass again changes nothing (it recomputes from scratch):
; RUN: %opt_cacs -passes=preserve-none-callee-saved %t.ll -S | grep -v ModuleID > %t.again.ll
; RUN: grep -v ModuleID %t.ll | diff - %t.again.ll

target triple = "x86_64-unknown-linux-gnu"

declare i32 @__gxx_personality_v0(...)
declare void @use(ptr)

; A local function called directly only: empty list.
; CHECK: define internal preserve_nonecc void @local() #[[EMPTY:[0-9]+]]
define internal preserve_nonecc void @local() { ret void }

; Exported: code elsewhere expects rbp preserved.
; CHECK: define preserve_nonecc void @exported() #[[KEEP:[0-9]+]]
; WHY-DAG: remark: <unknown>:0:0: 'exported' keeps rbp callee-saved: it is exported: code compiled elsewhere expects rbp preserved
define preserve_nonecc void @exported() { ret void }

; Address taken.
; CHECK: define internal preserve_nonecc void @addressed() #[[KEEP]]
; WHY-DAG: remark: <unknown>:0:0: 'addressed' keeps rbp callee-saved: its address is taken
define internal preserve_nonecc void @addressed() { ret void }

; Invoked: LLVM 22 stops with a fatal error on an invoke whose callee
; clobbers the caller's frame pointer.
; CHECK: define internal preserve_nonecc void @invoked() #[[KEEP]]
; WHY-DAG: remark: <unknown>:0:0: 'invoked' keeps rbp callee-saved: it is invoked
define internal preserve_nonecc void @invoked() { ret void }

; 13 integer arguments: one goes on the stack, stored over the rbp the
; caller pushed around the call.
; CHECK: define internal preserve_nonecc void @ints13(
; CHECK-SAME: #[[KEEP]]
; WHY-DAG: remark: <unknown>:0:0: 'ints13' keeps rbp callee-saved: a call of it may pass arguments on the stack
define internal preserve_nonecc void @ints13(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) { ret void }

; 12 integer arguments and 8 doubles fit in registers.
; CHECK: define internal preserve_nonecc void @ints12(
; CHECK-SAME: #[[EMPTY]]
define internal preserve_nonecc void @ints12(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, ptr, double, double, double, double, double, double, double, double) { ret void }

; 9 doubles: one on the stack.
; CHECK: define internal preserve_nonecc void @doubles9(
; CHECK-SAME: #[[KEEP]]
; WHY-DAG: remark: <unknown>:0:0: 'doubles9' keeps rbp callee-saved: a call of it may pass arguments on the stack
define internal preserve_nonecc void @doubles9(double, double, double, double, double, double, double, double, double) { ret void }

; A struct returned through memory takes a hidden argument: kept.
; CHECK: define internal preserve_nonecc { i64, i64, i64 } @bigret() #[[KEEP]]
define internal preserve_nonecc { i64, i64, i64 } @bigret() { ret { i64, i64, i64 } zeroinitializer }

; Tail-called by a preserve_none caller that keeps rbp (exported): that
; caller would jump to it and its own callers would see rbp clobbered. The
; chain below it keeps the list too.
; CHECK: define internal preserve_nonecc void @jumped_to() #[[KEEP]]
; CHECK: define internal preserve_nonecc void @jumped_to_next() #[[KEEP]]
; WHY-DAG: remark: <unknown>:0:0: 'jumped_to' keeps rbp callee-saved: a caller that keeps rbp may jump to it
; WHY-DAG: remark: <unknown>:0:0: 'jumped_to_next' keeps rbp callee-saved: a caller that keeps rbp may jump to it
define internal preserve_nonecc void @jumped_to() {
  tail call preserve_nonecc void @jumped_to_next()
  ret void
}
define internal preserve_nonecc void @jumped_to_next() { ret void }
define preserve_nonecc void @exported_tail() {
  tail call preserve_nonecc void @jumped_to()
  ret void
}

; Tail-called from C and fastcc callers, which never jump to a preserve_none
; function; and musttail between two empty-list functions.
; CHECK: define internal preserve_nonecc void @c_tail() #[[EMPTY]]
; CHECK: define internal preserve_nonecc void @musttail_from() #[[EMPTY]]
; CHECK: define internal preserve_nonecc void @musttail_to() #[[EMPTY]]
define internal preserve_nonecc void @c_tail() { ret void }
define internal preserve_nonecc void @musttail_from() {
  musttail call preserve_nonecc void @musttail_to()
  ret void
}
define internal preserve_nonecc void @musttail_to() { ret void }
define internal fastcc void @fast() {
  tail call preserve_nonecc void @c_tail()
  ret void
}

; CHECK-LABEL: define void @caller(ptr %fp)
define void @caller(ptr %fp) personality ptr @__gxx_personality_v0 {
; CHECK-NEXT: call preserve_nonecc void @local() #[[CALL:[0-9]+]]
  call preserve_nonecc void @local()
; CHECK-NEXT: call preserve_nonecc void @exported() #[[CALL]]
  call preserve_nonecc void @exported()
; CHECK-NEXT: call preserve_nonecc void %fp() #[[CALL]]
  call preserve_nonecc void %fp()
; CHECK-NEXT: call void @use(ptr @addressed)
  call void @use(ptr @addressed)
; CHECK-NEXT: call preserve_nonecc void @ints13({{.*}}){{$}}
  call preserve_nonecc void @ints13(i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12)
; CHECK-NEXT: call preserve_nonecc void @ints12({{.*}}) #[[CALL]]
  call preserve_nonecc void @ints12(i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, ptr null, double 0.0, double 1.0, double 2.0, double 3.0, double 4.0, double 5.0, double 6.0, double 7.0)
; CHECK-NEXT: call preserve_nonecc void @doubles9({{.*}}){{$}}
  call preserve_nonecc void @doubles9(double 0.0, double 1.0, double 2.0, double 3.0, double 4.0, double 5.0, double 6.0, double 7.0, double 8.0)
; CHECK-NEXT: call preserve_nonecc { i64, i64, i64 } @bigret(){{$}}
  call preserve_nonecc { i64, i64, i64 } @bigret()
; CHECK-NEXT: call preserve_nonecc void @musttail_from() #[[CALL]]
  call preserve_nonecc void @musttail_from()
; CHECK-NEXT: call fastcc void @fast()
  call fastcc void @fast()
; CHECK-NEXT: tail call preserve_nonecc void @c_tail() #[[CALL]]
  tail call preserve_nonecc void @c_tail()
; CHECK-NEXT: invoke preserve_nonecc void @invoked()
; CHECK-NEXT: to label %ok unwind label %lp{{$}}
  invoke preserve_nonecc void @invoked() to label %ok unwind label %lp
ok:
  ret void
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

; CHECK-DAG: attributes #[[EMPTY]] = { "cacs-preserve-none-callee-saved-none" "no_callee_saved_registers" }
; CHECK-DAG: attributes #[[KEEP]] = { "cacs-preserve-none-callee-saved-none" }
; CHECK-DAG: attributes #[[CALL]] = { "no_callee_saved_registers" }
