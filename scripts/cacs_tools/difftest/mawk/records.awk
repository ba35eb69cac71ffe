# Record processing: field splitting with FS and RS regexes, NR/NF/$0
# rebuilding, associative counting sorted through sort(1), printf reports.
BEGIN { FS = "[ \t]*[,;][ \t]*"; OFS = "|" }
NR == 1 { ncols = NF; next }
{
  $1 = toupper(substr($1, 1, 1)) substr($1, 2)
  total[$2] += $3; count[$2]++; if ($3 > max[$2]) { max[$2] = $3; who[$2] = $1 }
  $(NF + 1) = NR; line[NR] = $0
}
END {
  print "columns", ncols, "records", NR
  for (k in total) printf "%-8s %4d %8.2f %6.2f %s\n", k, count[k], total[k], total[k] / count[k], who[k] | "sort"
  close("sort")
  for (i = 2; i <= NR; i += 7) print line[i]
  RS = ""; FS = "\n"
  while ((getline rec < ARGV[1]) > 0) n++
  print "paragraph reads", n
}
