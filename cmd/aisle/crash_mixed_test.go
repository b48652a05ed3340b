package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// crashMixedProducts is the catalog TestCrashKeepsAlternatingWrites
// updates whole: the size the fault probe used.
const crashMixedProducts = 100_000

// TestCrashKeepsAlternatingWrites: a child aisle serve on 100,000
// products takes, in turn, a partial update of every product's price (a
// column write of 100,000 rows) and a content write, and is killed with
// SIGKILL right after an answer (after the content write's one round,
// after the price update's the next) and restarted at once, round after
// round on one directory. After each restart every answered write is
// there: every content item, and every product at the last answered
// price; and the next write's sequence number is past every one
// answered, so no answered entry was lost and its number reused.
func TestCrashKeepsAlternatingWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills a server process: not in -short")
	}
	if raceEnabled {
		// A durability test: the race detector adds nothing to it and
		// takes minutes over 100,000 rows; TestCrashKeepsAnsweredWrites
		// runs its writes under it.
		t.Skip("rewrites 100,000 products a round: not under the race detector")
	}
	dir := t.TempDir()
	var feed strings.Builder
	for i := range crashMixedProducts {
		fmt.Fprintf(&feed, `{"productNumber":"M%06d","title":"Mixed kite %d","price":1}`+"\n", i, i)
	}
	path := filepath.Join(dir, "feed.jsonl")
	if err := os.WriteFile(path, []byte(feed.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "shop")
	mustRun(t, "import", "--data", data, "--quiet", "--website", shopSite, path)
	var prices strings.Builder // the partial update's body, rewritten each round
	var brands []string        // the content items answered
	price, maxSeq := 1, uint64(0)
	for round := 0; round <= *crashRounds; round++ {
		c := startChild(t, data)
		if got := c.totalWhere(t, "*", price); got != crashMixedProducts {
			t.Fatalf("round %d: %d products at the last answered price %d, want all %d", round, got, price, crashMixedProducts)
		}
		for _, b := range brands {
			if got := c.brands(t, b); got != 1 {
				t.Fatalf("round %d: the answered brand %s finds %d, want 1", round, b, got)
			}
		}
		if round == *crashRounds {
			c.kill()
			break
		}
		next := 1000 + round
		prices.Reset()
		for i := range crashMixedProducts {
			fmt.Fprintf(&prices, `{"productNumber":"M%06d","price":%d}`+"\n", i, next)
		}
		seq, ok := c.seqOf(t, "/admin/v1/websites/"+shopSite+"/products?partial=true", prices.String())
		if !ok {
			t.Fatalf("round %d: the price update was not answered:\n%s", round, c.logs())
		}
		if seq <= maxSeq {
			t.Fatalf("round %d: the price update answered entry %d, not past %d answered before", round, seq, maxSeq)
		}
		price, maxSeq = next, seq
		if round%2 == 0 {
			word := batchWord(1000, round)
			seq, ok := c.seqOf(t, "/admin/v1/websites/"+shopSite+"/content", fmt.Sprintf(`{"kind":"brands","id":"b-%s","title":%q}`, word, word))
			if !ok || seq <= maxSeq {
				t.Fatalf("round %d: the content write answered %v, entry %d, want past %d", round, ok, seq, maxSeq)
			}
			brands, maxSeq = append(brands, word), seq
		}
		c.kill() // right after the answer, and restarted at once
	}
	t.Logf("%d rounds, %d brands, last price %d, last entry %d", *crashRounds, len(brands), price, maxSeq)
}

// seqOf posts an admin JSON Lines body to path and returns the answer's
// seq; ok is false when it was not answered 200.
func (c *child) seqOf(t *testing.T, path, body string) (seq uint64, ok bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", "http://"+c.addr+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer k")
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var answer struct{ Seq uint64 }
	if resp.StatusCode != 200 || json.Unmarshal(raw, &answer) != nil {
		t.Logf("%s: %d %s", path, resp.StatusCode, raw)
		return 0, false
	}
	return answer.Seq, true
}

// brands is how many brands a search for query finds.
func (c *child) brands(t *testing.T, query string) int {
	t.Helper()
	resp, err := http.Post("http://"+c.addr+"/serve/search", "text/plain", strings.NewReader(fmt.Sprintf(`{"query":%q,"key":"default","brands":{"count":5}}`, query)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Brands struct{ TotalCount int } }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("brands %s: %d %v", query, resp.StatusCode, err)
	}
	return out.Brands.TotalCount
}
