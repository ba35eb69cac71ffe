// Full LTO with -fauto-preserve-none: a block calls a local function that
// only reads (an I/O wait, allowed). The compile step's APN gave that
// function preserve_none (it calls the read's preserve_none entry); the
// link's check judges it by what it calls, not by its convention, and
// links without error.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -g -flto -fauto-preserve-none -I%cacs_include -c %s -o %t/main.o
// RUN: %clang -O2 -flto %t/main.o %cacs_io_x86_64 %cacs_rt_x86_64 -o %t/a.out 2>&1 | count 0
#include "cacs/io.h"
#include "cacs/syncblock.h"

__attribute__((noinline)) static ssize_t fill(int fd, char *buf, size_t n) {
  return cacs_read(fd, buf, n, CACS_FOREVER);
}

int main(int argc, char **argv) {
  char buf[16];
  ssize_t n = 0;
  (void)argv;
  CACS_SYNC {
    if (argc > 1)
      n = fill(0, buf, sizeof buf);
  }
  return (int)n;
}
