// Compiled without -mretpoline by Hazards/lto-mixed-retpoline.c: an
// indirect preserve_none call with 11 integer arguments, which the LTO link
// inlines into a caller compiled with -mretpoline.
typedef long __attribute__((preserve_none)) (*fn11)(long, long, long, long,
                                                    long, long, long, long,
                                                    long, long, long);

long call_it(fn11 f, long x) {
  return f(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8, x + 9,
           x + 10) +
         1;
}
