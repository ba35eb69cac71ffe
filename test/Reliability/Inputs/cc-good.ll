declare preserve_nonecc void @seed()
define internal preserve_nonecc void @caller() {
  call preserve_nonecc void @seed()
  ret void
}
define void @exported() {
  call preserve_nonecc void @caller()
  ret void
}
define internal void @vararg(i32 %n, ...) {
  call preserve_nonecc void @seed()
  ret void
}
@fp = global ptr null
define internal void @taken() {
  call preserve_nonecc void @seed()
  ret void
}
define void @take() {
  store ptr @taken, ptr @fp
  call void (i32, ...) @vararg(i32 1, i32 2)
  call void @taken()
  ret void
}
