// Shared by the fault-injection programs (test/runtime/Inputs/faults-*.c,
// run by scripts/faults): report a failed call and count it.
#ifndef CACS_TEST_FAULTS_CHECK_H
#define CACS_TEST_FAULTS_CHECK_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

static _Atomic int handled;

// `ok`; if not, print "handled: WHAT: ERRNO" (the failure the program
// handles) and count it.
static int check(int ok, const char *what) {
  if (!ok) {
    printf("handled: %s: %s\n", what, strerrorname_np(errno));
    handled++;
  }
  return ok;
}

#endif // CACS_TEST_FAULTS_CHECK_H
