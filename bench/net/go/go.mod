module cacs/bench/net/go

go 1.19
