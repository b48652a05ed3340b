package engine

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/store"
)

// PatchProducts applies partial products (catalog.Patch) in one entry.
// Each names an existing product by productNumber, compared as
// DeleteProduct compares; label(i) names patch i in errors ("body:3").
// The first patch that names no product or does not make a valid product
// aborts the entry, and nothing is applied; with allowErrors such patches
// are left out and listed instead, and the others applied. Each patch is
// merged once, into the product as stored (writes hold l.mu, so it cannot
// change underneath) or as earlier patches of the batch left it. The
// products are merged on every core, each product's patches in order.
func (l *Live) PatchProducts(uuid string, patches [][]byte, label func(i int) string, allowErrors bool) (store.Applied, []RowError, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g, err := l.Website(uuid)
	if err != nil {
		return store.Applied{}, nil, err
	}
	errs := make([]error, len(patches))
	var groups []*patchGroup // by product, in first-patch order
	byKey := map[string]*patchGroup{}
	for i, raw := range patches {
		var head struct {
			ProductNumber string `json:"productNumber"`
		}
		if err := json.Unmarshal(raw, &head); err != nil || head.ProductNumber == "" {
			errs[i] = errors.New("a partial update is a JSON object naming its product by productNumber")
			continue
		}
		key, ok := g.productKey(head.ProductNumber)
		if !ok {
			errs[i] = fmt.Errorf("no product %q to update", head.ProductNumber)
			continue
		}
		pg := byKey[key]
		if pg == nil {
			pg = &patchGroup{key: key}
			byKey[key] = pg
			groups = append(groups, pg)
		}
		pg.patches = append(pg.patches, i)
	}
	if err := l.mergeGroups(g, groups, patches, errs); err != nil {
		return store.Applied{}, nil, err
	}
	var rejected []RowError
	for i, err := range errs {
		if err == nil {
			continue
		}
		if !allowErrors {
			return store.Applied{}, nil, Invalid("products", "%s: %v; nothing was applied", label(i), err)
		}
		rejected = append(rejected, RowError{label(i), err.Error()})
	}
	var b store.Batch
	for _, pg := range groups {
		if pg.merged != nil {
			b.PutProductJSON(pg.key, pg.merged)
		}
	}
	a, err := l.apply(g, &b)
	return a, rejected, err
}

// patchesPerWorker is how many products a merge goroutine takes at least:
// fewer are merged on one.
var patchesPerWorker = 256

// patchGroup is one product's patches (their indexes, in order) and the
// product they leave.
type patchGroup struct {
	key     string
	patches []int
	stored  []byte // the product as stored
	merged  []byte // nil while no patch applied
}

// mergeGroups merges each group's patches into its stored product, the
// groups on every core; a patch's own failure goes to errs[i], a read
// failure of the store is returned. The stored products are read first,
// in one sweep in key order (Store.ProductsByNumber).
func (l *Live) mergeGroups(g *Generation, groups []*patchGroup, patches [][]byte, errs []error) error {
	numbers := make([]string, len(groups))
	for i, pg := range groups {
		numbers[i] = pg.key
	}
	stored, err := l.st.ProductsByNumber(g.Website.UUID, numbers)
	if err != nil {
		return err
	}
	for i, pg := range groups {
		pg.stored = stored[i]
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(groups)/patchesPerWorker))
	next := make(chan *patchGroup)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var readErr error
	for range workers {
		wg.Go(func() {
			for pg := range next {
				stored := pg.stored
				if stored == nil {
					mu.Lock()
					readErr = errors.Join(readErr, fmt.Errorf("product %s is served but not stored", pg.key))
					mu.Unlock()
					continue
				}
				for _, i := range pg.patches {
					p, err := catalog.Patch(stored, patches[i])
					if err == nil {
						p.ProductNumber = pg.key
						var data []byte
						if data, err = json.Marshal(p); err == nil {
							stored, pg.merged = data, data
						}
					}
					errs[i] = err // each index belongs to one group: no race
				}
			}
		})
	}
	for _, pg := range groups {
		next <- pg
	}
	close(next)
	wg.Wait()
	return readErr
}
