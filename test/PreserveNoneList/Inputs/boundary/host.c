// Loads the plugin named by argv[1] and calls plug12 and plug3 through the
// C function pointers dlsym gives.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
typedef long P12(long, long, long, long, long, long, long, long, long, long,
                 long, long);
typedef long P3(long, long, long);
long plug_local(long a) { return a + 1; } // listed too, defined here
int main(int argc, char **argv) {
  void *H = dlopen(argv[1], RTLD_NOW);
  if (!H) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  P12 *F12 = (P12 *)dlsym(H, "plug12");
  P3 *F3 = (P3 *)dlsym(H, "plug3");
  long (*Self)(long) = (long (*)(long))dlsym(RTLD_DEFAULT, "plug_local");
  printf("plug12 %ld\n", F12(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1));
  printf("plug3 %ld\n", F3(1, 2, 3));
  printf("plug_local %ld %ld\n", plug_local(41), Self ? Self(41) : -1);
  return 0;
}
