; A frame that is allocated dynamically may be addressed through a base
; pointer (rbx on x86-64, x19 on AArch64), and preserve_none does not go with
; one (see base-pointer-hazard.ll for what the backends do):
;  - such a function is not infected: a dynamic alloca, an alloca outside
;    the entry block, llvm.stacksave, or inline assembly that moves the stack
;    pointer; with stack realignment LLVM 19's x86-64 backend stops with a
;    fatal error;
;  - nor is a function called by such a function: the caller's base pointer
;    would not survive the call.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK

declare preserve_nonecc void @seed()
declare void @use(ptr)

; CHECK-LABEL: define internal void @vla(
; REMARK-DAG: remark: {{.*}}'vla' calls preserve_none 'seed' but is not made preserve_none: it allocates stack dynamically, and its frame may need a base pointer, which preserve_none does not support
define internal void @vla(i64 %n) {
  %v = alloca i8, i64 %n
  call void @use(ptr %v)
  call preserve_nonecc void @seed()
  ret void
}

; Stack realignment and a dynamic alloca: the case LLVM 19 cannot compile.
; CHECK-LABEL: define internal void @realigned_vla(
; REMARK-DAG: remark: {{.*}}'realigned_vla' calls preserve_none 'seed' but is not made preserve_none: it allocates stack dynamically
define internal void @realigned_vla(i64 %n) {
  %a = alloca i64, align 64
  %v = alloca i8, i64 %n
  call void @use(ptr %a)
  call void @use(ptr %v)
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @late_alloca(
; REMARK-DAG: remark: {{.*}}'late_alloca' calls preserve_none 'seed' but is not made preserve_none: it allocates stack dynamically
define internal void @late_alloca() {
entry:
  br label %next
next:
  %v = alloca i64
  call void @use(ptr %v)
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @stacksave(
; REMARK-DAG: remark: {{.*}}'stacksave' calls preserve_none 'seed' but is not made preserve_none: it allocates stack dynamically
define internal void @stacksave() {
  %s = call ptr @llvm.stacksave.p0()
  call preserve_nonecc void @seed()
  call void @llvm.stackrestore.p0(ptr %s)
  ret void
}

; CHECK-LABEL: define internal void @asm_moves_sp(
; REMARK-DAG: remark: {{.*}}'asm_moves_sp' calls preserve_none 'seed' but is not made preserve_none: it allocates stack dynamically
define internal void @asm_moves_sp() {
  call void asm sideeffect "subq $$64, %rsp", "~{rsp},~{dirflag},~{fpsr},~{flags}"()
  call preserve_nonecc void @seed()
  ret void
}

; Over-aligned but static: fine.
; CHECK-LABEL: define internal preserve_nonecc void @realigned_static(
define internal void @realigned_static() {
  %a = alloca i64, align 64
  call void @use(ptr %a)
  call preserve_nonecc void @seed()
  ret void
}

; Eligible itself, but called by a function with a VLA.
; CHECK-LABEL: define internal void @called_by_vla(
; REMARK-DAG: remark: {{.*}}'called_by_vla' calls preserve_none 'seed' but is not made preserve_none: its caller 'has_vla' allocates stack dynamically, and a base pointer is not kept across preserve_none calls
define internal void @called_by_vla() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define void @has_vla(
; CHECK:         call void @called_by_vla()
define void @has_vla(i64 %n) {
  %v = alloca i8, i64 %n
  call void @use(ptr %v)
  call void @called_by_vla()
  call void @use(ptr %v)
  ret void
}

define void @entry(i64 %n) {
  call void @vla(i64 %n)
  call void @realigned_vla(i64 %n)
  call void @late_alloca()
  call void @stacksave()
  call void @asm_moves_sp()
  call void @realigned_static()
  ret void
}
