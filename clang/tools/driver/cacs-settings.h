/*===- cacs-settings.h - The cacs settings, in the translation unit -------===*
 *
 * Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
 *
 *===----------------------------------------------------------------------===*
 *
 * The front door includes this file first in every compile that has a cacs
 * flag, with macros that say what the settings are. It puts them into the
 * translation unit, so that tools which only look at the preprocessed source
 * see them:
 *  - "#pragma cacs settings" names the cacs build and a digest of the flags
 *    and of the preserve-none lists' text: preprocessor-mode caches (ccache,
 *    sccache) hash it, and the front door compares it with its own when it
 *    compiles a preprocessed file (distcc's server) and refuses a mismatch;
 *  - a line marker names each list file as the command line does, so that
 *    ccache's direct mode hashes the list like an included header.
 * Clang ignores the pragma; it is wrapped so that -Wunknown-pragmas is quiet.
 * __CACS_SETTINGS is _Pragma("cacs settings ..."), from the command line.
 *
 *===----------------------------------------------------------------------===*/
#ifndef __ASSEMBLER__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-pragmas"
__CACS_SETTINGS
#ifdef __CACS_LIST_1
#line 1 __CACS_LIST_1
#endif
#ifdef __CACS_LIST_2
#line 1 __CACS_LIST_2
#endif
#ifdef __CACS_LIST_3
#line 1 __CACS_LIST_3
#endif
#ifdef __CACS_LIST_4
#line 1 __CACS_LIST_4
#endif
#ifdef __CACS_LIST_5
#line 1 __CACS_LIST_5
#endif
#ifdef __CACS_LIST_6
#line 1 __CACS_LIST_6
#endif
#ifdef __CACS_LIST_7
#line 1 __CACS_LIST_7
#endif
#ifdef __CACS_LIST_8
#line 1 __CACS_LIST_8
#endif
#ifdef __CACS_LIST_9
#line 1 __CACS_LIST_9
#endif
#ifdef __CACS_LIST_10
#line 1 __CACS_LIST_10
#endif
#ifdef __CACS_LIST_11
#line 1 __CACS_LIST_11
#endif
#ifdef __CACS_LIST_12
#line 1 __CACS_LIST_12
#endif
#ifdef __CACS_LIST_13
#line 1 __CACS_LIST_13
#endif
#ifdef __CACS_LIST_14
#line 1 __CACS_LIST_14
#endif
#ifdef __CACS_LIST_15
#line 1 __CACS_LIST_15
#endif
#ifdef __CACS_LIST_16
#line 1 __CACS_LIST_16
#endif
#pragma clang diagnostic pop
#endif
