; fun: entries match the symbol name (mangled for C++) or the demangled name,
; as globs.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false -S %t/in.ll | FileCheck %s

;--- list.txt
# mangled name
fun:_ZN4coro5yieldEv
# demangled name, exact
fun:coro::resume(int)
# demangled glob: every member of coro::Sched that is no template
fun:coro::Sched::*
# the demangled name of a function template starts with its return type
fun:void coro::Sched::run<*>(*)
# plain C glob
fun:fiber_*

;--- in.ll
target triple = "x86_64-unknown-linux-gnu"

; CHECK: define preserve_nonecc void @_ZN4coro5yieldEv.preserve_none_list()
define void @_ZN4coro5yieldEv() {
  ret void
}
; CHECK: define preserve_nonecc void @_ZN4coro6resumeEi.preserve_none_list(i32 %0)
define void @_ZN4coro6resumeEi(i32) {
  ret void
}
; The demangled name has another parameter type: no match.
; CHECK: define void @_ZN4coro6resumeEl(i64 %0)
define void @_ZN4coro6resumeEl(i64) {
  ret void
}
; CHECK: define preserve_nonecc void @_ZN4coro5Sched4stepEv.preserve_none_list(ptr %0)
define void @_ZN4coro5Sched4stepEv(ptr) {
  ret void
}
; CHECK: define preserve_nonecc void @_ZN4coro5Sched3runIiEEvT_.preserve_none_list(ptr %0, i32 %1)
define void @_ZN4coro5Sched3runIiEEvT_(ptr, i32) {
  ret void
}
; CHECK: define i32 @_ZN4coro5Sched3runIlEEiT_(ptr %0, i64 %1)
define i32 @_ZN4coro5Sched3runIlEEiT_(ptr, i64) {
  ret i32 0
}
; CHECK: define void @_ZN4coro5Other4stepEv(ptr %0)
define void @_ZN4coro5Other4stepEv(ptr) {
  ret void
}
; CHECK: define preserve_nonecc void @fiber_start.preserve_none_list()
define void @fiber_start() {
  ret void
}
; CHECK: define void @start_fiber()
define void @start_fiber() {
  ret void
}
