// Built by stock clang into a shared library: it calls what it is given
// through a C function pointer.
typedef long fn11(long, long, long, long, long, long, long, long, long, long,
                  long);
long lib_apply(fn11 *f, long x) {
  return f(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8, x + 9,
           x + 10) * 2;
}
