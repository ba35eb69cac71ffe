; Recursion does not stop the walk: a self-recursive function that calls a
; seed is infected along with its own recursive call site, and so is a
; strongly connected component {@even, @odd} of which one member calls a
; seed. Each function is decided once, so the walk terminates.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal preserve_nonecc void @self(i32 %n)
; CHECK:         call preserve_nonecc void @seed()
; CHECK:         call preserve_nonecc void @self(i32 %m)
define internal void @self(i32 %n) {
  call preserve_nonecc void @seed()
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %again
again:
  %m = sub i32 %n, 1
  call void @self(i32 %m)
  br label %done
done:
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @even(i32 %n)
; CHECK:         call preserve_nonecc void @odd(i32 %m)
define internal void @even(i32 %n) {
  %c = icmp eq i32 %n, 0
  br i1 %c, label %base, label %rec
base:
  call preserve_nonecc void @seed()
  ret void
rec:
  %m = sub i32 %n, 1
  call void @odd(i32 %m)
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @odd(i32 %n)
; CHECK:         call preserve_nonecc void @even(i32 %m)
define internal void @odd(i32 %n) {
  %m = sub i32 %n, 1
  call void @even(i32 %m)
  ret void
}

; CHECK-LABEL: define void @entry(
; CHECK:         call preserve_nonecc void @self(i32 3)
; CHECK:         call preserve_nonecc void @odd(i32 5)
define void @entry() {
  call void @self(i32 3)
  call void @odd(i32 5)
  ret void
}
