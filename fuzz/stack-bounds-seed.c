// The program the seeds of fuzz/corpus/stack-bounds/ are linked from
// (scripts/fuzz --make-seeds): small, without libc, with coroutine entries
// (functions whose address is taken) of every kind the walk tells apart:
// bounded chains, a tail call, recursion, a function pointer, dynamic
// stack, inline assembly.
static volatile int sink;
static void *volatile entries[8];

__attribute__((noinline)) static int leaf(int x) {
  volatile char buf[200];
  buf[x & 127] = 1;
  return buf[x / 2 & 127];
}
__attribute__((noinline)) static int mid(int x) {
  volatile char buf[50];
  buf[x & 31] = 2;
  return leaf(x) + buf[1];
}
__attribute__((noinline)) static int tail(int x) { return mid(x + 1); }
static void bounded(void *p) { sink = tail((int)(long)p); }

__attribute__((noinline)) static int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
static void recursion(void *p) { sink = fib((int)(long)p); }

static int (*volatile pointer)(int) = leaf;
static void function_pointer(void *p) { sink = pointer((int)(long)p) + 1; }

static void dynamic(void *p) {
  volatile char *a = __builtin_alloca((long)p);
  a[0] = 1;
  sink = a[0];
}
static void assembly(void *p) {
  __asm__ volatile("" ::: "memory");
  sink = (int)(long)p;
}

void entry(void) {
  entries[0] = bounded;
  entries[1] = recursion;
  entries[2] = function_pointer;
  entries[3] = dynamic;
  entries[4] = assembly;
  for (;;)
    ;
}
