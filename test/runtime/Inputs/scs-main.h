// The main thread's shadow call stack (AArch64, -fsanitize=shadow-call-stack
// -ffixed-x18): on Linux nothing sets x18, so a test points it at a buffer
// itself, before anything instrumented runs. Nothing without the feature.
#ifndef CACS_TEST_SCS_MAIN_H
#define CACS_TEST_SCS_MAIN_H
#if defined(__has_feature)
#if __has_feature(shadow_call_stack)
static void *main_scs[8192];
__attribute__((constructor, no_sanitize("shadow-call-stack"))) static void
scs_init(void) {
  __asm__ volatile("mov x18, %0" : : "r"(main_scs));
}
#endif
#endif
#endif // CACS_TEST_SCS_MAIN_H
