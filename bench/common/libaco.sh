# libaco, the peer of bench/scale, bench/lifecycle and bench/stackbound,
# built from the libaco source tree LIBACO_DIR names (aco.c, acosw.S; not
# packaged, never vendored or fetched here) as its make.sh builds it, into
# one program with the benchmark's own sources, by the compiler CC:
#
#   . "$root/bench/common/libaco.sh"
#   libaco_build CC OUT SOURCES-AND-FLAGS...
libaco_build() {
  libaco_cc=$1
  libaco_out=$2
  shift 2
  "$libaco_cc" -O2 -I"$LIBACO_DIR" "$@" "$LIBACO_DIR/aco.c" \
    "$LIBACO_DIR/acosw.S" -Wl,-z,noexecstack -o "$libaco_out"
}
