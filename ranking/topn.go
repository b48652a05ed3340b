package ranking

import (
	"math"
	"slices"
)

// SortKey orders docs by a rank column; missing values (MaxUint32) come
// last in either direction.
type SortKey struct {
	Rank []uint32
	Desc bool
}

// Hit is a doc picked for a page, with its text score.
type Hit struct {
	Doc   uint32
	Score float32
}

// TopN keeps the best k of docs, best first: by keys, then score (when
// scores is not nil; scores[i] belongs to docs[i]), then doc id so ties
// are stable across calls.
func TopN(docs []uint32, scores []float32, keys []SortKey, k int, dst []Hit) []Hit {
	return TopNOrdered(docs, scores, keys, nil, k, dst)
}

// TopNOrdered is TopN breaking the last ties by order[doc] instead of the
// doc id when order is not nil (index.Segment.Order: a segment whose doc
// ids are no longer in key order).
func TopNOrdered(docs []uint32, scores []float32, keys []SortKey, order []uint32, k int, dst []Hit) []Hit {
	if n := min(k, len(docs)); cap(dst) < n {
		dst = make([]Hit, 0, n) // once, not grown a hit at a time
	}
	h := topHeap{keys: keys, order: order, hits: dst[:0]}
	if k <= 0 {
		return h.hits
	}
	if len(keys) == 0 && scores != nil {
		// By score alone: a doc scoring below the worst kept cannot
		// enter, and most docs of a long list do not, so they are passed
		// without a comparison call.
		for i, d := range docs {
			s := scores[i]
			if len(h.hits) == k && s < h.hits[0].Score {
				continue
			}
			h.push(Hit{Doc: d, Score: s}, k)
		}
		h.sort()
		return h.hits
	}
	for i, d := range docs {
		var s float32
		if scores != nil {
			s = scores[i]
		}
		h.push(Hit{Doc: d, Score: s}, k)
	}
	h.sort()
	return h.hits
}

// topHeap is a min-heap by quality: the root is the worst hit kept.
type topHeap struct {
	keys  []SortKey
	order []uint32 // nil: doc ids
	hits  []Hit
}

func (h *topHeap) better(a, b Hit) bool {
	for _, k := range h.keys {
		ra, rb := k.Rank[a.Doc], k.Rank[b.Doc]
		if ra == rb {
			continue
		}
		if ra == math.MaxUint32 {
			return false
		}
		if rb == math.MaxUint32 {
			return true
		}
		return ra < rb != k.Desc
	}
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if h.order != nil {
		return h.order[a.Doc] < h.order[b.Doc]
	}
	return a.Doc < b.Doc
}

func (h *topHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.better(h.hits[p], h.hits[i]) {
			return
		}
		h.hits[p], h.hits[i] = h.hits[i], h.hits[p]
		i = p
	}
}

func (h *topHeap) down(i int) {
	n := len(h.hits)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		w := l
		if r := l + 1; r < n && h.better(h.hits[l], h.hits[r]) {
			w = r
		}
		if !h.better(h.hits[i], h.hits[w]) {
			return
		}
		h.hits[i], h.hits[w] = h.hits[w], h.hits[i]
		i = w
	}
}

// push offers hit to a page of at most k.
func (h *topHeap) push(hit Hit, k int) {
	if len(h.hits) < k {
		h.hits = append(h.hits, hit)
		h.up(len(h.hits) - 1)
		return
	}
	if h.better(hit, h.hits[0]) {
		h.hits[0] = hit
		h.down(0)
	}
}

// sort orders the page best first.
func (h *topHeap) sort() {
	slices.SortFunc(h.hits, func(a, b Hit) int {
		if h.better(a, b) {
			return -1
		}
		if h.better(b, a) {
			return 1
		}
		return 0
	})
}
