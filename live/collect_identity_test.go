package live

import (
	"bytes"
	"errors"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
)

// TestCollectLinksNeedTheKey: an event links an email or customer id to
// its tracking id when it is linked to none; moving the link takes the
// website's key (a wrong key is Unauthorized and logs nothing); and
// neither the log nor the behaviour's snapshot holds the email or the
// customer id in the clear.
func TestCollectLinksNeedTheKey(t *testing.T) {
	st, eng, _, _ := liveShop(t)
	w := *current(t, eng).Website
	w.APIKeys = []string{"shop-key"}
	g, err := engine.Build(&w, analysis.English, engine.Source{Products: sliceSource(shopProducts())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng.Swap(g)
	bhv := engine.NewBehaviours()
	c := NewCollector(st, eng, bhv)
	defer c.Close()
	const email, customer = "Alice@Example.com", "cust-4711"
	send := func(user, key string) error {
		_, err := c.Collect(&events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "A100", User: user, Email: email, CustomerID: customer}, key)
		return err
	}
	m := bhv.Model(shopUUID)
	linked := func(user string) bool {
		t.Helper()
		want := m.Resolve(user, 0, 0)
		return m.Resolve("", bhv.Key().Email(" alice@example.COM"), 0) == want && m.Resolve("", 0, bhv.Key().Customer(customer)) == want
	}
	if err := send("alice", ""); err != nil || !linked("alice") {
		t.Fatalf("the first event: %v, linked to alice %v", err, linked("alice"))
	}
	if err := send("mallory", ""); err != nil || !linked("alice") {
		t.Errorf("an event without the key: %v; the link moved off alice", err)
	}
	seq := st.Seq()
	var e *engine.Error
	if err := send("mallory", "wrong"); !errors.As(err, &e) || e.Kind != engine.KindUnauthorized || st.Seq() != seq || !linked("alice") {
		t.Errorf("a wrong key: %v, seq %d → %d; want Unauthorized, nothing logged, the link kept", err, seq, st.Seq())
	}
	if err := send("alice-phone", "shop-key"); err != nil || !linked("alice-phone") {
		t.Errorf("with the website's key: %v; the link did not move", err)
	}
	if _, err := kept(st, bhv).Snapshot(); err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []string{"l/", "v/", "b/", "m/"} { // the log, its events, snapshots, metadata
		if err := st.Scan([]byte(prefix), func(k, v []byte) error {
			for _, s := range []string{"alice@example.com", "Alice@Example.com", customer} {
				if bytes.Contains(k, []byte(s)) || bytes.Contains(v, []byte(s)) {
					t.Errorf("the store holds %q in the clear under %q", s, k)
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}
