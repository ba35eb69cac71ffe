#!/bin/sh
# The handler pattern's calls by jump made by hand (issue 35), beside the
# compiler's: pat_site_hand is pat_cacs_site with hd_a.c and hd_b.c built
# with -mllvm -cacs-calls-by-jump=false and each `callq hd_*` of their
# assembly rewritten into `leaq 1f(%rip),%r11; pushq %r11; jmp hd_*; 1:`
# (the edit session 41 timed at 1.27x the ping-pong). Session 42 found the
# two handlers' instructions identical (the diff below prints nothing but
# labels), so a time difference between pat_cacs_site and pat_site_hand is
# the layout's, not the code's.
#
#   bench/patterns/handler_hand.sh BUILD_DIR
#
# needs BUILD_DIR/bench/pat_cacs_site (ninja -C BUILD_DIR bench-pat_cacs_site);
# writes BUILD_DIR/bench/pat_site_hand.
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
objs="$build/bench/patterns/cacs_site"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-O2 -fauto-preserve-none -I$here -I$root/bench/common -I$root/runtime/include -DRT_CACS -fswitch-site-jumps -DRT_CACS_SITE_JUMPS"
for f in hd_a hd_b; do
  # shellcheck disable=SC2086
  "$build/bin/clang" $flags -mllvm -cacs-calls-by-jump=false -S "$here/$f.c" -o "$work/$f.nocj.s"
  # shellcheck disable=SC2086
  "$build/bin/clang" $flags -S "$here/$f.c" -o "$work/$f.cj.s"
  awk '/^\tcallq\thd_/ { n++; sub(/^\tcallq\t/, "")
         print "\tleaq\t.Lhand" n "(%rip), %r11\n\tpushq\t%r11\n\tjmp\t" $0 "\n.Lhand" n ":"
         next }
       { print }' "$work/$f.nocj.s" > "$work/$f.s"
  echo "$f: the compiler's against the hand-made, instructions only:"
  strip_asm() {
    sed 's/#.*//; s/\.L[a-z]*[0-9]*/L/g' "$1" | grep -v '^\s*\.cfi\|^L:\|^\s*$'
  }
  strip_asm "$work/$f.s" > "$work/$f.hand.txt"
  strip_asm "$work/$f.cj.s" > "$work/$f.cj.txt"
  diff "$work/$f.hand.txt" "$work/$f.cj.txt" || true
  "$build/bin/clang" -c "$work/$f.s" -o "$work/$f.o"
done
set --
for o in "$objs"/*.o; do
  case $o in */hd_a.o | */hd_b.o) ;; *) set -- "$@" "$o" ;; esac
done
"$build/bin/clang++" "$@" "$work/hd_a.o" "$work/hd_b.o" \
  "$build/runtime/x86_64/libcacs.a" -o "$build/bench/pat_site_hand"
echo "wrote $build/bench/pat_site_hand"
