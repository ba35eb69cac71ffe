// A plugin, compiled by stock clang, that finds exported_fn in the
// executable (exported by -rdynamic) and calls it with the C convention.
#include <dlfcn.h>

typedef long (*fn)(long, long, long, long, long, long, long, long, long, long,
                   long);

long plugin_run(long x) {
  fn f = (fn)dlsym(RTLD_DEFAULT, "exported_fn");
  if (!f)
    return -1;
  return f(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8, x + 9,
           x + 10);
}
