#include <alloca.h>
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) static int leaf(int x) {
  volatile char buf[200];
  buf[x] = 1;
  return buf[x / 2];
}
__attribute__((noinline)) static int mid(int x) {
  volatile char buf[50];
  buf[x] = 2;
  return leaf(x) + buf[1];
}
static void bounded(void *p) { sink = mid((int)(long)p); }

__attribute__((noinline)) static int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
static void recursion(void *p) { sink = fib((int)(long)p); }

static int (*volatile pointer)(int);
static void function_pointer(void *p) { sink = pointer((int)(long)p) + 1; }

__attribute__((noinline)) void apply(void (*f)(int), int x) {
  f(x);
  sink = 0;
}
static void add(int x) { sink += x; }
// Through a volatile, so that no optimization specializes apply for add.
static void (*volatile add_callback)(int) = add;
static void callback(void *p) { apply(add_callback, (int)(long)p); }

static void vla(void *p) {
  volatile char a[(long)p + 1];
  a[0] = 1;
  sink = a[0];
}
static void dynamic_alloca(void *p) {
  volatile char *a = alloca((long)p + 1);
  a[0] = 1;
  sink = a[0];
}

static void external(void *p) { sink = puts(p); }

void (*const entries[])(void *) = {bounded,  recursion,      function_pointer,
                                   callback, vla,            dynamic_alloca,
                                   external};
int main(int argc, char **argv) {
  if (argc > 100)
    for (int I = 0; I < 7; ++I)
      entries[I](argv[0]);
  return 0;
}
