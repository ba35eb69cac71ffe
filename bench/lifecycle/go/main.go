// The lifecycle benchmark (../lifecycle.h) on goroutines, GOMAXPROCS=1:
// a round starts ALIVE goroutines and waits for them on a WaitGroup.
// Same arguments and output keys; times are the process's CPU time (Go's
// runtime has threads of its own, which a thread's clock would miss).
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

var sum uint64

func cpuNs() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func rssKiB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			f := strings.Fields(l)
			v, _ := strconv.ParseInt(f[1], 10, 64)
			return v
		}
	}
	return -1
}

var mu sync.Mutex // uncontended at GOMAXPROCS=1; keeps the sum race-free

func body(wg *sync.WaitGroup, arg uint64) {
	mu.Lock()
	sum += arg
	mu.Unlock()
	wg.Done()
}

func round(alive int64) {
	sum = 0
	var wg sync.WaitGroup
	wg.Add(int(alive))
	for i := int64(0); i < alive; i++ {
		go body(&wg, uint64(i+1))
	}
	wg.Wait()
	check(alive)
}

func check(n int64) {
	if sum != uint64(n)*uint64(n+1)/2 {
		fmt.Fprintf(os.Stderr, "lifecycle: WRONG SUM %d\n", sum)
		os.Exit(2)
	}
}

func main() {
	runtime.GOMAXPROCS(1)
	mode := "steady"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	arg := func(i int, d int64) int64 {
		if len(os.Args) > i {
			v, _ := strconv.ParseInt(os.Args[i], 10, 64)
			return v
		}
		return d
	}
	switch mode {
	case "steady":
		alive, total := arg(2, 1), arg(3, 1000000)
		rounds := total / alive
		if rounds < 1 {
			rounds = 1
		}
		warm := int64(3)
		if alive < 1000 {
			warm = 1000 / alive
		}
		for w := int64(0); w < warm; w++ {
			round(alive)
		}
		ns := make([]float64, 5)
		for r := range ns {
			t0 := cpuNs()
			for k := int64(0); k < rounds; k++ {
				round(alive)
			}
			ns[r] = float64(cpuNs()-t0) / float64(rounds*alive)
		}
		s := append([]float64(nil), ns...)
		sort.Float64s(s)
		parts := make([]string, len(ns))
		for i, v := range ns {
			parts[i] = fmt.Sprintf("%.1f", v)
		}
		fmt.Printf("peer=go mode=steady alive=%d total=%d ns_median=%.1f ns=%s rss_kib=%d\n",
			alive, rounds*alive, s[2], strings.Join(parts, ","), rssKiB())
	case "first", "burst":
		n := arg(2, 100000)
		if mode == "burst" {
			for w := 0; w < 100; w++ {
				round(100)
			}
		}
		rss0 := rssKiB()
		sum = 0
		var wg sync.WaitGroup
		wg.Add(int(n))
		t0 := cpuNs()
		// Go has no "created, not run yet": with GOMAXPROCS=1 the new
		// goroutines wait in the run queue until main blocks in Wait.
		for i := int64(0); i < n; i++ {
			go body(&wg, uint64(i+1))
		}
		t1 := cpuNs()
		rss1 := rssKiB()
		wg.Wait()
		t2 := cpuNs()
		check(n)
		runtime.GC()
		rss2 := rssKiB()
		fmt.Printf("peer=go mode=%s n=%d create_ns=%.1f join_ns=%.1f total_ns=%.1f rss_before_kib=%d rss_peak_kib=%d rss_after_kib=%d rss_after_pct=%.1f",
			mode, n, float64(t1-t0)/float64(n), float64(t2-t1)/float64(n),
			float64(t2-t0)/float64(n), rss0, rss1, rss2,
			100*float64(rss2-rss0)/float64(rss0))
		if mode == "burst" {
			t3 := cpuNs()
			round(n)
			fmt.Printf(" again_ns=%.1f rss_again_kib=%d", float64(cpuNs()-t3)/float64(n), rssKiB())
		}
		fmt.Println()
	default:
		fmt.Fprintln(os.Stderr, "usage: lifecycle_go steady ALIVE TOTAL | first N | burst N")
		os.Exit(64)
	}
}
