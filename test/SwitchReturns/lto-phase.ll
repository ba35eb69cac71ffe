; At the full-LTO link only the functions compiled with -fswitch-returns
; (which carry "cacs-switch-returns") are marked; the walk still goes through
; the others. The per-TU phase records the setting on every definition.
;
; RUN: %opt_cacs -passes='switch-returns<lto>' -S %s | FileCheck %s --check-prefix=LTO
; RUN: %opt_cacs -passes=switch-returns -S %s | FileCheck %s --check-prefix=TU

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @yield()

; LTO: define void @on() #[[ON:[0-9]+]] {
; TU: define void @on() #[[TUON:[0-9]+]] {
define void @on() #0 {
  call preserve_nonecc void @yield()
  ret void
}

; LTO-LABEL: define void @off() {
; TU: define void @off() #[[TUON]] {
define void @off() {
  call void @on()
  ret void
}

; LTO: define void @on_above_off() #[[ON]] {
define void @on_above_off() #0 {
  call void @off()
  ret void
}

attributes #0 = { "cacs-switch-returns" }

; LTO: attributes #[[ON]] = { fn_ret_thunk_extern "cacs-switch-returns" }
; TU: attributes #[[TUON]] = { fn_ret_thunk_extern "cacs-switch-returns" }
