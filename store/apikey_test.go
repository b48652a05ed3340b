package store

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/catalog"
)

// testKey is an API key with id id, as the access package makes one.
func testKey(id, website string) *access.Key {
	return &access.Key{ID: id, Name: "key " + id, Scopes: []access.Scope{access.ScopeAudit, access.ScopeSearch}, Website: website,
		Created: time.Date(2025, 3, 1, 12, 0, 0, 123, time.UTC), Hash: []byte("0123456789abcdef0123456789abcdef")}
}

// keyIDs are the ids of keys, in order.
func keyIDs(keys []*access.Key) string {
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = k.ID
	}
	return strings.Join(ids, " ")
}

// TestKeysRoundTrip: API keys put by batches without a website (alone,
// grouped, or beside a website's changes) are stored whole and listed
// by id; a removal removes one, after the puts of its batch; the log
// entries record the puts and removals; a reopen finds the same keys.
func TestKeysRoundTrip(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { st.Close() }()
	k1, k2, k3, k4 := testKey("b1", ""), testKey("a2", testSite), testKey("c3", ""), testKey("d4", "")
	steps := []struct {
		name  string
		batch func(b *Batch) error
		group bool
		want  string
	}{
		{"two keys, no website", func(b *Batch) error { return errors.Join(b.PutKey(k1), b.PutKey(k2)) }, false, "a2 b1"},
		{"a removal and a put", func(b *Batch) error { b.RemoveKey("b1"); return b.PutKey(k3) }, false, "a2 c3"},
		{"a put and a removal of one key", func(b *Batch) error { err := b.PutKey(k4); b.RemoveKey("d4"); return err }, false, "a2 c3"},
		{"a removal of no key", func(b *Batch) error { b.RemoveKey("zz"); return nil }, false, "a2 c3"},
		{"in a group", func(b *Batch) error { return b.PutKey(k1) }, true, "a2 b1 c3"},
		{"beside a product", func(b *Batch) error {
			b.Website = testSite
			b.RemoveKey("c3")
			return b.PutProduct(&catalog.Product{ProductNumber: "P1", Title: "a drill"})
		}, false, "a2 b1"},
	}
	for _, s := range steps {
		var b Batch
		if err := s.batch(&b); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if s.group {
			_, err = st.AppendGroup([]*Batch{&b}, true)
		} else {
			_, err = st.Apply(&b, true)
		}
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		keys, err := st.Keys()
		if err != nil || keyIDs(keys) != s.want {
			t.Fatalf("%s: keys %q, %v; want %q", s.name, keyIDs(keys), err, s.want)
		}
	}
	var logged []string
	if err := st.Entries(0, func(e *Entry) error {
		logged = append(logged, "put "+keyIDs(e.Keys)+" removed "+strings.Join(e.KeyRemovals, " "))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"put b1 a2 removed ", "put c3 removed b1", "put d4 removed d4", "put  removed zz", "put b1 removed ", "put  removed c3"}
	if !reflect.DeepEqual(logged, want) {
		t.Errorf("the log says\n%q\nwant\n%q", logged, want)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	keys, err := st.Keys()
	if err != nil || !reflect.DeepEqual(keys, []*access.Key{k2, k1}) {
		t.Errorf("reopened: keys %+v, %v; want %+v", keys, err, []*access.Key{k2, k1})
	}
}

// TestKeyWithoutIDIsRefused: a key put or removed without an id is
// refused (ErrInvalidBatch), and the batch writes nothing.
func TestKeyWithoutIDIsRefused(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b Batch
	if err := b.PutKey(testKey("", "")); !errors.Is(err, ErrInvalidBatch) {
		t.Errorf("PutKey of a key without an id: %v, want ErrInvalidBatch", err)
	}
	if err := b.PutKey(testKey("k1", "")); err != nil {
		t.Fatal(err)
	}
	b.RemoveKey("")
	if _, err := st.Apply(&b, true); !errors.Is(err, ErrInvalidBatch) {
		t.Errorf("a removal without an id: %v, want ErrInvalidBatch", err)
	}
	if keys, err := st.Keys(); err != nil || len(keys) != 0 || st.Seq() != 0 {
		t.Errorf("after a refused batch: keys %q, %v, entry %d; want none", keyIDs(keys), err, st.Seq())
	}
}

// TestKeysCorrupt: a stored key that is not a key's JSON, or names
// another id than its key's, is a corruption error naming the key.
func TestKeysCorrupt(t *testing.T) {
	for _, c := range []struct{ key, value string }{
		{"k/k1", "not json"},
		{"k/k1", `{"id":"k2","name":"n"}`},
		{"k/k1", `{"id":"k1","createdAt":"yesterday"}`},
	} {
		st, err := Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if err := st.pdb().Set([]byte(c.key), []byte(c.value), nil); err != nil {
			t.Fatal(err)
		}
		keys, err := st.Keys()
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s = %s: keys %q, %v; want a corruption error naming %s", c.key, c.value, keyIDs(keys), err, c.key)
		}
		st.Close()
	}
}

// TestServerChangesAreNotEventsAlone: an entry of events that also puts
// or removes an API key, or writes an audit entry, is not truncated or
// compacted as events alone.
func TestServerChangesAreNotEventsAlone(t *testing.T) {
	for name, add := range map[string]func(b *Batch) error{
		"a key put":     func(b *Batch) error { return b.PutKey(testKey("k1", "")) },
		"a key removal": func(b *Batch) error { b.RemoveKey("k1"); return nil },
		"audit":         func(b *Batch) error { b.Audit(AuditEntry{SourceID: "s"}); return nil },
	} {
		t.Run(name, func(t *testing.T) {
			st, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			b := &Batch{Website: testSite}
			b.AddEvent([]byte(`{"kind":"view"}`))
			if err := add(b); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Apply(b, true); err != nil {
				t.Fatal(err)
			}
			if err := st.TruncateEvents(0); !errors.Is(err, ErrNotEventsOnly) {
				t.Errorf("TruncateEvents: %v, want ErrNotEventsOnly", err)
			}
			if n, err := st.CompactEvents(testSite, 1, func([]json.RawMessage) bool { return true }); err != nil || n != 0 {
				t.Errorf("CompactEvents removed %d entries (%v), want none", n, err)
			}
		})
	}
}
