# Fields, arrays (their keys sorted with qsort by the loops below),
# user-defined functions and recursion, printf with many formats (a
# variadic formatter), string functions, regular expressions (a bad one
# makes mawk's regex compiler longjmp out), getline, pipes and conversions.
function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) }
function fib(n,   a, b, t, i) { a = 0; b = 1; for (i = 0; i < n; i++) { t = a + b; a = b; b = t } return a }
function hanoi(n, from, to, via) {
  if (n == 0) return 0
  return hanoi(n - 1, from, via, to) + 1 + hanoi(n - 1, via, to, from)
}
function join(a, n, sep,   s, i) { s = a[1]; for (i = 2; i <= n; i++) s = s sep a[i]; return s }
function qsort_(A, left, right,   i, last, t) {
  if (left >= right) return
  t = A[left]; A[left] = A[int((left + right) / 2)]; A[int((left + right) / 2)] = t
  last = left
  for (i = left + 1; i <= right; i++)
    if (A[i] < A[left]) { last++; t = A[last]; A[last] = A[i]; A[i] = t }
  t = A[left]; A[left] = A[last]; A[last] = t
  qsort_(A, left, last - 1); qsort_(A, last + 1, right)
}
BEGIN {
  srand(12345)
  for (i = 0; i <= 20; i++) printf "%d! = %.0f; fib %d; hanoi %d\n", i, fact(i), fib(i * 3), hanoi(i % 12, 1, 3, 2)
  printf "%5d|%-5d|%05.1f|%e|%g|%G|%x|%X|%o|%c|%c|%10.3s|%-8s|%%|%+d|% d\n", 42, -42, 3.14159, 12345.678, 0.0001234, 1e20, 255, 255, 8, 65, "hello", "abcdef", "left", 5, 7
  printf "%s %s %s %s %s %s %s %s %s %s %s %s\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
  x = sprintf("%*d|%-*.*f", 6, 7, 10, 3, 2.71828); print x
  s = "The quick brown fox jumps over the lazy dog"
  n = split(s, w, " "); print n, w[1], w[n], length(s), index(s, "fox"), substr(s, 5, 5), toupper(substr(s, 1, 9)), tolower("MiXeD")
  t = s; print gsub(/o/, "0", t), t
  t = s; print sub(/[a-z]+/, "<&>", t), t
  print match(s, /b[a-z]+n/), RSTART, RLENGTH
  print "a.b.c" ~ /^a\.b\.c$/, "abc" ~ "^a.c$", "xyz" !~ /y/
  n = split("2024-01-15T10:20:30", d, /[-T:]/); print n, d[1] + 0, d[6] * 2
  for (i = 1; i <= 200; i++) cnt[i % 17] += i
  for (k in cnt) keys[++nk] = k
  qsort_(keys, 1, nk); print join(keys, nk, ",")
  for (i = 1; i <= nk; i++) printf "%s:%d ", keys[i], cnt[keys[i]]; print ""
  m[1, "a"] = 1; m[2, "b"] = 2; for (k in m) { split(k, p, SUBSEP); tot += p[1] } print tot, ((1, "a") in m), ((3, "c") in m)
  delete m[1, "a"]; print length(m)
  print 1e6, 1e16, 123456789012, 0.1 + 0.2, 1 / 3, -0, 017, "3x" + 1, "0x1A" + 0, 2 ^ 10, 2 ^ 0.5, 7 % 3, -7 % 3
  OFMT = "%.2f"; print 3.14159; CONVFMT = "%.3f"; y = 2.71828 ""; print y
  print length(12345), length(""), substr("hello", 0), substr("hello", -1, 3), substr("hello", 2, 100)
  print int(-3.7), int(3.7), sqrt(16), exp(0), log(1), sin(0), cos(0), atan2(0, -1)
  r1 = rand(); r2 = rand(); srand(12345); print (rand() == r1), (rand() == r2)
  # A regular expression built at run time that does not compile: mawk
  # reports it and exits 2 (rexp.c longjmps out of its compiler).
  while (("echo c b a | tr ' ' '\\n' | sort" | getline line) > 0) printf "[%s]", line; print ""
  close("echo c b a | tr ' ' '\\n' | sort")
  print "z\ny\nx" | "sort"; close("sort")
  bad = "a(b"
  print "before the bad regex"
  print ("ab" ~ bad)
  print "not reached"
}
