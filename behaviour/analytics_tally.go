package behaviour

import "sync"

// tally adds up values by a dense id (a query's, a product's): at[id]
// is 1 + the index of id's value in all, 0 for none yet, so a range's
// merge reads and writes arrays, not maps.
type tally[T any] struct {
	at  []int32
	ids []uint32 // of all's values, in order
	all []T
}

// reset empties t for ids below n, room made for hint values; what t
// held is cleared, its arrays kept.
func (t *tally[T]) reset(n, hint int) {
	if len(t.at) < n {
		t.at = make([]int32, n)
	} else {
		for _, id := range t.ids {
			t.at[id] = 0
		}
	}
	clear(t.all)
	t.ids, t.all = t.ids[:0], t.all[:0]
	if hint = min(hint, n); cap(t.all) < hint {
		t.ids, t.all = make([]uint32, 0, hint), make([]T, 0, hint)
	}
}

// of is id's value, and whether it is new (zero).
func (t *tally[T]) of(id uint32) (v *T, fresh bool) {
	i := t.at[id]
	if i == 0 {
		var zero T
		t.all, t.ids = append(t.all, zero), append(t.ids, id)
		i = int32(len(t.all))
		t.at[id] = i
		fresh = true
	}
	return &t.all[i-1], fresh
}

// reportTallies are what a report adds up in. talliesPool keeps them
// for the next report, so a report allocates about its answer whatever
// its range.
type reportTallies struct {
	queries   tally[SearchCount]
	noResults tally[QueryCount]
	clicked   tally[ProductCount]
	bought    tally[ProductBuys]
}

var talliesPool = sync.Pool{New: func() any { return new(reportTallies) }}
