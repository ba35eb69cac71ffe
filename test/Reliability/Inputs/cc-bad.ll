declare preserve_nonecc void @seed()
define internal preserve_nonecc void @caller() {
  call preserve_nonecc void @seed()
  ret void
}
define preserve_nonecc void @exported() {
  call void @caller()
  ret void
}
define internal preserve_nonecc void @vararg(i32 %n, ...) {
  call preserve_nonecc void @seed()
  ret void
}
@fp = global ptr null
define internal preserve_nonecc void @taken() {
  call preserve_nonecc void @seed()
  ret void
}
define void @take() {
  store ptr @taken, ptr @fp
  call preserve_nonecc void (i32, ...) @vararg(i32 1, i32 2)
  call preserve_nonecc void @taken()
  ret void
}
