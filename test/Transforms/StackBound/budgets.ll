; A declaration that states its stack budget (cacs/detail/contract.h, the
; annotation "cacs.stack_budget=<bytes>": libcacs's switches) is recorded
; with its budget when the unit calls it; one it only declares is not (a
; record is a reference the link must resolve), nor an annotation of
; another kind or without a number.
; RUN: %opt_cacs -passes=stack-bound-record -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK: module asm "\09.pushsection .cacs.stack_bound_budgets,\22\22"
; CHECK-NEXT: module asm "\09.quad \22cacs__sleep_pn\22"
; CHECK-NEXT: module asm "\09.quad 512"
; CHECK-NEXT: module asm "\09.quad \22cacs_on_system_stack\22"
; CHECK-NEXT: module asm "\09.quad 96"
; CHECK-NEXT: module asm "\09.popsection"
; CHECK-NOT: module asm

@budget = private unnamed_addr constant [22 x i8] c"cacs.stack_budget=512\00", section "llvm.metadata"
@sys = private unnamed_addr constant [21 x i8] c"cacs.stack_budget=96\00", section "llvm.metadata"
@other = private unnamed_addr constant [23 x i8] c"cacs.sync_block_allows\00", section "llvm.metadata"
@nonum = private unnamed_addr constant [19 x i8] c"cacs.stack_budget=\00", section "llvm.metadata"
@file = private unnamed_addr constant [4 x i8] c"a.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [5 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @"\01cacs__sleep_pn", ptr @budget, ptr @file, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @cacs_on_system_stack, ptr @sys, ptr @file, i32 2, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @"\01cacs__park_pn", ptr @budget, ptr @file, i32 3, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @"\01cacs__read_pn", ptr @other, ptr @file, i32 4, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @"\01cacs__write_pn", ptr @nonum, ptr @file, i32 5, ptr null }
], section "llvm.metadata"

declare preserve_nonecc i32 @"\01cacs__sleep_pn"(i64)
declare void @cacs_on_system_stack(ptr, ptr, ptr)
declare preserve_nonecc void @"\01cacs__park_pn"()
declare preserve_nonecc i64 @"\01cacs__read_pn"(i32, ptr, i64, i64)
declare preserve_nonecc i64 @"\01cacs__write_pn"(i32, ptr, i64, i64)

define void @user(ptr %f) {
  %r = call preserve_nonecc i32 @"\01cacs__sleep_pn"(i64 10)
  call void @cacs_on_system_stack(ptr %f, ptr null, ptr null)
  %w = call preserve_nonecc i64 @"\01cacs__write_pn"(i32 1, ptr null, i64 1, i64 -1)
  %x = call preserve_nonecc i64 @"\01cacs__read_pn"(i32 1, ptr null, i64 1, i64 -1)
  ret void
}
