// parse calls a preserve_none function and is static: APN infects it, and
// its prologue then saves only rbp. listed is what lists in the tests name.
__attribute__((preserve_none)) void co_switch(void *t);
static __attribute__((noinline)) long parse(void *t, long x) {
  long a = x * 3, b = x ^ 0x55;
  co_switch(t);
  return a + b;
}
long serve(void *t, long x) { return parse(t, x) + 1; }
__attribute__((noinline)) long listed(long a) { return a * 7; }
