// The fault injector's CACS_FAULT (test/runtime/Inputs/faults.c, run by
// scripts/faults; issue 36, part 2): one point NAME:N, or several,
// comma-separated, each failing the N-th call of its function; a value
// that is not such a list is named, with exit 2 and no crash. This
// program makes the wrappers' calls itself (no runtime): three of
// malloc's, two of eventfd's.
//
// RUN: %clang -O1 %s %S/Inputs/faults.c -o %t
// RUN: env CACS_FAULT=malloc:2 %t 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: env CACS_FAULT=malloc:2,eventfd:1 %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWO
// RUN: env CACS_FAULT=eventfd:2,malloc:1,malloc:3 %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SAME
// RUN: env CACS_FAULT=malloc:3,eventfd:9,mmap:1 %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PART
// RUN: env CACS_FAULT=eventfd:7 %t 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: env CACS_FAULT=malloc not %t 2>&1 | FileCheck %s --check-prefix=NOCOLON
// RUN: env CACS_FAULT=malloc:1, not %t 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: env CACS_FAULT=,malloc:1 not %t 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: env CACS_FAULT=malloc:0 not %t 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: env CACS_FAULT=malloc:2x not %t 2>&1 | FileCheck %s --check-prefix=TRAIL
// RUN: env CACS_FAULT=malloc:-1 not %t 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: env CACS_FAULT=malloc:99999999999999999999 not %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BIG
// RUN: env CACS_FAULT=malloc:1,nosuch:2 not %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// RUN: env CACS_FAULT=malloc:1,malloc:1 not %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWICE
// RUN: env CACS_FAULT=mmap:1,mmap:2,mmap:3,mmap:4,mmap:5,mmap:6,mmap:7,mmap:8,mmap:9 \
// RUN:   not %t 2>&1 | FileCheck %s --check-prefix=MANY
//
// ONE: malloc 1: ok
// ONE-NEXT: malloc 2: fails: ENOMEM
// ONE-NEXT: malloc 3: ok
// ONE-NEXT: eventfd 1: ok
// ONE-NEXT: eventfd 2: ok
// ONE-NEXT: faults: injected malloc:2; fds
//
// TWO: malloc 1: ok
// TWO-NEXT: malloc 2: fails: ENOMEM
// TWO-NEXT: malloc 3: ok
// TWO-NEXT: eventfd 1: fails: EMFILE
// TWO-NEXT: eventfd 2: ok
// TWO-NEXT: faults: injected malloc:2,eventfd:1; fds
//
// SAME: malloc 1: fails: ENOMEM
// SAME-NEXT: malloc 2: ok
// SAME-NEXT: malloc 3: fails: ENOMEM
// SAME-NEXT: eventfd 1: ok
// SAME-NEXT: eventfd 2: fails: EMFILE
// SAME-NEXT: faults: injected eventfd:2,malloc:1,malloc:3; fds
//
// PART: malloc 3: fails: ENOMEM
// PART: eventfd 2: ok
// PART-NEXT: faults: injected malloc:3 (not reached eventfd:9,mmap:1); fds
//
// NONE: eventfd 2: ok
// NONE-NEXT: faults: not reached; fds
//
// NOCOLON: faults: bad CACS_FAULT=malloc: no ':N' in 'malloc' (want NAME:N[,NAME:N...], N >= 1, at most 8 points)
// EMPTY: faults: bad CACS_FAULT={{.*}}: an empty point (want
// ZERO: faults: bad CACS_FAULT=malloc:0: N is not a number from 1 to LONG_MAX in 'malloc:0'
// TRAIL: faults: bad CACS_FAULT=malloc:2x: N is not a number from 1 to LONG_MAX in 'malloc:2x'
// NEG: faults: bad CACS_FAULT=malloc:-1: N is not a number from 1 to LONG_MAX in 'malloc:-1'
// BIG: N is not a number from 1 to LONG_MAX in 'malloc:99999999999999999999'
// UNKNOWN: faults: bad CACS_FAULT=malloc:1,nosuch:2: no wrapped function of that name in 'nosuch:2'
// TWICE: faults: bad CACS_FAULT=malloc:1,malloc:1: a point given twice: 'malloc:1'
// MANY: faults: bad CACS_FAULT={{.*}}: too many points at 'mmap:9'

#define _GNU_SOURCE 1 // strerrorname_np
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// The wrappers of faults.c (libcacs's calls are renamed to them).
void *__wrap_malloc(size_t n);
int __wrap_eventfd(unsigned v, int fl);

static void say(const char *name, int i, int ok) {
  printf("%s %d: %s%s\n", name, i,
         ok ? "ok" : "fails: ", ok ? "" : strerrorname_np(errno));
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  for (int i = 1; i <= 3; i++) {
    void *p = __wrap_malloc(16);
    say("malloc", i, p != NULL);
    free(p);
  }
  for (int i = 1; i <= 2; i++) {
    int fd = __wrap_eventfd(0, 0);
    say("eventfd", i, fd >= 0);
    if (fd >= 0)
      close(fd);
  }
  return 0;
}
