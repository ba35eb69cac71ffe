; The address of an external preserve_none function whose arguments reach
; r11 (the 11th integer argument, which the lazy PLT resolver clobbers) is
; taken from the GOT: in code that is not position-independent, a direct
; reference (dso_local, or a read-only initializer) makes the executable's
; lazily bound PLT entry the function's address in the whole program
; (Hazards/lazy-plt-address.c runs it). Ten arguments leave r11 alone.
;
; RUN: %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s
; RUN: %opt_cacs -passes=preserve-none-safety %s | llc -O2 -relocation-model=static | FileCheck %s --check-prefix=ASM

target triple = "x86_64-unknown-linux-gnu"

; A read-only table becomes writable: the dynamic linker relocates it.
; CHECK: @table = global [2 x ptr] [ptr @eleven, ptr @ten]
@table = constant [2 x ptr] [ptr @eleven, ptr @ten]
; CHECK: @nested = global { i64, [1 x ptr] } { i64 1, [1 x ptr] [ptr @eleven] }
@nested = constant { i64, [1 x ptr] } { i64 1, [1 x ptr] [ptr @eleven] }
; CHECK: @untouched = constant [1 x ptr] [ptr @ten]
@untouched = constant [1 x ptr] [ptr @ten]

; CHECK: declare preserve_nonecc i64 @eleven(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) #[[BIND:[0-9]+]]
declare dso_local preserve_nonecc i64 @eleven(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
; CHECK: declare dso_local preserve_nonecc i64 @ten(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64){{$}}
declare dso_local preserve_nonecc i64 @ten(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

define ptr @address_of_eleven() {
  ret ptr @eleven
}

define ptr @address_of_ten() {
  ret ptr @ten
}

; CHECK: attributes #[[BIND]] = { nonlazybind }

; ASM-LABEL: address_of_eleven:
; ASM: movq eleven@GOTPCREL(%rip), %rax
; ASM-LABEL: address_of_ten:
; ASM: movl $ten, %eax
