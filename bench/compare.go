package bench

import (
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/aisle-search/aisle/engine"
)

// Result is one engine's figures for one query class.
type Result struct {
	Engine         string  `json:"engine"`
	Class          string  `json:"class"`
	QPS            float64 `json:"qps"`
	P50us          float64 `json:"p50us"`
	P95us          float64 `json:"p95us"`
	P99us          float64 `json:"p99us"`
	AllocsPerQuery float64 `json:"allocsPerQuery"`
}

// Searcher is one engine answering the benchmark's requests.
type Searcher struct {
	Name   string
	Search func(r *Request, c Class) error
}

// AisleSearcher answers with Aisle in process, encoding the JSON answer
// as the server would.
func AisleSearcher(g *engine.Generation) Searcher {
	var buf []byte
	return Searcher{Name: "aisle", Search: func(r *Request, _ Class) error {
		res, err := g.Search(r.Req)
		if err != nil {
			return err
		}
		buf = res.AppendJSON(buf[:0])
		return nil
	}}
}

// Compare runs every searcher over the same requests, interleaved in
// blocks (A B A B …) so drift on a shared machine falls on all alike.
// Each searcher first answers every request once, untimed: the timed
// rounds measure warm engines, not the first touch of their index pages
// (which, with other engines loading for minutes in between, the system
// may have reclaimed: on this repository's test machine the first class
// measured after the peers loaded ran at a p99 three times the next).
// Each timed block follows lead requests of the same engine, untimed
// (the ones before the block): see lead.
func Compare(searchers []Searcher, c Class, reqs []Request, rounds int) ([]Result, error) {
	const block = 50
	for _, s := range searchers {
		if err := s.untimed(c, reqs, 0, len(reqs)); err != nil {
			return nil, err
		}
	}
	lats := make([][]time.Duration, len(searchers))
	mallocs := make([]uint64, len(searchers))
	busy := make([]time.Duration, len(searchers))
	var ms runtime.MemStats
	for round := range rounds {
		for lo := 0; lo < len(reqs); lo += block {
			hi := min(lo+block, len(reqs))
			for k := range searchers {
				// Alternate who goes first each block.
				s := (k + lo/block + round) % len(searchers)
				if err := searchers[s].untimed(c, reqs, lo-lead, lead); err != nil {
					return nil, err
				}
				runtime.ReadMemStats(&ms)
				before := ms.Mallocs
				t0 := time.Now()
				for i := lo; i < hi; i++ {
					q0 := time.Now()
					if err := searchers[s].answer(&reqs[i], c); err != nil {
						return nil, err
					}
					lats[s] = append(lats[s], time.Since(q0))
				}
				busy[s] += time.Since(t0)
				runtime.ReadMemStats(&ms)
				mallocs[s] += ms.Mallocs - before
			}
		}
	}
	out := make([]Result, len(searchers))
	for s := range searchers {
		n := len(lats[s])
		p50, p95, p99, _ := Percentiles(lats[s])
		out[s] = Result{Engine: searchers[s].Name, Class: c.String(), QPS: float64(n) / busy[s].Seconds(),
			P50us: micros(p50), P95us: micros(p95), P99us: micros(p99), AllocsPerQuery: float64(mallocs[s]) / float64(n)}
	}
	return out, nil
}

// answer is s.Search with the engine and class named in its error.
func (s Searcher) answer(r *Request, c Class) error {
	if err := s.Search(r, c); err != nil {
		return fmt.Errorf("%s, class %s: %w", s.Name, c, err)
	}
	return nil
}

// untimed answers n of reqs from from on, going round past either end.
func (s Searcher) untimed(c Class, reqs []Request, from, n int) error {
	for j := from; j < from+n; j++ {
		if err := s.answer(&reqs[((j%len(reqs))+len(reqs))%len(reqs)], c); err != nil {
			return err
		}
	}
	return nil
}

// lead is how many requests an engine answers, untimed, before each
// timed block. The block before ran another engine, for up to seconds
// (fifty PostgreSQL searches), whose memory traffic left this one's
// caches cold: at 1M demo products beside PostgreSQL, Aisle's first five
// searches of a block ran at a p50 of 490 µs against 274 µs for the
// rest (1.39 ms against 260 µs in blocks of 200). A server answering a
// stream of searches does not pay that every fiftieth search, and the
// fastest engine paid the most, its blocks being the shortest.
const lead = 10

// Print writes the comparison as a table with Aisle/peer QPS ratios.
func Print(w io.Writer, results [][]Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "class\tengine\tQPS\tp50\tp95\tp99\tallocs/query\tAisle/peer QPS\t\n")
	for _, rs := range results {
		aisle := rs[0]
		for _, r := range rs {
			ratio := ""
			if r.Engine != aisle.Engine {
				ratio = fmt.Sprintf("%.1f×", aisle.QPS/r.QPS)
			}
			fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.0fµs\t%.0fµs\t%.0fµs\t%.0f\t%s\t\n", r.Class, r.Engine, r.QPS, r.P50us, r.P95us, r.P99us, r.AllocsPerQuery, ratio)
		}
	}
	tw.Flush()
}

func micros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
