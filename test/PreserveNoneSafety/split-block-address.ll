; A preserve_none function split by the final check (here: its frame is
; probed by a loop that clobbers its 23rd integer argument, r11 on x86-64 and
; x9 on AArch64) whose blocks have their address taken: a computed goto over
; a table of `&&label`s, as in Oniguruma's match_at. The blocks move into the
; body, and so must their blockaddress constants, in the table and in the
; code: on LLVM 19 they kept naming the entry, and the bitcode writer wrote
; a module its reader refuses ("Invalid ID": llvm-dis, and the LTO links).
; (Hazards/split-computed-goto.c runs such a function.)
;
; RUN: %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s
; RUN: %opt_cacs -passes=preserve-none-safety %s -o %t.bc
; RUN: llvm-dis %t.bc -o - | FileCheck %s
; RUN: %opt_cacs -mtriple=aarch64-unknown-linux-gnu -passes=preserve-none-safety %s -o %t-a64.bc
; RUN: llvm-dis %t-a64.bc -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK: @tbl = internal constant [2 x ptr] [ptr blockaddress(@dispatch.cacs.body, %one), ptr blockaddress(@dispatch.cacs.body, %two)]
@tbl = internal constant [2 x ptr] [ptr blockaddress(@dispatch, %one), ptr blockaddress(@dispatch, %two)]
@sink = global ptr null

; CHECK-LABEL: define preserve_nonecc i64 @dispatch(
; CHECK-NEXT: entry:
; CHECK-NEXT: %23 = call i64 @dispatch.cacs.body(
; CHECK-NEXT: ret i64 %23
; CHECK-NEXT: }
define preserve_nonecc i64 @dispatch(i64 %op, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17, i64 %a18, i64 %a19, i64 %a20, i64 %a21, i64 %a22, i64 %a23) "probe-stack"="inline-asm" {
entry:
  %buf = alloca [100000 x i8]
  store volatile i64 %a23, ptr %buf
  store volatile ptr blockaddress(@dispatch, %two), ptr @sink
  %slot = getelementptr [2 x ptr], ptr @tbl, i64 0, i64 %op
  %dest = load ptr, ptr %slot
  indirectbr ptr %dest, [label %one, label %two]
one:
  ret i64 %a2
two:
  ret i64 %a23
}

; CHECK-LABEL: define private i64 @dispatch.cacs.body(
; CHECK-NEXT: entry:
; CHECK-NEXT: %buf = alloca [100000 x i8]
; CHECK-NEXT: store volatile i64 %a23, ptr %buf
; CHECK-NEXT: store volatile ptr blockaddress(@dispatch.cacs.body, %two), ptr @sink
; CHECK-NEXT: %slot = getelementptr [2 x ptr], ptr @tbl, i64 0, i64 %op
; CHECK-NEXT: %dest = load ptr, ptr %slot
; CHECK-NEXT: indirectbr ptr %dest, [label %one, label %two]
; CHECK-EMPTY:
; CHECK-NEXT: one:
; CHECK-NEXT: ret i64 %a2
; CHECK-EMPTY:
; CHECK-NEXT: two:
; CHECK-NEXT: ret i64 %a23
; CHECK-NEXT: }
; CHECK-NOT: blockaddress(@dispatch,
