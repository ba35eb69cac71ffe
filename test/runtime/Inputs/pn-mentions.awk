# Used by test/runtime/io-pool-pn.test: for each line of LLVM IR that
# mentions one of the pool's preserve_none I/O helpers, "<name> <how>
# cc=<pn|default>": how is define, declare, call (a call or invoke of it)
# or other (its address taken, an alias, ...).
{
  if (!match($0, /@cacs__(io_do_pool|io_connect_pool|pool_io_wait|pool_ring_wait)[^a-z_0-9]/))
    next
  name = substr($0, RSTART + 1, RLENGTH - 2)
  # AddressSanitizer's frame header records the function's address (its
  # use-after-return frames): a store, never a call.
  if ($0 ~ /store i64 ptrtoint \(ptr @cacs__[a-z_]+ to i64\)/)
    next
  cc = $0 ~ /preserve_nonecc/ ? "pn" : "default"
  if ($0 ~ /^define /)
    how = "define"
  else if ($0 ~ /^declare /)
    how = "declare"
  else if ($0 ~ /(call|invoke) [^@]*@cacs__[a-z_]+\(/ && index($0, "@" name "("))
    how = "call"
  else
    how = "other"
  print name, how, "cc=" cc
}
