package bench

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/catalog"
)

// TestLoadSuite checks what every engine is asked: the four facets of
// class 3 in every version of the demo's configuration, all classes, and
// queries drawn from titles where a catalog has no query log.
func TestLoadSuite(t *testing.T) {
	s, err := LoadSuite("demo", 500, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Classes, Classes) || s.Key != "demo" || s.Judgments != nil {
		t.Fatalf("demo suite: classes %v key %q", s.Classes, s.Key)
	}
	for _, sc := range s.Website.Search {
		for _, v := range sc.Versions {
			var got []string
			for _, f := range v.Facets {
				got = append(got, f.Field)
			}
			if !slices.Equal(got, FacetFields) || v.Devices != nil {
				t.Fatalf("version %d facets %v, devices %v; want %v and none", v.ID, got, v.Devices, FacetFields)
			}
		}
	}
	if _, err := LoadSuite("acme", 1, ""); err == nil || !strings.Contains(err.Error(), "demo, flipkart, homedepot") {
		t.Fatalf("unknown catalog: %v", err)
	}

	// A catalog without a query log gets words of its own titles.
	g, err := Build(s.Website, func(fn func(*catalog.Product) error) error {
		for _, title := range []string{"Cordless Drill (18V)", "Oak Dining Table", "Go"} {
			if err := fn(&catalog.Product{ProductNumber: title, Title: title}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := TitleQueries(g, 10); !slices.Equal(got, []string{"Cordless 18V"}) {
		// Every 7th doc from 0: only doc 0; two words, first and last.
		t.Fatalf("title queries %q", got)
	}
}

// TestCompare interleaves two searchers over the same requests and
// reports each one's figures and the ratio between them.
func TestCompare(t *testing.T) {
	reqs := make([]Request, 120)
	for i := range reqs {
		reqs[i].Body = []byte{byte(i)}
	}
	type call struct {
		engine string
		req    int
	}
	var order []call
	slow := Searcher{Name: "slow", Search: func(r *Request, _ Class) error {
		order = append(order, call{"slow", int(r.Body[0])})
		time.Sleep(200 * time.Microsecond)
		return nil
	}}
	fast := Searcher{Name: "aisle", Search: func(r *Request, _ Class) error {
		order = append(order, call{"aisle", int(r.Body[0])})
		return nil
	}}
	rs, err := Compare([]Searcher{fast, slow}, ClassWords, reqs, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Engine != "aisle" || rs[1].Engine != "slow" || rs[0].QPS <= rs[1].QPS || rs[1].P50us < 150 {
		t.Fatalf("results %+v", rs)
	}
	// An untimed pass of each, then blocks of 50 (the last of 20) that
	// alternate who goes first, each after the lead requests before it:
	// aisle first in block 0, slow in block 1.
	blocks := 3
	if want := 2*len(reqs) + 2*2*(len(reqs)+blocks*lead); len(order) != want {
		t.Fatalf("%d searches, want %d: a warm-up pass and two rounds of %d each, %d untimed before each block", len(order), want, len(reqs), lead)
	}
	if order[0] != (call{"aisle", 0}) || order[len(reqs)] != (call{"slow", 0}) {
		t.Fatalf("warm-up pass: %v, %v", order[0], order[len(reqs)])
	}
	timed := order[2*len(reqs):]
	for _, c := range []struct {
		at int
		is call
	}{
		{0, call{"aisle", 110}}, {lead, call{"aisle", 0}}, {lead + 49, call{"aisle", 49}}, // block 0: the lead wraps round
		{lead + 50, call{"slow", 110}}, {2*lead + 50, call{"slow", 0}},
		{2*lead + 100, call{"slow", 40}}, {3*lead + 100, call{"slow", 50}}, // block 1: slow first
		{3*lead + 150, call{"aisle", 40}}, {4*lead + 150, call{"aisle", 50}},
	} {
		if timed[c.at] != c.is {
			t.Fatalf("call %d after the warm-up: %v, want %v", c.at, timed[c.at], c.is)
		}
	}
	var out bytes.Buffer
	Print(&out, [][]Result{rs})
	if !strings.Contains(out.String(), "slow") || !strings.Contains(out.String(), "×") {
		t.Fatalf("table:\n%s", out.String())
	}
	boom := errors.New("down")
	broken := Searcher{Name: "broken", Search: func(*Request, Class) error { return boom }}
	if _, err := Compare([]Searcher{fast, broken}, ClassWords, reqs, 1); !errors.Is(err, boom) || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("error: %v", err)
	}
}
