// skynet on goroutines (bench/skynet/skynet_pool.c describes the workload
// and the protocol): -v sets GOMAXPROCS, the number of threads running Go
// code at once. Each child sends its sum on its parent's channel.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

func skynet(c chan<- uint64, num, size uint64) {
	if size == 1 {
		c <- num
		return
	}
	rc := make(chan uint64, 10)
	part := size / 10
	for i := uint64(0); i < 10; i++ {
		go skynet(rc, num+i*part, part)
	}
	var sum uint64
	for i := 0; i < 10; i++ {
		sum += <-rc
	}
	c <- sum
}

// The process's CPU time (every thread's), as the C variants take it.
func processCPU() uint64 {
	var ts syscall.Timespec
	const clockProcessCPUTimeID = 2
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID,
		uintptr(unsafe.Pointer(&ts)), 0)
	return uint64(ts.Sec)*1e9 + uint64(ts.Nsec)
}

func main() {
	n := flag.Uint64("n", 1000000, "leaves (a power of 10)")
	reps := flag.Int("r", 5, "repetitions")
	v := flag.String("v", "1", "workers (GOMAXPROCS)")
	flag.Parse()
	workers, err := strconv.Atoi(*v)
	if err != nil || workers < 1 {
		fmt.Fprintln(os.Stderr, "bad -v")
		os.Exit(64)
	}
	runtime.GOMAXPROCS(workers)
	var coros uint64
	for s := *n; s >= 1; s /= 10 {
		coros += *n / s
	}
	want := *n * (*n - 1) / 2
	ok := 1
	var cpu, wall []string
	var got uint64
	for r := 0; r < *reps; r++ {
		runtime.GC()
		c0, t0 := processCPU(), time.Now()
		c := make(chan uint64)
		go skynet(c, 0, *n)
		got = <-c
		t1, c1 := time.Now(), processCPU()
		if got != want {
			fmt.Fprintf(os.Stderr, "skynet/go: WRONG RESULT %d (expected %d)\n", got, want)
			ok = 0
		}
		cpu = append(cpu, strconv.FormatUint(c1-c0, 10))
		wall = append(wall, strconv.FormatInt(t1.Sub(t0).Nanoseconds(), 10))
	}
	fmt.Printf("WALL ns=%s\n", strings.Join(wall, ","))
	fmt.Printf("RESULT workload=skynet variant=go-%dw n=%d ops=%d checksum=%d ok=%d ns=%s\n",
		workers, *n, coros, got, ok, strings.Join(cpu, ","))
	if ok == 0 {
		os.Exit(2)
	}
}
