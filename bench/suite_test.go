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
	var order []string
	slow := Searcher{Name: "slow", Search: func(*Request, Class) error {
		order = append(order, "slow")
		time.Sleep(200 * time.Microsecond)
		return nil
	}}
	fast := Searcher{Name: "aisle", Search: func(*Request, Class) error { order = append(order, "aisle"); return nil }}
	rs, err := Compare([]Searcher{fast, slow}, ClassWords, reqs, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Engine != "aisle" || rs[1].Engine != "slow" || rs[0].QPS <= rs[1].QPS || rs[1].P50us < 150 {
		t.Fatalf("results %+v", rs)
	}
	// An untimed pass of each, then blocks of 50 that alternate who goes
	// first: aisle first in block 0, slow in block 1.
	if len(order) != 2*3*len(reqs) || order[0] != "aisle" || order[len(reqs)] != "slow" {
		t.Fatalf("%d searches, want a warm-up pass and two rounds of %d each", len(order), len(reqs))
	}
	timed := order[2*len(reqs):]
	if timed[0] != "aisle" || timed[50] != "slow" || timed[100] != "slow" || timed[150] != "aisle" {
		t.Fatalf("not interleaved: %v %v %v %v", timed[0], timed[50], timed[100], timed[150])
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
