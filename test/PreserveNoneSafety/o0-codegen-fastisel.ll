; At -O0, code generation uses FastISel for the functions GlobalISel does not
; lower (all of them with -fno-global-isel), optnone or not: on AArch64 it
; passes preserve_none arguments in the AAPCS registers. When the pipeline
; runs at O0 (preserve-none-safety<O0>, as the plugin adds it to an O0
; pipeline) every preserve_none call of an AArch64 module goes through a
; shield, not only those of optnone callers (Hazards/aarch64-O0-no-optnone.c
; runs it). x86-64's FastISel gets preserve_none right.
;
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes='preserve-none-safety<O0>' -S | FileCheck %s --check-prefix=O0
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefix=OPT
; RUN: sed -e 's/TRIPLE/x86_64-unknown-linux-gnu/' %s | %opt_cacs -passes='preserve-none-safety<O0>' -S | FileCheck %s --check-prefix=OPT

target triple = "TRIPLE"

declare preserve_nonecc i64 @pn(i64, i64)

define i64 @not_optnone(i64 %x) noinline {
; O0-LABEL: define i64 @not_optnone(
; O0-NEXT: %r = call i64 @pn.cacs.shield(i64 %x, i64 7)
; OPT-LABEL: define i64 @not_optnone(
; OPT-NEXT: %r = call preserve_nonecc i64 @pn(i64 %x, i64 7)
  %r = call preserve_nonecc i64 @pn(i64 %x, i64 7)
  ret i64 %r
}
