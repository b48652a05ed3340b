package store

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/cockroachdb/pebble"
	"github.com/goccy/go-json"
)

// migrateChunk is how many products one batch of the layout 2 to 3
// migration rewrites: each batch is atomic, and a crash between batches
// leaves layout 2, which the next Open migrates again from where it is.
const migrateChunk = 10000

// migrateLayout2 rewrites a layout-2 store (products keyed by their exact
// number, content items by their exact id) to layout 3 (keyed by
// ProductID and ContentID), then stamps layout 3.
//
// Layout 2 could hold two products whose numbers share one id (SEC-Ä and
// sec-a), which no index can serve side by side. The one a log entry put
// last is kept, under the id, and the others are dropped, as an upsert
// of the later one does in layout 3; when the log no longer says (a
// number put by no entry), the greatest number is kept.
func (s *Store) migrateLayout2() error {
	groups := map[string][]string{} // website "/" id → stored numbers
	var order []string
	err := s.scan(prefixProduct, func(k, _ []byte) error {
		rest := k[len(prefixProduct):]
		i := bytes.IndexByte(rest, '/')
		if i < 0 {
			return corruptionErrorf("product key %q has no website", k)
		}
		website, pn := string(rest[:i]), string(rest[i+1:])
		g := website + "/" + ProductID(pn)
		if _, seen := groups[g]; !seen {
			order = append(order, g)
		}
		groups[g] = append(groups[g], pn)
		return nil
	})
	if err != nil {
		return err
	}
	last, err := s.lastPuts(groups)
	if err != nil {
		return err
	}
	return s.update(func(h *handle) error {
		pb := h.db.NewBatch()
		defer func() { pb.Close() }()
		n := 0
		for _, g := range order {
			numbers := groups[g]
			website, id, _ := strings.Cut(g, "/")
			if len(numbers) == 1 && numbers[0] == id {
				continue // keyed by its id already
			}
			keep := slices.MaxFunc(numbers, func(a, b string) int {
				return cmp.Or(cmp.Compare(last[website+"/"+a], last[website+"/"+b]), strings.Compare(a, b))
			})
			v, err := s.get(appendProductIDKey(nil, website, keep))
			if err != nil {
				return fmt.Errorf("migrate product %s: %w", keep, err)
			}
			for _, pn := range numbers {
				if err := pb.Delete(appendProductIDKey(nil, website, pn), nil); err != nil {
					return err
				}
			}
			if err := pb.Set(appendProductIDKey(nil, website, id), v, nil); err != nil {
				return err
			}
			if n++; n%migrateChunk == 0 {
				if err := h.check(pb.Commit(pebble.NoSync)); err != nil {
					return fmt.Errorf("migrate products to layout %d: %w", Layout, err)
				}
				pb.Close()
				pb = h.db.NewBatch()
			}
		}
		if err := h.check(pb.Commit(pebble.NoSync)); err != nil {
			return fmt.Errorf("migrate products to layout %d: %w", Layout, err)
		}
		if err := s.migrateContentIDs(h); err != nil {
			return err
		}
		if err := h.check(h.db.Set([]byte(keyLayout), appendSeq(nil, Layout), pebble.Sync)); err != nil {
			return fmt.Errorf("migrate to layout %d: %w", Layout, err)
		}
		return nil
	})
}

// migrateContentIDs rewrites layout-2 content keys (the exact id) as
// layout-3 keys (ContentID), in one batch of h: content is small. Of two items
// of a kind whose ids fold alike, the greatest id's is kept (content
// entries are not replayed, so the log is not consulted).
func (s *Store) migrateContentIDs(h *handle) error {
	pb := h.db.NewBatch()
	defer pb.Close()
	kept := map[string]string{} // new key → the exact key whose value it holds
	err := s.scan(prefixContent, func(k, v []byte) error {
		rest := string(k[len(prefixContent):])
		website, item, ok := strings.Cut(rest, "/")
		if !ok || !strings.Contains(item, "/") {
			return corruptionErrorf("content key %q is not a website, a kind and an id", k)
		}
		nk := string(contentKey(website, item))
		if nk != string(k) {
			if err := pb.Delete(k, nil); err != nil {
				return err
			}
		}
		if prev, taken := kept[nk]; taken && prev > string(k) {
			return nil
		}
		kept[nk] = string(k)
		return pb.Set([]byte(nk), v, nil)
	})
	if err != nil {
		return err
	}
	if err := h.check(pb.Commit(pebble.NoSync)); err != nil {
		return fmt.Errorf("migrate content to layout %d: %w", Layout, err)
	}
	return nil
}

// lastPuts is, for every stored number of a group of more than one
// (website "/" id → numbers), the last log entry that put it, keyed
// website "/" number; nil when there are no such groups.
func (s *Store) lastPuts(groups map[string][]string) (map[string]uint64, error) {
	want := map[string]bool{}
	for g, numbers := range groups {
		if len(numbers) > 1 {
			website, _, _ := strings.Cut(g, "/")
			for _, pn := range numbers {
				want[website+"/"+pn] = true
			}
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	last := map[string]uint64{}
	err := s.Entries(0, func(e *Entry) error {
		for _, raw := range e.Products {
			var head struct {
				ProductNumber string `json:"productNumber"`
			}
			if err := json.Unmarshal(raw, &head); err != nil {
				return corruptionErrorf("log entry %d: a product: %v", e.Seq, err)
			}
			if k := e.Website + "/" + head.ProductNumber; want[k] {
				last[k] = e.Seq
			}
		}
		return nil
	})
	return last, err
}
