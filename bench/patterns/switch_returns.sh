#!/bin/sh
# The switch returns (issue 35) measured: every pattern of this directory on
# libcacs with them (pat_cacs), without them (pat_cacs_ret, built with
# -fno-switch-returns), the inline switch (pat_asm) and Boost jump_fcontext
# (pat_boost), in ROUNDS interleaved rounds pinned to one CPU. Each run takes
# the median of its repetitions; the table gives the median over the rounds
# in ns per switch, and the ratios of the same run.
#
#   [PATS="pingpong chain ..."] bench/patterns/switch_returns.sh BENCH_DIR [ROUNDS] [CPU] [N]
#
# BENCH_DIR holds the pat_* binaries (build/bench). Prints `uptime` first:
# the figures mean little on a loaded machine.
set -eu
dir=$1
rounds=${2:-7}
cpu=${3:-1}
n=${4:-2000000}
bins="pat_cacs pat_cacs_ret pat_asm pat_boost"
pats=${PATS:-"pingpong handler nest1 nest2 nest3 nest4 nest5 chain pipeline ring10 \
ring100 server server-hinted"}
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
echo "load before: $(uptime)"
r=1
while [ "$r" -le "$rounds" ]; do
  for p in $pats; do
    for b in $bins; do
      [ -x "$dir/$b" ] || continue
      line=$(taskset -c "$cpu" "$dir/$b" -v "$p" -n "$n" -r 3 | grep '^RESULT')
      echo "$b $p $line" >> "$raw"
    done
  done
  r=$((r + 1))
done
echo "load after: $(uptime)"
# ns per switch of each run: the median of its repetitions over ops.
awk '
function med(a, k,   i, j, t) {
  for (i = 2; i <= k; i++)
    for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
      t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
    }
  return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
{
  bin = $1; pat = $2; ops = 0; ns = ""
  for (i = 3; i <= NF; i++) {
    if ($i ~ /^ops=/) ops = substr($i, 5)
    if ($i ~ /^ns=/) ns = substr($i, 4)
    if ($i ~ /^ok=0/) bad[bin, pat] = 1
  }
  k = split(ns, v, ",")
  delete w
  for (i = 1; i <= k; i++) w[i] = v[i] / ops
  c = ++cnt[bin, pat]
  run[bin, pat, c] = med(w, k)
  if (!(pat in seen)) { seen[pat] = 1; order[++np] = pat }
}
END {
  split("pat_cacs pat_cacs_ret pat_asm pat_boost", B, " ")
  printf "| pattern | cacs | cacs -fno-switch-returns | inline switch | Boost | ret/cacs | cacs/inline | Boost/cacs |\n"
  printf "|---|---|---|---|---|---|---|---|\n"
  for (q = 1; q <= np; q++) {
    p = order[q]
    for (b = 1; b <= 4; b++) {
      k = cnt[B[b], p]
      delete w
      for (i = 1; i <= k; i++) w[i] = run[B[b], p, i]
      m[b] = k ? med(w, k) : 0
    }
    printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2fx | %.2fx | %.2fx |\n", p,
      m[1], m[2], m[3], m[4], m[1] ? m[2] / m[1] : 0, m[3] ? m[1] / m[3] : 0,
      m[1] ? m[4] / m[1] : 0
  }
}' "$raw"
