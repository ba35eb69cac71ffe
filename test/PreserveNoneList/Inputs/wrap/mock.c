// A test double (cmocka's way): built by stock clang, it takes every call
// of scale12 under `-Wl,--wrap=scale12` and calls the real one.
long __real_scale12(long, long, long, long, long, long, long, long, long, long,
                    long, long);
long __wrap_scale12(long a, long b, long c, long d, long e, long f, long g,
                    long h, long i, long j, long k, long l) {
  return __real_scale12(a, b, c, d, e, f, g, h, i, j, k, l) * 1000 + l;
}
