; The functions that can reach a switch, and only they, return through the
; thunk: the direct and indirect callers of a preserve_none function, in
; whatever convention the thunk leaves sound (C, fastcc, coldcc,
; preserve_none); one that keeps `ret` for its convention or because it is
; naked still passes the walk on to its callers. A function that only takes a
; switch's address, or calls nothing that switches, keeps `ret`. The thunk is
; defined once, hidden, in a comdat.
;
; RUN: %opt_cacs -passes=switch-returns -S %s | FileCheck %s
; RUN: %opt_cacs -passes=switch-returns -S %s | llc -O2 -asm-verbose=false -o - | FileCheck %s --check-prefix=ASM

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @yield()

; CHECK: define void @direct() #[[ON:[0-9]+]] {
define void @direct() {
  call preserve_nonecc void @yield()
  ret void
}

; CHECK: define internal preserve_nonecc void @infected() #[[ON]] {
define internal preserve_nonecc void @infected() {
  call preserve_nonecc void @yield()
  ret void
}

; A preserve_none function that calls no switch keeps `ret`.
; CHECK: define preserve_nonecc i32 @pn_leaf(i32 %x) #[[OFF:[0-9]+]] {
define preserve_nonecc i32 @pn_leaf(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}

; CHECK: define i32 @two_up(i32 %x) #[[ON]] personality
define i32 @two_up(i32 %x) personality ptr null {
  invoke void @direct() to label %ok unwind label %lp
ok:
  call preserve_nonecc void @infected()
  ret i32 %x
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

; CHECK: define internal fastcc void @fast() #[[ON]] {
define internal fastcc void @fast() {
  call void @two_up(i32 1)
  ret void
}

; CHECK: define internal coldcc void @cold() #[[ON]] {
define internal coldcc void @cold() {
  call fastcc void @fast()
  ret void
}

; Kept `ret`: r11 is callee-saved in no listed convention, but others are
; not known to leave it free.
; CHECK: define preserve_mostcc void @most() #[[OFF]] {
define preserve_mostcc void @most() {
  call coldcc void @cold()
  ret void
}

; CHECK: define void @above_most() #[[ON]] {
define void @above_most() {
  call preserve_mostcc void @most()
  ret void
}

; CHECK: define void @naked() #[[NAKED:[0-9]+]] {
define void @naked() naked {
  call void @direct()
  unreachable
}

; CHECK: define void @above_naked() #[[ON]] {
define void @above_naked() {
  call void @naked()
  ret void
}

; CHECK: define ptr @takes_address() #[[OFF]] {
define ptr @takes_address() {
  ret ptr @yield
}

; CHECK: define void @indirect(ptr %p) #[[OFF]] {
define void @indirect(ptr %p) {
  call preserve_nonecc void %p()
  ret void
}

; CHECK: define i32 @leaf(i32 %x) #[[OFF]] {
define i32 @leaf(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

; CHECK: define linkonce_odr hidden void @__x86_return_thunk() unnamed_addr #[[THUNK:[0-9]+]] comdat {
; CHECK-NEXT:    call void asm sideeffect "popq %r11\0A\09.cfi_adjust_cfa_offset -8\0A\09.cfi_register %rip, %r11\0A\09jmpq *%r11", "~{r11},~{dirflag},~{fpsr},~{flags}"()
; CHECK-NEXT:    unreachable

; CHECK-DAG: attributes #[[ON]] = { fn_ret_thunk_extern "cacs-switch-returns" }
; CHECK-DAG: attributes #[[OFF]] = { "cacs-switch-returns" }
; CHECK-DAG: attributes #[[NAKED]] = { naked "cacs-switch-returns" }
; CHECK-DAG: attributes #[[THUNK]] = { naked nocf_check noinline nounwind uwtable }

; ASM-LABEL: direct:
; ASM:         jmp __x86_return_thunk
; ASM-LABEL: leaf:
; ASM:         retq
; ASM-LABEL: __x86_return_thunk:
; ASM-NEXT:    .cfi_startproc
; ASM-NEXT:    #APP
; ASM-NEXT:    popq %r11
; ASM-NEXT:    .cfi_adjust_cfa_offset -8
; ASM-NEXT:    .cfi_register %rip, %r11
; ASM-NEXT:    jmpq *%r11
