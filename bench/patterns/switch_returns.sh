#!/bin/sh
# The switch returns and the switch sites (issue 35) measured: every pattern
# of this directory on libcacs with the switch returns (pat_cacs), without
# them (pat_cacs_ret, built with -fno-switch-returns), with switch sites
# (pat_cacs_site, -fswitch-site-jumps), the inline switch (pat_asm) and
# Boost jump_fcontext (pat_boost), in ROUNDS interleaved rounds pinned to
# one CPU. Each run takes the median of its repetitions (STAT=best: the
# smallest); the table gives the median over the rounds in ns per switch
# [smallest..largest over the rounds], each libcacs binary's ratio to the
# inline switch and Boost's to it, all of the same run.
#
#   [PATS="pingpong chain ..."] [BINS="pat_cacs pat_asm ..."] [STAT=best]
#   [RAW=file] [CG=1] bench/patterns/switch_returns.sh BENCH_DIR [ROUNDS] [CPU] [N]
#
# BENCH_DIR holds the pat_* binaries (build/bench); RAW keeps each run's
# RESULT line. CG=1 adds the instructions per switch of each, from callgrind:
# the difference of runs with 200,000 and 400,000 switches. Prints `uptime` first and last: the figures mean little on a
# loaded machine.
set -eu
dir=$1
rounds=${2:-7}
cpu=${3:-1}
n=${4:-2000000}
bins=${BINS:-"pat_cacs pat_cacs_ret pat_cacs_site pat_asm pat_boost"}
pats=${PATS:-"pingpong handler waits nest1 nest2 nest3 nest4 nest5 chain pipeline ring10 \
ring100 server server-hinted"}
stat=${STAT:-median}
raw=${RAW:-$(mktemp)}
[ -n "${RAW:-}" ] || trap 'rm -f "$raw"' EXIT
: > "$raw"
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
# ns per switch of each run: the median (or smallest) of its repetitions.
awk -v bins="$bins" -v stat="$stat" '
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
  m0 = med(w, k)
  run[bin, pat, c] = stat == "best" ? w[1] : m0
  if (!(pat in seen)) { seen[pat] = 1; order[++np] = pat }
}
END {
  nb = split(bins, B, " ")
  head = "| pattern"; rule = "|---"
  for (b = 1; b <= nb; b++) { head = head " | " B[b]; rule = rule "|---" }
  for (b = 1; b <= nb; b++)
    if (B[b] ~ /^pat_cacs/) {
      head = head " | " B[b] "/asm | boost/" B[b]; rule = rule "|---|---"
    }
  print head " |"; print rule "|"
  for (q = 1; q <= np; q++) {
    p = order[q]; line = "| " p
    for (b = 1; b <= nb; b++) {
      k = cnt[B[b], p]
      delete w
      for (i = 1; i <= k; i++) w[i] = run[B[b], p, i]
      m[B[b]] = k ? med(w, k) : 0
      line = line (k ? sprintf(" | %.2f [%.2f..%.2f]%s", m[B[b]], w[1], w[k],
                               bad[B[b], p] ? " WRONG" : "") : " | -")
    }
    for (b = 1; b <= nb; b++)
      if (B[b] ~ /^pat_cacs/)
        line = line sprintf(" | %s | %s",
          m[B[b]] && m["pat_asm"] ? sprintf("%.2fx", m[B[b]] / m["pat_asm"]) : "-",
          m[B[b]] && m["pat_boost"] ? sprintf("%.2fx", m["pat_boost"] / m[B[b]]) : "-")
    print line " |"
  }
}' "$raw"
[ -n "${CG:-}" ] || exit 0
# Instructions per switch: (Ir(2n) - Ir(n)) / (ops(2n) - ops(n)).
echo
echo "instructions per switch (callgrind)"
for p in $pats; do
  line="| $p"
  for b in $bins; do
    [ -x "$dir/$b" ] || { line="$line | -"; continue; }
    cg() {
      valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$dir/$b" -v "$p" -n "$1" -r 1 2>&1 |
        awk '/Collected :/ { ir = $NF } /^RESULT/ { for (i = 1; i <= NF; i++)
          if ($i ~ /^ops=/) ops = substr($i, 5) } END { print ir, ops }'
    }
    set -- $(cg 200000) $(cg 400000)
    line="$line | $(awk -v a="$1" -v o="$2" -v b="$3" -v q="$4" \
      'BEGIN { printf "%.1f", (b - a) / (q - o) }')"
  done
  echo "$line |"
done
