; A shield is compiled with its caller's code generation settings, and is
; shared only by callers whose settings agree: the registers that carry a
; <8 x float> argument depend on the target features (ymm0 with AVX, xmm0 and
; xmm1 without), so an AVX caller and a non-AVX caller of the same
; preserve_none function get a shield each (defect 8 of issue 11: shields
; were cached per callee and type, with the first caller's features).
; x86-64 shields base-pointer callers before LLVM 22; AArch64 shields optnone
; callers in both versions.
;
; RUN: %if llvm-19 %{ %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s %}
; RUN: sed -e 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' -e 's/+avx,+avx2/+sve/' -e 's/uwtable/optnone noinline/' %s \
; RUN:   | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefix=A64

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc <8 x float> @pn(<8 x float>)
declare void @use(ptr)

define <8 x float> @avx_caller(<8 x float> %v, i64 %n) #0 {
; CHECK-LABEL: define <8 x float> @avx_caller(
; CHECK: call <8 x float> @[[AVX:pn.cacs.shield(\.[0-9]+)?]](<8 x float> %v)
; A64-LABEL: define <8 x float> @avx_caller(
; A64: call <8 x float> @[[SVE:pn.cacs.shield(\.[0-9]+)?]](<8 x float> %v)
  %dyn = alloca i8, i64 %n, align 16
  call void @use(ptr %dyn)
  %r = call preserve_nonecc <8 x float> @pn(<8 x float> %v)
  ret <8 x float> %r
}

define <8 x float> @plain_caller(<8 x float> %v, i64 %n) #1 {
; CHECK-LABEL: define <8 x float> @plain_caller(
; CHECK: call <8 x float> @[[PLAIN:pn.cacs.shield(\.[0-9]+)?]](<8 x float> %v)
; A64-LABEL: define <8 x float> @plain_caller(
; A64: call <8 x float> @[[NOSVE:pn.cacs.shield(\.[0-9]+)?]](<8 x float> %v)
  %dyn = alloca i8, i64 %n, align 16
  call void @use(ptr %dyn)
  %r = call preserve_nonecc <8 x float> @pn(<8 x float> %v)
  ret <8 x float> %r
}

; A second non-AVX caller shares the non-AVX shield.
define <8 x float> @plain_caller2(<8 x float> %v, i64 %n) #1 {
; CHECK-LABEL: define <8 x float> @plain_caller2(
; CHECK: call <8 x float> @[[PLAIN]](<8 x float> %v)
; A64-LABEL: define <8 x float> @plain_caller2(
; A64: call <8 x float> @[[NOSVE]](<8 x float> %v)
  %dyn = alloca i8, i64 %n, align 16
  call void @use(ptr %dyn)
  %r = call preserve_nonecc <8 x float> @pn(<8 x float> %v)
  ret <8 x float> %r
}

; CHECK-DAG: define private <8 x float> @[[AVX]](<8 x float> %0) #[[AVXATTR:[0-9]+]]
; CHECK-DAG: define private <8 x float> @[[PLAIN]](<8 x float> %0) #[[PLAINATTR:[0-9]+]]
; CHECK-DAG: attributes #[[AVXATTR]] = { noinline uwtable "cacs-wrapper" "target-cpu"="x86-64" "target-features"="+avx,+avx2" }
; CHECK-DAG: attributes #[[PLAINATTR]] = { noinline uwtable "cacs-wrapper" "target-cpu"="x86-64" "target-features"="+sse2" }
; A64-DAG: define private <8 x float> @[[SVE]](<8 x float> %0) #[[SVEATTR:[0-9]+]]
; A64-DAG: define private <8 x float> @[[NOSVE]](<8 x float> %0) #[[NOSVEATTR:[0-9]+]]
; A64-DAG: attributes #[[SVEATTR]] = { noinline {{.*}}"target-features"="+sve" }
; A64-DAG: attributes #[[NOSVEATTR]] = { noinline {{.*}}"target-features"="+sse2" }

attributes #0 = { uwtable "target-cpu"="x86-64" "target-features"="+avx,+avx2" }
attributes #1 = { uwtable "target-cpu"="x86-64" "target-features"="+sse2" }
