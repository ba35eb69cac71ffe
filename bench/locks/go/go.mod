module cacs/bench/locks/go

go 1.19
