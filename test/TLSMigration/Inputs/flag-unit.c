// One unit of flag.c, compiled twice: NAME is its function's name.
extern __thread int tls;
void yield_now(void);
__attribute__((noinline)) int NAME(void) {
  int *before = &tls;
  yield_now();
  return *before + tls;
}
