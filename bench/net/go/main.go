// The bench/net server in Go (net package, one goroutine per connection),
// with the options and the work of net_common.h. Run with GOMAXPROCS=1.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net"
	"os"
)

const (
	msgSize = 512   // NET_MSG
	bufSize = 16384 // NET_BUF
)

var response = []byte("HTTP/1.1 200 OK\r\n" +
	"Server: cacs-bench\r\n" +
	"Content-Type: text/plain\r\n" +
	"Content-Length: 13\r\n" +
	"\r\n" +
	"Hello, world!")

var (
	httpMode bool
	maxReq   uint64
	served   uint64 // echo: bytes; http: requests (one thread: GOMAXPROCS=1)
)

func count(units uint64) {
	served += units
	if maxReq == 0 {
		return
	}
	reqs := served
	if !httpMode {
		reqs /= msgSize
	}
	if reqs >= maxReq {
		os.Exit(0)
	}
}

// httpStep answers the complete requests at the start of in (at most what
// fits in out); it returns the bytes of out to send and of in consumed.
func httpStep(in, out []byte) (int, int, bool) {
	n, pos := 0, 0
	for (n+1)*len(response) <= len(out) {
		end := bytes.Index(in[pos:], []byte("\r\n\r\n"))
		if end < 0 {
			break
		}
		req := in[pos : pos+end+2]
		eol := bytes.Index(req, []byte("\r\n"))
		sp := bytes.IndexByte(req[:eol], ' ')
		if sp <= 0 || eol < 14 || !bytes.HasPrefix(req[eol-8:], []byte("HTTP/1.")) {
			return 0, 0, false
		}
		copy(out[n*len(response):], response)
		n++
		pos += end + 4
	}
	count(uint64(n))
	return n * len(response), pos, true
}

func serve(c net.Conn) {
	defer c.Close()
	in := make([]byte, bufSize)
	out := make([]byte, bufSize)
	have := 0
	for {
		r, err := c.Read(in[have:])
		if err != nil || r == 0 {
			return
		}
		if !httpMode {
			count(uint64(r))
			if _, err := c.Write(in[:r]); err != nil {
				return
			}
			continue
		}
		have += r
		w, used, ok := httpStep(in[:have], out)
		if !ok {
			return
		}
		have = copy(in, in[used:have])
		if have == len(in) {
			return
		}
		if w > 0 {
			if _, err := c.Write(out[:w]); err != nil {
				return
			}
		}
	}
}

func main() {
	port := flag.Int("p", 0, "port")
	mode := flag.String("m", "echo", "echo|http")
	flag.Uint64Var(&maxReq, "x", 0, "exit after this many requests")
	flag.Parse()
	httpMode = *mode == "http"
	l, err := net.Listen("tcp4", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for {
		c, err := l.Accept()
		if err != nil {
			continue
		}
		go serve(c)
	}
}
