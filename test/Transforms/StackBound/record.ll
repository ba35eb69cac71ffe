; The compile records each defined function whose address is taken, and
; each function the IR shows has no bound (a dynamic alloca, inline
; assembly), in unloaded sections the link reads; direct calls and empty
; inline assembly (a compiler barrier) do not count.
; RUN: %opt_cacs -passes=stack-bound-record -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK: module asm "\09.pushsection .cacs.stack_bound_entries,\22\22"
; CHECK-NEXT: module asm "\09.quad \22entry\22"
; CHECK-NEXT: module asm "\09.quad \22with.dot\22"
; CHECK-NEXT: module asm "\09.popsection"
; CHECK-NEXT: module asm "\09.pushsection .cacs.stack_bound_breaks,\22\22"
; CHECK-NEXT: module asm "\09.quad \22vla\22"
; CHECK-NEXT: module asm "\09.byte 1"
; CHECK-NEXT: module asm "\09.quad \22asm\22"
; CHECK-NEXT: module asm "\09.byte 2"
; CHECK-NEXT: module asm "\09.popsection"

@taken = global [2 x ptr] [ptr @entry, ptr @with.dot]

define internal void @entry(ptr %p) {
  call void @direct()
  ret void
}

define internal void @with.dot(ptr %p) {
  ret void
}

define void @direct() {
  call void asm sideeffect "", "~{memory}"()
  ret void
}

define void @vla(i64 %n) {
  %a = alloca i8, i64 %n
  store volatile i8 0, ptr %a
  ret void
}

define void @asm() {
  call void asm sideeffect "nop", ""()
  ret void
}

declare void @declared()
@declared.taken = global ptr @declared
