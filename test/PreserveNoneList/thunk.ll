; Wherever the address of a listed function is taken, the use goes to a
; C-convention entry that calls the preserve_none body: indirect calls use the
; C convention. For an externally visible function the entry is the plain
; name itself (the body is <name>.preserve_none_list), with the function's
; linkage and visibility, so every translation unit, with the list or
; without, takes the same address, and an alias, llvm.used and a declaration
; keep the plain name. An internal function keeps its name and gets an
; internal thunk, `<name>.cacs_c_entry`. Direct calls and blockaddress keep
; the body.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false -S %t/in.ll | FileCheck %s
; Running again (as the full-LTO link does) changes nothing:
; RUN: %opt_cacs -passes='preserve-none-list,preserve-none-list<lto>' \
; RUN:   -cacs-preserve-none-list=%t/list.txt -cacs-preserve-none-list-export-warning=false \
; RUN:   -S %t/in.ll -o %t/twice.ll
; RUN: FileCheck %s --check-prefix=TWICE < %t/twice.ll
; RUN: FileCheck %s --check-prefix=ONCE < %t/twice.ll
; The full-LTO link of that module with one compiled without the list,
; which takes ext's address too: it is the same C entry.
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false %t/in.ll -o %t/with.bc
; RUN: llvm-as %t/without.ll -o %t/without.bc
; RUN: llvm-link %t/with.bc %t/without.bc -o %t/linked.bc
; RUN: %opt_cacs -passes='preserve-none-list<lto>' -S %t/linked.bc -o %t/linked.ll
; RUN: FileCheck %s --check-prefix=TWICE < %t/linked.ll
; RUN: FileCheck %s --check-prefix=ONCE < %t/linked.ll
; TWICE-DAG: define {{.*}} @ext(
; TWICE-DAG: define {{.*}} @ext.preserve_none_list(
; A second body or entry would be named ext.1 or ext.preserve_none_list.1.
; Checks with only -NOT lines cover the whole output; the order of the
; definitions differs between the two outputs above.
; ONCE-NOT: {{\.[0-9]+\(}}
; ONCE-NOT: preserve_none_list.preserve_none_list

;--- list.txt
fun:ext
fun:hid
fun:local
fun:decl

;--- in.ll
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @table = global [2 x ptr] [ptr @ext, ptr @local.cacs_c_entry]
@table = global [2 x ptr] [ptr @ext, ptr @local]
; CHECK: @pdecl = global ptr @decl
@pdecl = global ptr @decl
; CHECK: @llvm.used = appending global [1 x ptr] [ptr @ext]
@llvm.used = appending global [1 x ptr] [ptr @ext], section "llvm.metadata"
; CHECK: @alias = alias i32 (i32), ptr @ext
@alias = alias i32 (i32), ptr @ext

; CHECK: define preserve_nonecc i32 @ext.preserve_none_list(i32 signext %x)
define i32 @ext(i32 signext %x) {
  ret i32 %x
}
; CHECK: define hidden preserve_nonecc void @hid.preserve_none_list()
define hidden void @hid() {
  ret void
}
; CHECK: define internal preserve_nonecc void @local()
define internal void @local() {
  ret void
}
; CHECK: declare void @decl()
declare void @decl()

declare void @take(ptr)

; CHECK-LABEL: define void @user(
define void @user(ptr %slot) {
; CHECK: store ptr @hid, ptr %slot
  store ptr @hid, ptr %slot
; CHECK: call void @take(ptr @ext)
  call void @take(ptr @ext)
; CHECK: icmp eq ptr %slot, @ext
  %c = icmp eq ptr %slot, @ext
; CHECK: call preserve_nonecc i32 @ext.preserve_none_list(i32 signext 1)
  %r = call i32 @ext(i32 signext 1)
; An indirect call keeps the C convention.
; CHECK: call void %slot()
  call void %slot()
  ret void
}

; CHECK: define i32 @ext(i32 signext %0) #[[UW:[0-9]+]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: %1 = tail call preserve_nonecc i32 @ext.preserve_none_list(i32 signext %0)
; CHECK-NEXT: ret i32 %1
; CHECK: define hidden void @hid() #[[UW]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: tail call preserve_nonecc void @hid.preserve_none_list()
; CHECK: define internal void @local.cacs_c_entry() #[[UW]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: tail call preserve_nonecc void @local()
; CHECK: attributes #[[UW]] = { uwtable "cacs-wrapper" }

;--- without.ll
target triple = "x86_64-unknown-linux-gnu"
declare i32 @ext(i32 signext)
@other_table = global ptr @ext
