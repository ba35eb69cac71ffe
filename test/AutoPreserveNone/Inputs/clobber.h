// A preserve_none "switch" stand-in for the executed APN tests: it writes
// garbage into every register the C convention calls callee-saved (which
// preserve_none lets it do without saving them), so that any caller still
// relying on the C convention across a call into the infected chain loses
// its values.
#ifndef APN_CLOBBER_H
#define APN_CLOBBER_H

#if defined(__x86_64__)
#define APN_CLOBBER_CALLEE_SAVED()                                             \
  __asm__ volatile("movq $0x5a5a5a5a, %%rbx\n\t"                               \
                   "movq %%rbx, %%r12\n\t"                                     \
                   "movq %%rbx, %%r13\n\t"                                     \
                   "movq %%rbx, %%r14\n\t"                                     \
                   "movq %%rbx, %%r15\n\t"                                     \
                   :                                                           \
                   :                                                           \
                   : "rbx", "r12", "r13", "r14", "r15", "memory")
#elif defined(__aarch64__)
#define APN_CLOBBER_CALLEE_SAVED()                                             \
  __asm__ volatile("mov x19, #0x5a5a\n\t"                                      \
                   "mov x20, x19\n\tmov x21, x19\n\tmov x22, x19\n\t"          \
                   "mov x23, x19\n\tmov x24, x19\n\tmov x25, x19\n\t"          \
                   "mov x26, x19\n\tmov x27, x19\n\tmov x28, x19\n\t"          \
                   "fmov d8, x19\n\tfmov d9, x19\n\tfmov d10, x19\n\t"         \
                   "fmov d11, x19\n\tfmov d12, x19\n\tfmov d13, x19\n\t"       \
                   "fmov d14, x19\n\tfmov d15, x19\n\t"                        \
                   :                                                           \
                   :                                                           \
                   : "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26",   \
                     "x27", "x28", "d8", "d9", "d10", "d11", "d12", "d13",     \
                     "d14", "d15", "memory")
#else
#error "x86-64 or AArch64 only"
#endif

#ifdef __cplusplus
extern "C" {
#endif
/// The seed: every caller of it is a candidate for infection.
__attribute__((preserve_none, noinline)) void apn_switch(long v);
#ifdef __cplusplus
}
#endif

#ifdef APN_DEFINE_SWITCH
volatile long apn_sink;
__attribute__((preserve_none, noinline)) void apn_switch(long v) {
  APN_CLOBBER_CALLEE_SAVED();
  apn_sink = v;
}
#endif

#endif // APN_CLOBBER_H
