//===- lib/internal.h - libcacs private declarations ------------*- C -*-===//

#ifndef CACS_LIB_INTERNAL_H
#define CACS_LIB_INTERNAL_H

#include <signal.h>

// initial-exec: one %fs/tpidr_el0-relative access, valid in executables and
// in shared objects loaded at startup (libcacs is a static library).
#define CACS_TLS __thread __attribute__((tls_model("initial-exec")))
// The scheduler state read by cacs_yield: local-exec (the offset is a
// link-time constant: one instruction on x86-64), because libcacs is a static
// library linked into executables. -DCACS_TLS_INITIAL_EXEC (for the C and
// assembly sources alike) allows linking it into a shared object.
#ifdef CACS_TLS_INITIAL_EXEC
#define CACS_TLS_LE CACS_TLS
#else
#define CACS_TLS_LE __thread __attribute__((tls_model("local-exec")))
#endif

void cacs__segv_handler(int sig, siginfo_t *si, void *uc);

#if defined(__SANITIZE_ADDRESS__)
#define CACS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CACS_ASAN 1
#endif
#endif
#ifndef CACS_ASAN
#define CACS_ASAN 0
#endif
#if CACS_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#endif // CACS_LIB_INTERNAL_H
