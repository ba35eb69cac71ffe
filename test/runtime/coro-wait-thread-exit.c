// A thread that slept (timer heap + service coroutine) and waited on a
// cacs_xsem (wake-up eventfd) leaves nothing behind when it exits: no heap
// block (LeakSanitizer), no stack mapping, no descriptor.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t && %t | FileCheck %s
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %ta
// RUN: env ASAN_OPTIONS=detect_leaks=1 %ta 2>&1 | FileCheck %s
//
// CHECK: 100 threads slept and exited: mappings {{[+-][0-9]}}, descriptors +0
// CHECK-NEXT: PASS

#include "cacs/sync.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>

static cacs_xsem xs;

static int count_lines(const char *path) {
  FILE *f = fopen(path, "r");
  int n = 0, c;
  while ((c = fgetc(f)) != EOF)
    n += c == '\n';
  fclose(f);
  return n;
}

static int count_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  while (readdir(d))
    n++;
  closedir(d);
  return n;
}

static void *sleeper(void *arg) {
  (void)arg;
  cacs_sleep(100);
  cacs_xsem_wait(&xs, 100); // times out
  return NULL;
}

static void run_threads(int n) {
  for (int i = 0; i < n; i++) {
    pthread_t t;
    pthread_create(&t, NULL, sleeper, NULL);
    pthread_join(t, NULL);
  }
}

int main(void) {
  cacs_xsem_init(&xs, 0);
  run_threads(5); // warm up: thread caches, allocator arenas
  int maps = count_lines("/proc/self/maps"), fds = count_fds();
  run_threads(100);
  int dmaps = count_lines("/proc/self/maps") - maps, dfds = count_fds() - fds;
  // A leaked service stack is a mapping per thread (+100 or more).
  printf("100 threads slept and exited: mappings %+d, descriptors %+d\n",
         dmaps, dfds);
  int ok = dmaps < 10 && dfds == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
