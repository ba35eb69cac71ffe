target triple = "aarch64-unknown-linux-gnu"
declare preserve_nonecc void @seed()
define internal void @callee() {
  call preserve_nonecc void @seed()
  ret void
}
define void @onone() noinline optnone {
  call void @callee()
  ret void
}
