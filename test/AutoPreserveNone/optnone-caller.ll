; On AArch64, a function called by an optnone function is not infected:
; AArch64 FastISel, which lowers optnone functions whenever the code generator
; optimizes (a -O0 unit in an -O2 full-LTO link, optnone at -O2), passes the
; arguments of a preserve_none call in x0, x1, ... instead of x20, x21, ...
; (LLVM 19 and 22; see the guard below). x86-64 FastISel leaves such calls to
; SelectionDAG, so there the rule does not apply.
;
; RUN: %opt_cacs -passes=auto-preserve-none -mtriple=aarch64-linux-gnu -S %s \
; RUN:   | FileCheck %s --check-prefix=A64
; RUN: %opt_cacs -passes=auto-preserve-none -mtriple=aarch64-linux-gnu \
; RUN:   -disable-output -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: %opt_cacs -passes=auto-preserve-none -mtriple=x86_64-linux-gnu -S %s \
; RUN:   | FileCheck %s --check-prefix=X86
;
; The backend behaviour behind the rule:
; RUN: llc -O2 -mtriple=aarch64-linux-gnu %s -o - | FileCheck %s --check-prefix=FASTISEL
; FASTISEL-LABEL: optnone_caller:
; FASTISEL:         bl leaf
; FASTISEL-NEXT:    mov x0, x19
; FASTISEL-NEXT:    bl seed
; FASTISEL-LABEL: caller:
; FASTISEL:         mov x20, x0
; FASTISEL:         bl seed

declare preserve_nonecc void @seed(i64)

; A64-LABEL: define internal void @leaf(
; X86-LABEL: define internal preserve_nonecc void @leaf(
; REMARK: remark: {{.*}}'leaf' calls preserve_none 'seed' but is not made preserve_none: its caller 'optnone_caller' is optnone, and AArch64 FastISel would pass the call's arguments in the C registers
define internal void @leaf(i64 %x) {
  call preserve_nonecc void @seed(i64 %x)
  ret void
}

; Called by an optimized function only: infected on both.
; A64-LABEL: define internal preserve_nonecc void @leaf2(
; X86-LABEL: define internal preserve_nonecc void @leaf2(
define internal void @leaf2(i64 %x) {
  call preserve_nonecc void @seed(i64 %x)
  ret void
}

define void @optnone_caller(i64 %x) noinline optnone {
  call void @leaf(i64 %x)
  call preserve_nonecc void @seed(i64 %x)
  ret void
}

define void @caller(i64 %x) {
  call void @leaf2(i64 %x)
  call preserve_nonecc void @seed(i64 %x)
  ret void
}
