; A preserve_none definition compiled with -fsplit-stack: its prologue checks
; the stack limit through r11 (and passes __morestack the argument size in
; r11), which carries the 11th integer argument. The final check moves the
; body, with its split-stack prologue, into a C-convention function; the
; preserve_none entry loses "split-stack", or its own prologue would clobber
; r11 when the segment is exhausted (Hazards/split-stack.c runs it). Ten
; arguments leave r11 alone.
;
; RUN: %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s
; RUN: %opt_cacs -passes=preserve-none-safety %s | llc -O2 | FileCheck %s --check-prefix=ASM

target triple = "x86_64-unknown-linux-gnu"

; CHECK: define preserve_nonecc i64 @split(i64 %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, i64 %10) #[[ENTRY:[0-9]+]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: %11 = call i64 @split.cacs.body(i64 %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, i64 %10)
; CHECK-NEXT: ret i64 %11
; CHECK-NEXT: }
define preserve_nonecc i64 @split(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11) "split-stack" {
  %buf = alloca [70000 x i8]
  store volatile i64 %a11, ptr %buf
  ret i64 %a11
}

; CHECK-LABEL: define preserve_nonecc i64 @ten(
; CHECK-SAME: #[[TEN:[0-9]+]] {
; CHECK-NEXT: %buf = alloca [70000 x i8]
define preserve_nonecc i64 @ten(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10) "split-stack" {
  %buf = alloca [70000 x i8]
  store volatile i64 %a10, ptr %buf
  ret i64 %a10
}

; CHECK: define private i64 @split.cacs.body(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11) #[[BODY:[0-9]+]] {
; CHECK-NEXT: %buf = alloca [70000 x i8]
; CHECK-NEXT: store volatile i64 %a11, ptr %buf
; CHECK-NEXT: ret i64 %a11
; The entry, exported with 11 integer arguments, is also bound at load time
; (Hazards/lazy-plt.c).
; CHECK-DAG: attributes #[[ENTRY]] = { noinline nonlazybind }
; CHECK-DAG: attributes #[[TEN]] = { "split-stack" }
; CHECK-DAG: attributes #[[BODY]] = { noinline "split-stack" }

; The preserve_none entry has no split-stack prologue; the body has it.
; ASM-LABEL: split:
; ASM-NOT: __morestack
; ASM: callq .Lsplit.cacs.body
; ASM-LABEL: .Lsplit.cacs.body:
; ASM: callq __morestack
