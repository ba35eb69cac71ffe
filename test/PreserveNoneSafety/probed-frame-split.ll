; A preserve_none definition whose frame is probed by -fstack-clash-protection
; in a loop that keeps its bound in r11, which carries the 11th integer
; argument: the final check moves the body into a C-convention function, so
; that the probed frame is not the preserve_none one (defect 1 of issue 11;
; Hazards/stack-clash-probe.c runs it). Ten arguments leave r11 alone.
;
; RUN: %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s
; RUN: %opt_cacs -passes=preserve-none-safety %s | llc -O2 | FileCheck %s --check-prefix=ASM

target triple = "x86_64-unknown-linux-gnu"

; CHECK: define preserve_nonecc i64 @probed(i64 %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, i64 %10) #[[ENTRY:[0-9]+]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: %11 = call i64 @probed.cacs.body(i64 %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, i64 %10)
; CHECK-NEXT: ret i64 %11
; CHECK-NEXT: }
define preserve_nonecc i64 @probed(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11) alwaysinline "probe-stack"="inline-asm" {
  %buf = alloca [100000 x i8]
  store volatile i64 %a11, ptr %buf
  ret i64 %a11
}

; CHECK-LABEL: define preserve_nonecc i64 @ten(
; CHECK-NEXT: %buf = alloca [100000 x i8]
define preserve_nonecc i64 @ten(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10) "probe-stack"="inline-asm" {
  %buf = alloca [100000 x i8]
  store volatile i64 %a10, ptr %buf
  ret i64 %a10
}

; CHECK: define private i64 @probed.cacs.body(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11) #[[BODY:[0-9]+]] {
; CHECK-NEXT: %buf = alloca [100000 x i8]
; CHECK-NEXT: store volatile i64 %a11, ptr %buf
; CHECK-NEXT: ret i64 %a11
; The entry, exported with 11 integer arguments, is also bound at load time
; (Hazards/lazy-plt.c).
; CHECK-DAG: attributes #[[ENTRY]] = { noinline nonlazybind "probe-stack"="inline-asm" }
; CHECK-DAG: attributes #[[BODY]] = { noinline "probe-stack"="inline-asm" }

; The preserve_none entry has no probe loop; the body has it.
; ASM-LABEL: probed:
; ASM-NOT: subq $4096, %rsp
; ASM: callq .Lprobed.cacs.body
; ASM-LABEL: .Lprobed.cacs.body:
; ASM: subq $4096, %rsp
