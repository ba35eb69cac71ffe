/* bench/apn_real: the configuration jansson's build would generate for
 * x86-64/AArch64 Linux with a C99 compiler (written for this benchmark; the
 * library's sources come from Debian's source package, see run.sh). */
#ifndef JANSSON_CONFIG_H
#define JANSSON_CONFIG_H
#include <stdint.h>
#define JSON_INLINE inline
/* Autotools' layout: jansson.h then picks long long itself. */
#define JSON_INTEGER_IS_LONG_LONG 1
#define JSON_HAVE_LOCALECONV 1
#define JSON_HAVE_ATOMIC_BUILTINS 1
#define JSON_HAVE_SYNC_BUILTINS 1
#define JSON_PARSER_MAX_DEPTH 2048
#endif
