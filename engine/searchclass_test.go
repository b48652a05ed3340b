package engine

import (
	"context"
	"testing"
	"time"
)

// TestSearchClasses: each answered search counts once, under the first
// class that fits it (listing for a phrase without words, whatever else
// it asks; then faceted, filtered, words); a page is a listing; a
// refused request counts under none.
func TestSearchClasses(t *testing.T) {
	g := shopGen(t)
	for _, tc := range []struct {
		body string
		want SearchClass // numSearchClasses: none
	}{
		{`{"query":"drill","key":"shop","products":{"count":2}}`, SearchWords},
		{`{"query":"drill","key":"shop","categories":{"count":2}}`, SearchWords},
		{`{"query":"drill","key":"shop","products":{"count":2,"sorting":["price asc"]}}`, SearchWords},
		{`{"query":"drill","key":"shop","products":{"count":2,"filters":["price:20,150"]}}`, SearchFiltered},
		{`{"query":"drill","key":"shop","categories":{"count":2,"filters":["hierarchy:Tools$"]}}`, SearchFiltered},
		{`{"query":"drill","key":"shop","products":{"count":2,"returnFilters":true}}`, SearchFaceted},
		{`{"query":"drill","key":"shop","products":{"count":2,"returnFilters":true,"filters":["price:20,150"]}}`, SearchFaceted},
		{`{"query":"*","key":"shop","products":{"count":2}}`, SearchListing},
		{`{"query":"  ","key":"shop","products":{"count":2,"filters":["price:20,150"],"returnFilters":true}}`, SearchListing},
		{`{"query":"!?","key":"shop","products":{"count":2}}`, SearchListing}, // no word the analyzer keeps
		{`{"query":"!?","key":"shop","brands":{"count":2}}`, SearchListing},
		{`{"query":"*","key":"shop","redirects":{"count":2}}`, SearchListing},
		{`{"query":"drill","key":"shop","products":{"count":2,"filters":["nosuchfield:1"]}}`, numSearchClasses},
		{`{"query":"drill","key":"nosuchkey","products":{"count":2}}`, numSearchClasses},
	} {
		e := New("", g)
		_, err := e.Search(context.Background(), shopRequest(t, tc.body), "")
		if (err == nil) != (tc.want != numSearchClasses) {
			t.Errorf("%s: %v", tc.body, err)
		}
		for _, c := range SearchClasses {
			want := uint64(0)
			if c == tc.want {
				want = 1
			}
			if got := e.Searches(c); got != want {
				t.Errorf("%s: %d searches of class %s, want %d", tc.body, got, c, want)
			}
		}
	}
}

// TestPageCountsAsListing: an answered page counts as a listing, a page
// refused as none.
func TestPageCountsAsListing(t *testing.T) {
	e := New("", demoGeneration(t, 200, 7, nil))
	url, first, start, count := "https://shop.example/garden", Flag(true), 0, 4
	page := func(key string) error {
		req := &PageRequest{URL: &url, FirstLoad: &first, Params: &PageParams{}, Products: &PageProducts{ContentSettings: ContentSettings{PageSettings: PageSettings{Start: &start, Count: &count}}}}
		_, err := e.Page(context.Background(), key, req, "", time.Now())
		return err
	}
	if err := page("demo"); err != nil {
		t.Fatal(err)
	}
	if page("nosuchpage") == nil {
		t.Fatal("an unknown page was answered")
	}
	for _, c := range SearchClasses {
		want := uint64(0)
		if c == SearchListing {
			want = 1
		}
		if got := e.Searches(c); got != want {
			t.Errorf("%d searches of class %s, want %d", got, c, want)
		}
	}
}

// TestSearchCountingAllocates: classifying and counting an answer
// allocates nothing.
func TestSearchCountingAllocates(t *testing.T) {
	e := New("")
	req := shopRequest(t, `{"query":"drill","key":"shop","products":{"count":2,"filters":["price:20,150"]},"categories":{"count":2}}`)
	if n := testing.AllocsPerRun(1000, func() { e.searches.count(searchClass(req, false)) }); n != 0 {
		t.Errorf("counting a search allocates %v times, want 0", n)
	}
	if got := e.Searches(SearchFiltered); got < 1000 {
		t.Errorf("%d filtered searches counted, want at least 1000", got)
	}
}

// BenchmarkSearchCounting: classifying and counting one answer, on every
// core at once.
func BenchmarkSearchCounting(b *testing.B) {
	e := New("")
	req := shopRequest(b, `{"query":"drill","key":"shop","products":{"count":2,"filters":["price:20,150"]},"categories":{"count":2}}`)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			e.searches.count(searchClass(req, false))
		}
	})
}
