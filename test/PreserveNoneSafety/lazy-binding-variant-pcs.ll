; AArch64: a preserve_none function whose arguments reach x9-x15 (from the
; 18th integer argument; the lazy PLT resolver clobbers them) is marked as a
; variant PCS symbol (STO_AARCH64_VARIANT_PCS), so that the dynamic linker
; binds its PLT entries at load time, a canonical one too. The static linker
; takes the mark from any object, from the definition in a shared library
; too (Hazards/lazy-plt-address.c runs it). Seventeen arguments leave x9-x15
; alone.
;
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety | llc -O2 -filetype=obj -o %t.o
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
; The directive is ELF's: no mark for Mach-O (whose assembler rejects it).
; RUN: sed -e 's/TRIPLE/arm64-apple-macosx14.0.0/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefix=MACHO

target triple = "TRIPLE"

; Once per symbol, quoted.
; CHECK: module asm ".variant_pcs \22eighteen\22"
; CHECK-NEXT: module asm ".variant_pcs \22defined\22"
; CHECK-NOT: module asm
; MACHO-NOT: module asm

@table = constant [2 x ptr] [ptr @eighteen, ptr @seventeen]

declare preserve_nonecc i64 @eighteen(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
declare preserve_nonecc i64 @seventeen(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

define preserve_nonecc i64 @defined(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17, i64 %a18) {
  %r = call preserve_nonecc i64 @eighteen(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17, i64 %a18)
  ret i64 %r
}

; SYM-DAG: {{ FUNC +GLOBAL +DEFAULT +\[VARIANT_PCS\] .* defined$}}
; SYM-DAG: {{ NOTYPE +GLOBAL +DEFAULT +\[VARIANT_PCS\] +UND eighteen$}}
; SYM-DAG: {{ NOTYPE +GLOBAL +DEFAULT +UND seventeen$}}
