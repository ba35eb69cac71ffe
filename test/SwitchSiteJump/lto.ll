; In an LTO compile step the per-TU pass only records the setting on every
; definition: the link lowers, after its walks (AutoPreserveNone,
; SwitchReturns, the sync-block check) have seen the calls across units.
; At the full-LTO link only the functions that carry the record are
; lowered.
;
; RUN: sed 's/LTOFLAG/EnableSplitLTOUnit/' %s | %opt_cacs -passes=switch-site-jump -S | FileCheck %s --check-prefix=STEP
; RUN: sed 's/LTOFLAG/ThinLTO/' %s | %opt_cacs -passes=switch-site-jump -S | FileCheck %s --check-prefix=STEP
; RUN: %opt_cacs -passes='switch-site-jump<lto>' -S %s | FileCheck %s --check-prefix=LINK
;
; STEP-LABEL: define void @on()
; STEP-SAME:  #[[REC:[0-9]+]] {
; STEP-NEXT:  entry:
; STEP-NEXT:    br label %loop
; STEP:       loop:
; STEP-NEXT:    call preserve_nonecc void @cacs__yield_pn()
; STEP-LABEL: define void @off()
; STEP-SAME:  #[[REC]] {
; STEP-NEXT:  entry:
; STEP-NEXT:    br label %loop
; STEP:       loop:
; STEP-NEXT:    call preserve_nonecc void @cacs__yield_pn()
; STEP: attributes #[[REC]] = { "cacs-switch-site-jumps" }
;
; LINK-LABEL: define void @on()
; LINK-SAME:  #[[ON:[0-9]+]] {
; LINK-NEXT:  entry:
; LINK-NEXT:    br label %loop
; LINK:       loop:
; LINK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; LINK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:"
; LINK-LABEL: define void @off() {
; LINK-NEXT:  entry:
; LINK-NEXT:    br label %loop
; LINK:       loop:
; LINK-NEXT:    call preserve_nonecc void @cacs__yield_pn()
; LINK: attributes #[[ON]] = { noredzone "cacs-switch-site-jumps" }

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @cacs__yield_pn()

define void @on() #0 {
entry:
  br label %loop
loop:
  call preserve_nonecc void @cacs__yield_pn()
  br label %loop
}

define void @off() {
entry:
  br label %loop
loop:
  call preserve_nonecc void @cacs__yield_pn()
  br label %loop
}

attributes #0 = { "cacs-switch-site-jumps" }

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"LTOFLAG", i32 0}
