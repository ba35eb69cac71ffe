target triple = "aarch64-unknown-linux-gnu"
declare preserve_nonecc void @seed()
define internal preserve_nonecc void @callee() {
  call preserve_nonecc void @seed()
  ret void
}
define void @onone() #0 {
  call preserve_nonecc void @callee()
  ret void
}
attributes #0 = { noinline optnone }
