package engine

import "sync/atomic"

// SearchClass is the shape of an answered product query, as the
// server's metrics count them (Engine.Searches). Every answer is of
// exactly one class, the first of these that fits:
//
//   - SearchListing: a search whose phrase has no word (empty, `*`, or
//     nothing the website's analyzer keeps: the wildcard, which
//     category pages send), whatever its filters and facets; and every
//     page (POST /serve/pages), which has no phrase.
//   - SearchFaceted: a search with words that asks products.returnFilters.
//   - SearchFiltered: a search with words and filters (products.filters
//     or a content type's filters), without facets.
//   - SearchWords: a search with words only.
type SearchClass uint8

// The search classes.
const (
	SearchWords SearchClass = iota
	SearchFiltered
	SearchFaceted
	SearchListing
	numSearchClasses
)

// SearchClasses are every class, in order: the metrics' label values.
var SearchClasses = []SearchClass{SearchWords, SearchFiltered, SearchFaceted, SearchListing}

// String is the class's label: words, filtered, faceted or listing.
func (c SearchClass) String() string {
	return [...]string{"words", "filtered", "faceted", "listing", ""}[min(c, numSearchClasses)]
}

// searchCounts are the answers by class, each counter on a cache line of
// its own, so cores counting at once do not share one.
type searchCounts [numSearchClasses]struct {
	n atomic.Uint64
	_ [56]byte
}

// count adds an answer of class c.
func (s *searchCounts) count(c SearchClass) { s[c].n.Add(1) }

// Searches is how many product queries of class c the engine answered
// (Search and Page calls that did not fail) since New.
func (e *Engine) Searches(c SearchClass) uint64 {
	if c >= numSearchClasses {
		return 0
	}
	return e.searches[c].n.Load()
}

// searchClass is the class of req; wildcard says its phrase parsed as
// the wildcard.
func searchClass(req *SearchRequest, wildcard bool) SearchClass {
	switch {
	case wildcard:
		return SearchListing
	case req.Products != nil && bool(req.Products.ReturnFilters):
		return SearchFaceted
	case req.filtered():
		return SearchFiltered
	}
	return SearchWords
}

// filtered reports whether req names a filter: of the products or of a
// content type.
func (r *SearchRequest) filtered() bool {
	if r.Products != nil && len(r.Products.Filters) > 0 {
		return true
	}
	for _, c := range [...]*ContentSettings{r.Categories, r.Brands, r.SitePages, r.BlogPosts} {
		if c != nil && len(c.Filters) > 0 {
			return true
		}
	}
	return false
}
