// The `pure` and `const` wrappers of a switch of pure-wrapper.c, which
// includes this file or (pure-wrapper-other-unit.c) links it as a unit of
// its own.
void migrate_call(void);

// Waits until *flag is set: a wait loop, `pure` as far as C can tell.
__attribute__((pure, noinline)) int wait_flag(const int *flag) {
  do
    migrate_call();
  while (!*flag);
  return *flag;
}

// One more level: the switch is in a helper of the `const` function (whose
// result the optimizer cannot know, or it would drop the call).
static volatile int one = 1;
static __attribute__((noinline)) int step(void) {
  migrate_call();
  return one;
}
__attribute__((const, noinline)) int wait_const(void) { return step(); }
