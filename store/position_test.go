package store

import (
	"errors"
	"testing"
)

// TestPositions: a batch's position is recorded with it, a position not
// after its log's applied one is refused and changes nothing, a group
// records each log's last, and the positions survive a reopen.
func TestPositions(t *testing.T) {
	dir := t.TempDir()
	st := openWithConfig(t, dir)
	if got := st.Position("a"); got != 0 {
		t.Fatalf("position of a new log %d", got)
	}
	b := eventBatch(testSite, `{"kind":"click"}`)
	b.SetPosition(Position{Log: "a", Seq: 3})
	if _, err := st.Apply(b, true); err != nil {
		t.Fatal(err)
	}
	seq := st.Seq()
	for _, p := range []uint64{3, 2} {
		again := eventBatch(testSite, `{"kind":"click"}`)
		again.SetPosition(Position{Log: "a", Seq: p})
		if _, err := st.Apply(again, true); !errors.Is(err, ErrPositionApplied) {
			t.Fatalf("entry %d again: %v, want ErrPositionApplied", p, err)
		}
		if _, err := st.AppendGroup([]*Batch{again}, true); !errors.Is(err, ErrPositionApplied) {
			t.Fatalf("entry %d again in a group: %v, want ErrPositionApplied", p, err)
		}
	}
	if st.Seq() != seq {
		t.Fatalf("a refused entry was appended: seq %d, was %d", st.Seq(), seq)
	}
	var group []*Batch
	for _, p := range []Position{{"a", 4}, {"b", 1}, {"a", 5}} {
		g := eventBatch(testSite, `{"kind":"view"}`)
		g.SetPosition(p)
		group = append(group, g)
	}
	plain := eventBatch(testSite, `{"kind":"view"}`)
	group = append(group, plain)
	if _, err := st.AppendGroup(group, true); err != nil {
		t.Fatal(err)
	}
	backwards := []*Batch{eventBatch(testSite, `{}`), eventBatch(testSite, `{}`)}
	backwards[0].SetPosition(Position{"c", 2})
	backwards[1].SetPosition(Position{"c", 2})
	if _, err := st.AppendGroup(backwards, true); !errors.Is(err, ErrPositionApplied) {
		t.Fatalf("a group repeating a position: %v", err)
	}
	want := map[string]uint64{"a": 5, "b": 1}
	check := func(st *Store) {
		t.Helper()
		got := st.Positions()
		if len(got) != len(want) || got["a"] != 5 || got["b"] != 1 {
			t.Fatalf("positions %v, want %v", got, want)
		}
	}
	check(st)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	check(st)
}

// TestOnlyProductPutsAudited: audit entries do not stop a batch of
// product upserts from being one (a replica applies a writer's audited
// price feed as column updates); a delete, a key or an event does.
func TestOnlyProductPutsAudited(t *testing.T) {
	b := &Batch{Website: testSite}
	b.PutProductJSON("P1", []byte(`{"productNumber":"P1","price":2}`))
	b.Audit(AuditEntry{SourceID: "catalog"})
	if !b.OnlyProductPuts() {
		t.Fatal("an audited product upsert is not only product puts")
	}
	for name, add := range map[string]func(b *Batch){
		"delete": func(b *Batch) { b.DeleteProduct("P2") },
		"key":    func(b *Batch) { b.RemoveKey("k") },
		"event":  func(b *Batch) { b.AddEvent([]byte(`{}`)) },
	} {
		c := *b
		add(&c)
		if c.OnlyProductPuts() {
			t.Errorf("with a %s: only product puts", name)
		}
	}
}
