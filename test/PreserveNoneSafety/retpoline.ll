; x86-64 -mretpoline: an indirect call, or a call through the GOT (which
; cacs makes of a call that the lazy PLT resolver would clobber), goes
; through a retpoline thunk that takes the target in r11, the 11th integer
; argument of preserve_none. The backend stopped with "calling convention
; incompatible with retpoline, no available registers" (defect 9 of issue
; 11); cacs reports the call instead, naming the caller and the callee.
;
; (opt stops at the first error: one module per error.)
; RUN: rm -rf %t && split-file %s %t
; RUN: cat %t/common.ll %t/indirect.ll > %t/a.ll
; RUN: not %opt_cacs -passes=preserve-none-safety -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=INDIRECT --implicit-check-not=error:
; RUN: cat %t/common.ll %t/lazy.ll > %t/b.ll
; RUN: not %opt_cacs -passes=preserve-none-safety -disable-output %t/b.ll 2>&1 | FileCheck %s --check-prefix=LAZY --implicit-check-not=error:
; Without retpolines the lazily bound call is bound at load time, and llc,
; which stopped with a fatal error on the retpoline module, compiles it.
; RUN: sed 's/+retpoline-indirect-calls/+sse2/' %t/b.ll | %opt_cacs -passes=preserve-none-safety -S -o %t/b.out.ll
; RUN: FileCheck %s --check-prefix=NORETPOLINE < %t/b.out.ll
; RUN: llc %t/b.out.ll -o - | FileCheck %s --check-prefix=GOT
; Ten arguments leave r11 to the thunk: no error, and llc compiles it.
; RUN: cat %t/common.ll %t/ten.ll > %t/c.ll
; RUN: %opt_cacs -passes=preserve-none-safety %t/c.ll -S -o - | llc -o /dev/null

;--- common.ll
target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc i64 @ext11(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
declare preserve_nonecc i64 @ext10(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

attributes #0 = { "target-features"="+retpoline-indirect-calls" }

;--- indirect.ll
; INDIRECT: error: {{.*}}preserve_none call through a pointer in 'indirect' passes 11 or more integer arguments, the 11th in r11
define i64 @indirect(ptr %f, i64 %x) #0 {
  %r = call preserve_nonecc i64 %f(i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x)
  ret i64 %r
}

;--- lazy.ll
; LAZY: error: {{.*}}preserve_none call to 'ext11' in 'lazy' passes 11 or more integer arguments, the 11th in r11
; NORETPOLINE: declare preserve_nonecc i64 @ext11({{.*}}) #[[NLB:[0-9]+]]
; NORETPOLINE: attributes #[[NLB]] = { nonlazybind }
; GOT: callq *ext11@GOTPCREL(%rip)
define i64 @lazy(i64 %x) #0 {
  %r = call preserve_nonecc i64 @ext11(i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x)
  ret i64 %r
}

;--- ten.ll
define i64 @ten(ptr %f, i64 %x) #0 {
  %r = call preserve_nonecc i64 %f(i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x)
  %s = call preserve_nonecc i64 @ext10(i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x, i64 %x)
  %t = add i64 %r, %s
  ret i64 %t
}
