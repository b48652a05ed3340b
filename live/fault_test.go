package live

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/internal/diskfault"
	"github.com/aisle-search/aisle/store"
)

// TestDiskFaultsAreAnswered: while the disk refuses writes (full, or
// failing to sync), a product write through Live and an event through
// the Collector are answered store.ErrUnavailable, of the Unavailable
// kind, and change nothing served; searches go on; the collector's
// committer lives on, and once the disk takes writes again both are
// taken, with nothing restarted.
func TestDiskFaultsAreAnswered(t *testing.T) {
	for _, fault := range []diskfault.Fault{diskfault.Full, diskfault.FailingSync} {
		t.Run(fault.Name, func(t *testing.T) {
			faults := diskfault.New(fault)
			logs := &logRecorder{}
			st, err := store.OpenWith(t.TempDir(), store.Options{FS: diskfault.FS(faults), Logger: logs.logger()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			g, _, err := Import(st, shopWebsite(), analysis.English, sliceSource(shopProducts()), logs.logger(), nil)
			if err != nil {
				t.Fatal(err)
			}
			eng := engine.New("", g)
			live := New(st, eng, analysis.English, logs.logger())
			t.Cleanup(live.Close)
			c := NewCollector(st, eng, engine.NewBehaviours())
			defer c.Close()
			search := func() []string {
				t.Helper()
				res := shopSearch(t, current(t, eng), `{"query":"screwdriver","key":"shop","products":{"count":20,"fields":["productNumber"]}}`)
				return productNumbers(t, res["products"].(map[string]any)["results"])
			}
			put := func() error {
				b := store.Batch{Website: shopUUID}
				b.PutProduct(&catalog.Product{ProductNumber: "E100", Title: "Cordless Screwdriver", Price: 59})
				_, err := live.Apply(shopUUID, &b)
				return err
			}
			view := func() error {
				_, err := c.Collect(&events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "A100", User: "u1"}, "")
				return err
			}
			seq, before := st.Seq(), search()

			faults.On()
			for name, write := range map[string]func() error{"a product write": put, "an event": view} {
				if err := write(); !errors.Is(err, store.ErrUnavailable) || AsError(err).Kind != engine.KindUnavailable {
					t.Errorf("%s on a %s: %v, want store.ErrUnavailable", name, fault.Name, err)
				}
			}
			if faults.Failed() == 0 {
				t.Fatal("no fault was injected: the test tests nothing")
			}
			if err := c.Record(&events.Event{Kind: events.View, Website: shopUUID, ProductNumber: "A100", User: "u2"}); err != nil {
				t.Errorf("an event recorded without waiting: %v", err)
			}
			if got := search(); !slices.Equal(got, before) || st.Seq() != seq {
				t.Errorf("while the disk refuses writes: screwdriver finds %v (was %v), the log ends at %d (was %d)", got, before, st.Seq(), seq)
			}

			faults.Off()
			for deadline := time.Now().Add(time.Minute); st.Unavailable() != nil; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("writes still refused a minute after the faults stopped: %v", st.Unavailable())
				}
			}
			if err := view(); err != nil {
				t.Errorf("an event once the disk takes writes: %v", err)
			}
			if err := put(); err != nil {
				t.Errorf("a product write once the disk takes writes: %v", err)
			}
			if got := search(); !slices.Equal(got, []string{"E100", "A100"}) {
				t.Errorf("screwdriver finds %v after the write, want E100 and A100", got)
			}
		})
	}
}
