// A __fentry__ that clobbers r10 and r11 and nothing else: the x86-64 ABI
// obliges a hook called before the prologue to preserve the C argument
// registers and rax, not these (glibc's leaves them alone by accident).
__asm__(".text\n"
        ".globl __fentry__\n"
        ".type __fentry__, @function\n"
        "__fentry__:\n"
        "  movq $0x5a5a5a5a, %r11\n"
        "  movq $0x6b6b6b6b, %r10\n"
        "  ret\n"
        ".size __fentry__, .-__fentry__\n");
