// The lock benchmark of bench/locks/locks.h in Go: one goroutine per task,
// GOMAXPROCS = workers, sync.Mutex (or sync.RWMutex for -W; with -k counter
// and -u UNITS a buffered channel of UNITS slots as the semaphore, Go's
// idiom; with -k chan a channel of capacity -u; with -k cond a queue of -u
// slots behind a sync.Mutex and two sync.Cond, not-empty and not-full,
// which idiomatic Go would write as a channel: -k chan). Same task, same
// map, same padding and sieve, same output line.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

const mapSlots = 8192

var (
	keys     [mapSlots]uint32
	vals     [mapSlots]uint64
	inserts  uint64
	primes   []uint32
	padIters uint64
	padSink  uint64
)

//go:noinline
func pad(iters uint64) uint64 {
	x := iters
	for i := uint64(0); i < iters; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// padRate is locks.h's lk_pad_rate: the best of 21 timed runs after 20 ms of
// warming up (the first runs, while the runtime starts its threads, are up to
// 1.5x slower than the loop's steady speed).
func padRate() float64 {
	const it = 200000
	for t0 := time.Now(); time.Since(t0) < 20*time.Millisecond; {
		padSink += pad(it)
	}
	best := 1e30
	for r := 0; r < 21; r++ {
		t0 := time.Now()
		padSink += pad(it)
		if d := float64(time.Since(t0).Nanoseconds()); d < best {
			best = d
		}
	}
	return it / best
}

func sieve(p uint32, bits *[8192]uint8) int {
	for i := uint32(0); i < (p+7)/8; i++ {
		bits[i] = 0
	}
	n := 0
	for i := uint32(2); i < p; i++ {
		if bits[i>>3]&(1<<(i&7)) != 0 {
			continue
		}
		n++
		for j := i * i; j < p; j += i {
			bits[j>>3] |= 1 << (j & 7)
		}
	}
	return n
}

func csWrite(p uint32) {
	h := (p * 2654435761) & (mapSlots - 1)
	for keys[h] != 0 && keys[h] != p {
		h = (h + 1) & (mapSlots - 1)
	}
	keys[h] = p
	vals[h]++
	inserts++
	if padIters != 0 {
		padSink += pad(padIters)
	}
}

// The counter shape (bench/locks/locks.h, -k counter).
var table [16]uint64

func csCounter() {
	for k := range table {
		table[k]++
	}
	inserts++
	if padIters != 0 {
		padSink += pad(padIters)
	}
}

//go:noinline
func outside(x uint64) uint64 {
	for k := 0; k < 20; k++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// The counter shape's read side (-W): every slot of the array alike.
func csCounterRead() bool {
	v := table[0]
	ok := true
	for k := 1; k < len(table); k++ {
		ok = ok && table[k] == v
	}
	if padIters != 0 {
		pad(padIters)
	}
	return ok
}

// The semaphore's section (-u): at most `units` inside, each updating its
// own array.
var inside, atomicInserts int64

func csSem(own *[16]uint64, units int64) bool {
	ok := atomic.AddInt64(&inside, 1) <= units
	for k := range own {
		own[k]++
	}
	atomic.AddInt64(&atomicInserts, 1)
	if padIters != 0 {
		pad(padIters)
	}
	atomic.AddInt64(&inside, -1)
	return ok
}

func csRead(p uint32) bool {
	h := (p * 2654435761) & (mapSlots - 1)
	for keys[h] != 0 && keys[h] != p {
		h = (h + 1) & (mapSlots - 1)
	}
	k := keys[h]
	if padIters != 0 {
		pad(padIters)
	}
	return k == 0 || k == p
}

// An item's hash (-k chan, cond; locks.h, lk_item_hash): summed on both
// sides, so that a lost item and a duplicated one do not cancel out.
func itemHash(v uint64) uint64 {
	v ^= v >> 30
	v *= 0xbf58476d1ce4e5b9
	v ^= v >> 27
	v *= 0x94d049bb133111eb
	return v ^ (v >> 31)
}

// The bounded queue of -k cond, its mutex held.
type ring struct {
	buf         []uint64
	head, count int
	bad         bool
}

func (r *ring) put(v uint64) {
	r.bad = r.bad || r.count >= len(r.buf)
	r.buf[(r.head+r.count)%len(r.buf)] = v
	r.count++
}

func (r *ring) get() uint64 {
	r.bad = r.bad || r.count == 0
	v := r.buf[r.head]
	r.head = (r.head + 1) % len(r.buf)
	r.count--
	return v
}

type task struct {
	idx                     int
	seed                    uint64
	done, writes, bad, sink uint64
}

func (t *task) rand() uint32 {
	x := t.seed
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	t.seed = x
	return uint32(x >> 32)
}

func main() {
	workers := flag.Int("w", 1, "workers (GOMAXPROCS)")
	tasks := flag.Int("t", 5000, "tasks (goroutines)")
	csNs := flag.Float64("c", 0, "critical-section padding, ns")
	windowMs := flag.Float64("d", 1000, "window, ms")
	writersPct := flag.Float64("W", -1, "reader-writer variant: writers in percent")
	limit := flag.Int("s", 4096, "primes from [LIMIT/2, LIMIT)")
	shape := flag.String("k", "fig8", "fig8, counter, chan or cond (bench/locks/locks.h)")
	itersFlag := flag.Int64("n", 0, "counter: lock pairs per task")
	timedMs := flag.Float64("T", 0, "counter: a timed run of MS ms from a start gate (locks.h)")
	units := flag.Int("u", 0, "counter: semaphore units (0: a lock); chan: capacity")
	perNs := flag.Float64("p", 0, "padding iterations per ns (0: calibrate here; locks.h)")
	flag.Parse()
	isCond := *shape == "cond"
	isChan := *shape == "chan" || isCond
	counter := *shape == "counter" || isChan
	if !counter && *shape != "fig8" {
		fmt.Fprintln(os.Stderr, "locks: -k must be fig8, counter, chan or cond")
		os.Exit(64)
	}
	if *units < 0 || (*units > 0 && (!counter || *writersPct >= 0)) ||
		(isChan && (*writersPct >= 0 || *tasks < 2 || *tasks%2 != 0)) ||
		(isCond && *units < 1) || *timedMs < 0 || (*timedMs > 0 && *shape != "counter") {
		fmt.Fprintln(os.Stderr, "locks: bad -u / -k chan combination")
		os.Exit(64)
	}
	iters := *itersFlag
	if counter && iters == 0 {
		cs := *csNs
		if cs < 50 {
			cs = 50
		}
		n := 1.5e9 / float64(*tasks) / cs
		switch {
		case n >= 20000:
			iters = 20000
		case n < 100:
			iters = 100
		default:
			iters = int64(n)
		}
	}
	if *limit > 65536 || *limit < 64 {
		fmt.Fprintln(os.Stderr, "locks: -s must be in [64, 65536]")
		os.Exit(64)
	}
	writers := -1
	if *writersPct >= 0 {
		writers = int(*writersPct*100 + 0.5)
	}
	runtime.GOMAXPROCS(*workers)
	comp := make([]bool, *limit)
	for i := 2; i < *limit; i++ {
		if comp[i] {
			continue
		}
		if i >= *limit/2 {
			primes = append(primes, uint32(i))
		}
		for j := 2 * i; j < *limit; j += i {
			comp[j] = true
		}
	}
	rate := *perNs
	if rate <= 0 {
		rate = padRate()
	}
	padIters = uint64(*csNs*rate + 0.5)

	var mu sync.Mutex
	var rw sync.RWMutex
	sem := make(chan struct{}, *units)
	ch := make(chan uint64, *units)
	q := ring{buf: make([]uint64, *units)}
	notEmpty, notFull := sync.NewCond(&mu), sync.NewCond(&mu)
	var received uint64
	// -T: the start gate (locks.h, LK_GATE) and each task's end.
	var arrived, open int64
	var gateStart time.Time
	var deadline int64 // ns since gateStart
	timed := time.Duration(*timedMs * 1e6)
	ends := make([]time.Duration, *tasks)
	ts := make([]task, *tasks)
	start := time.Now()
	window := time.Duration(*windowMs * 1e6)
	var wg sync.WaitGroup
	for i := range ts {
		ts[i].seed = 0x9e3779b97f4a7c15 * uint64(i+1)
		ts[i].idx = i
		wg.Add(1)
		if isChan {
			// Even goroutines send, odd ones receive (locks.h, LK_CHAN_LOOP),
			// each item its own.
			go func(t *task, me uint64, send bool) {
				defer wg.Done()
				x, sum := t.seed, uint64(0)
				for i := int64(0); i < iters; i++ {
					if send {
						x = outside(x)
						v := me<<32 | uint64(i+1)
						if isCond {
							mu.Lock()
							for q.count == len(q.buf) {
								notFull.Wait()
							}
							q.put(v)
							notEmpty.Signal()
							mu.Unlock()
						} else {
							ch <- v
						}
						sum += itemHash(v)
					} else {
						var v uint64
						if isCond {
							mu.Lock()
							for q.count == 0 {
								notEmpty.Wait()
							}
							v = q.get()
							notFull.Signal()
							mu.Unlock()
						} else {
							v = <-ch
						}
						sum += itemHash(v)
						x = outside(x)
					}
				}
				if send {
					t.writes = sum
					t.done = uint64(iters)
				} else {
					atomic.AddUint64(&received, sum)
				}
				t.sink += x
			}(&ts[i], uint64(i), i%2 == 0)
			continue
		}
		if counter {
			go func(t *task) {
				defer wg.Done()
				x := t.seed
				var own [16]uint64
				n := iters
				if timed > 0 {
					n = 1 << 62
					if atomic.AddInt64(&arrived, 1) == int64(len(ts)) {
						gateStart = time.Now()
						deadline = int64(timed)
						atomic.StoreInt64(&open, 1)
					}
					for atomic.LoadInt64(&open) == 0 {
						runtime.Gosched()
					}
				}
				i := int64(0)
				for ; i < n; i++ {
					if *units > 0 {
						sem <- struct{}{}
						if !csSem(&own, int64(*units)) {
							t.bad++
						}
						<-sem
						t.writes++
					} else if writers < 0 || int(t.rand()%10000) < writers {
						if writers < 0 {
							mu.Lock()
							csCounter()
							mu.Unlock()
						} else {
							rw.Lock()
							csCounter()
							rw.Unlock()
						}
						t.writes++
					} else {
						rw.RLock()
						ok := csCounterRead()
						rw.RUnlock()
						if !ok {
							t.bad++
						}
					}
					x = outside(x)
					if timed > 0 && i&15 == 0 {
						if d := time.Since(gateStart); int64(d) >= deadline {
							ends[t.idx] = d
							i++
							break
						}
					}
				}
				t.sink += x + own[0]
				t.done = uint64(i)
			}(&ts[i])
			continue
		}
		go func(t *task) {
			defer wg.Done()
			var bits [8192]uint8
			for {
				p := primes[t.rand()%uint32(len(primes))]
				if writers < 0 {
					mu.Lock()
					csWrite(p)
					mu.Unlock()
					t.writes++
				} else if int(t.rand()%10000) < writers {
					rw.Lock()
					csWrite(p)
					rw.Unlock()
					t.writes++
				} else {
					rw.RLock()
					ok := csRead(p)
					rw.RUnlock()
					if !ok {
						t.bad++
					}
				}
				t.sink += uint64(sieve(p, &bits))
				if time.Since(start) >= window {
					break
				}
				t.done++
			}
		}(&ts[i])
	}
	wg.Wait()
	var ops, writes, bad, mapsum uint64
	for i := range ts {
		ops += ts[i].done
		writes += ts[i].writes
		bad += ts[i].bad
	}
	for i := range vals {
		mapsum += vals[i]
	}
	secs := *windowMs / 1e3
	if counter {
		secs = time.Since(start).Seconds()
		if timed > 0 { // from the gate to the last task's end
			var end time.Duration
			for _, e := range ends {
				if e > end {
					end = e
				}
			}
			secs = end.Seconds()
		}
		mapsum = writes
		for k := range table {
			if table[k] != writes && !isChan && *units == 0 {
				mapsum = 0
			}
		}
		if isChan {
			inserts = received
		} else if *units > 0 {
			inserts = uint64(atomicInserts)
		}
	}
	ok := writes == inserts && writes == mapsum && bad == 0 && !q.bad
	w := "-"
	impl := "go_mutex"
	if isCond {
		impl = "go_cond"
	} else if isChan {
		impl = "go_chan"
	} else if *units > 0 {
		impl = "go_chansem"
	} else if writers >= 0 {
		w = fmt.Sprint(float64(writers) / 100)
		impl = "go_rwmutex"
	}
	okn := 0
	if ok {
		okn = 1
	}
	fmt.Printf("RESULT impl=%s shape=%s workers=%d tasks=%d cs_ns=%g writers=%s secs=%.3f ops=%d mops=%.4f ok=%d\n",
		impl, *shape, *workers, *tasks, *csNs, w, secs, ops, float64(ops)/secs/1e6, okn)
	if !ok {
		fmt.Fprintf(os.Stderr, "locks: %s: check failed: writes %d, counter %d, map %d, bad reads %d\n",
			impl, writes, inserts, mapsum, bad)
		os.Exit(2)
	}
}
