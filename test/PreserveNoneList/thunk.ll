; Wherever the address of a listed function is taken, the use goes to a
; C-convention entry thunk `<name>.cacs_c_entry` that calls the preserve_none
; body: indirect calls use the C convention. Direct calls, llvm.used and
; blockaddress keep the function itself. The thunk of an external function is
; linkonce_odr in a comdat with the function's visibility, so every
; translation unit takes the same address; that of an internal one is internal.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false -S %t/in.ll | FileCheck %s
; Running again (as the full-LTO link does) reuses the thunk:
; RUN: %opt_cacs -passes='preserve-none-list,preserve-none-list<lto>' \
; RUN:   -cacs-preserve-none-list=%t/list.txt -cacs-preserve-none-list-export-warning=false \
; RUN:   -S %t/in.ll | FileCheck %s --check-prefix=TWICE \
; RUN:   --implicit-check-not='{{cacs_c_entry\.[0-9]}}' --implicit-check-not=cacs_c_entry.cacs_c_entry
; The full-LTO link of that module with one compiled without the list,
; which takes ext's address too: the link's run reuses the thunk for it.
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false %t/in.ll -o %t/with.bc
; RUN: llvm-as %t/without.ll -o %t/without.bc
; RUN: llvm-link %t/with.bc %t/without.bc -o %t/linked.bc
; RUN: %opt_cacs -passes='preserve-none-list<lto>' -S %t/linked.bc | FileCheck %s --check-prefix=TWICE \
; RUN:   --implicit-check-not='{{cacs_c_entry\.[0-9]}}' --implicit-check-not=cacs_c_entry.cacs_c_entry
; (A second thunk would be named ext.cacs_c_entry.1: the implicit checks
; reject it anywhere in the output.)
; TWICE-COUNT-1: define {{.*}} @ext.cacs_c_entry(

;--- list.txt
fun:ext
fun:hid
fun:local
fun:decl

;--- in.ll
target triple = "x86_64-unknown-linux-gnu"

; CHECK: $ext.cacs_c_entry = comdat any
; CHECK: $hid.cacs_c_entry = comdat any

; CHECK: @table = global [2 x ptr] [ptr @ext.cacs_c_entry, ptr @local.cacs_c_entry]
@table = global [2 x ptr] [ptr @ext, ptr @local]
; CHECK: @pdecl = global ptr @decl.cacs_c_entry
@pdecl = global ptr @decl
; CHECK: @llvm.used = appending global [1 x ptr] [ptr @ext]
@llvm.used = appending global [1 x ptr] [ptr @ext], section "llvm.metadata"
; CHECK: @alias = alias i32 (i32), ptr @ext.cacs_c_entry
@alias = alias i32 (i32), ptr @ext

; CHECK: define preserve_nonecc i32 @ext(i32 signext %x)
define i32 @ext(i32 signext %x) {
  ret i32 %x
}
; CHECK: define hidden preserve_nonecc void @hid()
define hidden void @hid() {
  ret void
}
; CHECK: define internal preserve_nonecc void @local()
define internal void @local() {
  ret void
}
; CHECK: declare preserve_nonecc void @decl()
declare void @decl()

declare void @take(ptr)

; CHECK-LABEL: define void @user(
define void @user(ptr %slot) {
; CHECK: store ptr @hid.cacs_c_entry, ptr %slot
  store ptr @hid, ptr %slot
; CHECK: call void @take(ptr @ext.cacs_c_entry)
  call void @take(ptr @ext)
; CHECK: icmp eq ptr %slot, @ext.cacs_c_entry
  %c = icmp eq ptr %slot, @ext
; CHECK: call preserve_nonecc i32 @ext(i32 signext 1)
  %r = call i32 @ext(i32 signext 1)
; An indirect call keeps the C convention.
; CHECK: call void %slot()
  call void %slot()
  ret void
}

; CHECK: define linkonce_odr i32 @ext.cacs_c_entry(i32 signext %0) #[[UW:[0-9]+]] comdat {
; CHECK-NEXT: entry:
; CHECK-NEXT: %1 = tail call preserve_nonecc i32 @ext(i32 signext %0)
; CHECK-NEXT: ret i32 %1
; CHECK: define linkonce_odr hidden void @hid.cacs_c_entry() #[[UW]] comdat {
; CHECK-NEXT: entry:
; CHECK-NEXT: tail call preserve_nonecc void @hid()
; CHECK: define internal void @local.cacs_c_entry() #[[UW]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: tail call preserve_nonecc void @local()
; CHECK: define linkonce_odr void @decl.cacs_c_entry() #[[UW]] comdat {
; CHECK-NEXT: entry:
; CHECK-NEXT: tail call preserve_nonecc void @decl()
; CHECK: attributes #[[UW]] = { uwtable "cacs-wrapper" }

;--- without.ll
target triple = "x86_64-unknown-linux-gnu"
declare i32 @ext(i32 signext)
@other_table = global ptr @ext
