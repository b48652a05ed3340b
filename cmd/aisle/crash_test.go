package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// crashRounds is how many times the crash tests (of writes and of
// events) kill the server: 5 by default (CI), 20 for the full run the
// README names: go test ./cmd/aisle -run TestCrash -crash.rounds=20.
var crashRounds = flag.Int("crash.rounds", 5, "TestCrashKeepsAnsweredWrites and TestCrashKeepsAnsweredEvents: SIGKILL rounds")

// crashBatch is how many products each write of the crash test holds.
const crashBatch = 10

// TestCrashKeepsAnsweredWrites: the writes' crash test. A child aisle serve
// takes a stream of writes through the admin API, new batches of products
// and price updates of them in turn (column writes, replayed from the log
// at a restart), and is killed with SIGKILL at a random moment, round
// after round on one directory. After each restart every write answered
// 2xx is there whole, the write in flight at the kill whole or not at
// all (a batch is one log entry), nothing else changed, and searches
// answer.
func TestCrashKeepsAnsweredWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills a server process: not in -short")
	}
	data := shopDir(t)
	r := rand.New(rand.NewPCG(9, uint64(*crashRounds)))
	var acked, inFlight []string // batch words
	prices := map[string]int{}   // batch word → the price an answered update set
	var flightPrice *priceWrite  // the price update in flight at the kill
	total := -1                  // products in the catalog, once known
	for round := 0; round <= *crashRounds; round++ {
		c := startChild(t, data)
		// Everything before the kill: answered batches whole, the one in
		// flight whole or absent.
		n := c.total(t, "*")
		for _, w := range acked {
			if got := c.total(t, w); got != crashBatch {
				t.Fatalf("round %d: answered batch %s finds %d products, want %d", round, w, got, crashBatch)
			}
		}
		landed := 0
		for _, w := range inFlight {
			switch got := c.total(t, w); got {
			case crashBatch:
				landed++
			case 0:
			default:
				t.Fatalf("round %d: the batch in flight at the kill, %s, is half applied: %d of %d products", round, w, got, crashBatch)
			}
		}
		for w, p := range prices {
			if got := c.totalWhere(t, w, p); got != crashBatch {
				t.Fatalf("round %d: the answered price update of %s to %d finds %d products at that price, want %d", round, w, p, got, crashBatch)
			}
		}
		if pw := flightPrice; pw != nil {
			switch got := c.totalWhere(t, pw.word, pw.price); got {
			case crashBatch:
				prices[pw.word] = pw.price
			case 0:
			default:
				t.Fatalf("round %d: the price update in flight at the kill is half applied: %d of %d products at %d", round, got, crashBatch, pw.price)
			}
		}
		if total >= 0 && n != total+crashBatch*landed {
			t.Fatalf("round %d: %d products after the restart, want %d and %d of the batch in flight", round, n, total, crashBatch*landed)
		}
		total = n
		if round == *crashRounds {
			c.kill()
			break
		}
		// Write until killed, 50 to 400 ms after the first write is
		// answered (a slow machine, or the race detector, takes longer
		// over the first).
		var mu sync.Mutex
		first := make(chan struct{})
		var firstOnce sync.Once
		var answered []string
		var priced []priceWrite
		sending := ""
		var pricing *priceWrite
		stopped := make(chan struct{})
		go func() {
			defer close(stopped)
			for i := 0; ; i++ {
				if i%2 == 1 { // a price update of the batch just added
					pw := priceWrite{batchWord(round, i-1), 1000 + round*1000 + i}
					mu.Lock()
					pricing = &pw
					mu.Unlock()
					if !c.setPrice(pw) {
						return
					}
					mu.Lock()
					priced, pricing = append(priced, pw), nil
					mu.Unlock()
					firstOnce.Do(func() { close(first) })
					continue
				}
				w := batchWord(round, i)
				mu.Lock()
				sending = w
				mu.Unlock()
				if !c.post(w) {
					return
				}
				mu.Lock()
				answered, sending = append(answered, w), ""
				mu.Unlock()
				firstOnce.Do(func() { close(first) })
			}
		}()
		select {
		case <-first:
		case <-stopped:
		case <-time.After(time.Minute):
		}
		time.Sleep(time.Duration(50+r.IntN(350)) * time.Millisecond)
		c.kill()
		<-stopped
		mu.Lock()
		acked = append(acked, answered...)
		inFlight = inFlight[:0]
		if sending != "" {
			inFlight = append(inFlight, sending)
		}
		total += crashBatch * len(answered)
		for _, pw := range priced {
			prices[pw.word] = pw.price
		}
		flightPrice = pricing
		mu.Unlock()
		if len(answered) == 0 {
			t.Logf("round %d: killed before any write was answered", round)
		}
	}
	if len(acked) < *crashRounds {
		t.Errorf("only %d batches were answered over %d rounds: the test did not exercise writes", len(acked), *crashRounds)
	}
	if len(prices) == 0 {
		t.Error("no price update was answered: the test did not exercise column writes")
	}
	t.Logf("%d rounds, %d answered batches, %d answered price updates", *crashRounds, len(acked), len(prices))
}

// priceWrite sets every product of a batch to one price.
type priceWrite struct {
	word  string
	price int
}

// batchWord is a batch's unique searchable word: ten letters drawn from
// the batch's own random stream, so no two words are within the typo
// distance a search forgives (a missing batch finds 0, not a neighbour's
// products), and letters only, so the analyzer keeps it one token.
func batchWord(round, i int) string {
	r := rand.New(rand.NewPCG(uint64(round), uint64(i)))
	b := make([]byte, 10)
	for k := range b {
		b[k] = byte('a' + r.IntN(26))
	}
	return string(b)
}

// child is an aisle serve process started from the test binary
// (TestMain runs main under AISLE_TEST_AS_MAIN=1).
type child struct {
	cmd   *exec.Cmd
	addr  string
	out   *syncBuffer // its log
	found chan string // its listening address, once
	// answer is send's last answer, its status and body (lastAnswer):
	// sends may run in parallel.
	answer atomic.Pointer[string]
}

// lastAnswer is the status and body of send's last answer.
func (c *child) lastAnswer() string {
	if a := c.answer.Load(); a != nil {
		return *a
	}
	return ""
}

// startChild starts aisle serve on data and waits until it listens.
func startChild(t *testing.T, data string) *child { return startChildWith(t, data) }

// startChildWith is startChild with more serve flags.
func startChildWith(t *testing.T, data string, flags ...string) *child {
	t.Helper()
	c := launchChild(t, data, flags...)
	c.waitListening(t, time.Minute)
	return c
}

// launchChild starts aisle serve on data with flags, and does not wait:
// waitListening does. Nodes of a cluster are launched together, as none
// listens before two of them run.
func launchChild(t *testing.T, data string, flags ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k"}, flags...)...)
	cmd.Env = append(os.Environ(), "AISLE_TEST_AS_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, out: &syncBuffer{}, found: make(chan string, 1)}
	t.Cleanup(c.kill)
	go func() {
		sc := bufio.NewScanner(stderr)
		listening := false
		for sc.Scan() {
			if m := listeningRE.FindStringSubmatch(sc.Text()); m != nil && !listening {
				listening = true
				c.found <- m[1] + m[2]
			}
			c.out.Write([]byte(sc.Text() + "\n"))
		}
		close(c.found)
	}()
	return c
}

// waitListening waits up to d until the child listens, and notes its
// address.
func (c *child) waitListening(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case addr, ok := <-c.found:
		if !ok {
			t.Fatalf("aisle serve ended before listening:\n%s", c.logs())
		}
		c.addr = addr
	case <-time.After(d):
		t.Fatalf("aisle serve did not listen within %s:\n%s", d, c.logs())
	}
}

// logs is what the child has logged so far.
func (c *child) logs() string { return c.out.String() }

// kill sends SIGKILL and reaps the process; a second call does nothing.
func (c *child) kill() {
	if c.cmd.ProcessState != nil {
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGKILL)
	_ = c.cmd.Wait()
}

// interrupt stops the server as Ctrl-C does (it saves the behaviour's
// snapshot on the way out) and reaps it.
func (c *child) interrupt() {
	if c.cmd.ProcessState != nil {
		return
	}
	_ = c.cmd.Process.Signal(os.Interrupt)
	_ = c.cmd.Wait()
}

// post writes one batch of crashBatch products titled with word, and
// reports whether it was answered 2xx; false once the server is gone.
func (c *child) post(word string) bool {
	var body strings.Builder
	for j := range crashBatch {
		fmt.Fprintf(&body, `{"productNumber":"%s-%d","title":"Crash kite %s","price":%d}`+"\n", word, j, word, j+1)
	}
	return c.write("", body.String())
}

// setPrice sets the price of a batch's products in one partial update.
func (c *child) setPrice(pw priceWrite) bool {
	var body strings.Builder
	for j := range crashBatch {
		fmt.Fprintf(&body, `{"productNumber":"%s-%d","price":%d}`+"\n", pw.word, j, pw.price)
	}
	return c.write("?partial=true", body.String())
}

// write posts a JSON Lines body to the products route with query.
func (c *child) write(query, body string) bool {
	return c.send("/admin/v1/websites/"+shopSite+"/products"+query, "application/x-ndjson", "Bearer k", body)
}

// send posts body to path (with authorization, when not empty) and
// reports whether it was answered 2xx; false once the server is gone.
func (c *child) send(path, contentType, authorization, body string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", "http://"+c.addr+path, strings.NewReader(body))
	if err != nil {
		return false
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	answer := fmt.Sprintf("%d %s", resp.StatusCode, raw)
	c.answer.Store(&answer)
	return resp.StatusCode/100 == 2
}

// total is the totalCount of a search for query under the shop's key.
func (c *child) total(t *testing.T, query string) int {
	t.Helper()
	return searchTotal(t, c.addr, fmt.Sprintf(`{"query":%q,"key":"default","products":{"count":1}}`, query))
}

// totalWhere is total for query among the products priced price.
func (c *child) totalWhere(t *testing.T, query string, price int) int {
	t.Helper()
	return searchTotal(t, c.addr, fmt.Sprintf(`{"query":%q,"key":"default","products":{"count":1,"filters":["price:%d"]}}`, query, price))
}
