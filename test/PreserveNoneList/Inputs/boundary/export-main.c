// Calls the functions of export-lib.c: lfoo directly and through its
// address, lbar, and the pointer lget returns. With -DUSE_DLSYM it does not
// link with the library: it dlopens argv[1] and finds the three by name.
#include <stdio.h>
#ifdef USE_DLSYM
#include <dlfcn.h>
#endif
typedef long lfoo_fn(long, long, long, long, long, long, long, long, long,
                     long, long, long);
long lfoo(long, long, long, long, long, long, long, long, long, long, long,
          long);
long lbar(long);
lfoo_fn *lget(void);
int main(int argc, char **argv) {
#ifdef USE_DLSYM
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  lfoo_fn *foo = (lfoo_fn *)dlsym(h, "lfoo");
  long (*bar)(long) = (long (*)(long))dlsym(h, "lbar");
  lfoo_fn *(*get)(void) = (lfoo_fn *(*)(void))dlsym(h, "lget");
  if (!foo || !bar || !get) {
    printf("dlsym failed\n");
    return 1;
  }
#else
  lfoo_fn *volatile foo = lfoo;
  long (*volatile bar)(long) = lbar;
  lfoo_fn *(*volatile get)(void) = lget;
#endif
  for (long i = 0; i < 3; i++) {
#ifndef USE_DLSYM
    printf("%ld ", lfoo(i, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
#else
    printf("%ld ", foo(i, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
#endif
    printf("%ld %ld %ld\n", foo(i, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
           bar(i), get()(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, i));
  }
  return 0;
}
