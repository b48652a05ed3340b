package behaviour

import (
	"testing"
	"time"

	"github.com/aisle-search/aisle/events"
)

// TestFoldImpressionAllocatesNothing: a box's or a campaign's
// impression, the server's most frequent event, counts for its day
// without hashing its visitor (nothing attributes to an impression) and
// without allocating once its day and key are counted.
func TestFoldImpressionAllocatesNothing(t *testing.T) {
	m := New()
	day := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	box := events.Event{Kind: events.Impression, Website: "w", User: "visitor-1", Time: day, Shown: &events.Shown{Source: events.SourceRecoms, Key: "box-home"}}
	sponsored := events.Event{Kind: events.Impression, Website: "w", User: "visitor-2", Time: day, ProductNumber: "P1",
		Shown: &events.Shown{Source: events.SourceSearch, Key: "shop", Position: 1, Campaign: "spring"}}
	m.Fold(&box)
	m.Fold(&sponsored)
	if n := testing.AllocsPerRun(100, func() { m.Fold(&box); m.Fold(&sponsored) }); n != 0 {
		t.Errorf("an impression allocates %.1f times", n/2)
	}
	r := m.Analytics(DayOf(day), DayOf(day), 10)
	if len(r.Boxes) != 1 || r.Boxes[0].Impressions != 102 || len(r.Campaigns) != 1 || r.Campaigns[0].Impressions != 102 {
		t.Errorf("boxes %+v, campaigns %+v: want 102 impressions each", r.Boxes, r.Campaigns)
	}
}
