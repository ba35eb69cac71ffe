; APN does not infect a function whose frame may be probed by
; -fstack-clash-protection ("probe-stack"="inline-asm") while one of its
; integer arguments would be in the probe loop's register: r11, the 11th
; on x86-64; x9, the 23rd, on AArch64 (defect 1 of issue 11).
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: sed 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=auto-preserve-none -S | FileCheck %s --check-prefix=A64

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal void @eleven(
; REMARK: remark: {{.*}}'eleven' calls preserve_none 'seed' but is not made preserve_none: its stack frame may be probed (-fstack-clash-protection) by a loop that uses r11, which carries its integer argument 11
; A64-LABEL: define internal preserve_nonecc void @eleven(
define internal void @eleven(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) "probe-stack"="inline-asm" {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @ten(
define internal void @ten(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) "probe-stack"="inline-asm" {
  call preserve_nonecc void @seed()
  ret void
}

; Without stack probes, eleven arguments are fine.
; CHECK-LABEL: define internal preserve_nonecc void @unprobed(
define internal void @unprobed(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) {
  call preserve_nonecc void @seed()
  ret void
}

define void @entry() {
  call void @eleven(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11)
  call void @ten(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10)
  call void @unprobed(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11)
  ret void
}
