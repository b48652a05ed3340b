package behaviour

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/events"
)

// TestFoldImpressionAllocatesNothing: a box's or a campaign's
// impression, the server's most frequent event, counts for its day
// without hashing its visitor (nothing attributes to an impression) and
// without allocating once its day and key are counted; a box's counts
// for no campaign's counter.
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
	// The campaigns' counters count the sponsored product's, not the box's.
	if c, none := m.Campaign("spring"), m.Campaign(""); c.Impressions != 102 || none != (CampaignStats{}) {
		t.Errorf("campaign spring %+v, no campaign %+v: want 102 impressions and none", c, none)
	}
}

// TestTrailsAreBoundedInBytes: visitors who click boxes and campaigns
// of the longest keys (events.MaxID bytes) keep trails of at most 64
// MiB of content, both generations together, however many they are;
// a snapshot read back at any point weighs its newer generation the
// same (trailBytes) and, folding the rest, keeps the same trails as the
// model that folded everything.
func TestTrailsAreBoundedInBytes(t *testing.T) {
	day := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	long := func(prefix string, i int) string {
		s := fmt.Sprintf("%s-%d-", prefix, i)
		return s + strings.Repeat("x", events.MaxID-len(s))
	}
	var log []*events.Event
	for v := range 40000 {
		user := fmt.Sprint("visitor-", v)
		for c := range maxTrailClicks {
			sh := &events.Shown{Source: events.SourceRecoms, Key: long("box", v*maxTrailClicks+c)}
			if c%2 == 1 {
				sh.Campaign = long("campaign", v*maxTrailClicks+c)
			}
			log = append(log, &events.Event{Kind: events.Click, Website: "w", User: user, Time: day, ProductNumber: "P1", Shown: sh})
		}
	}
	content := func(s *stats) (newer, all int) {
		for g, gen := range []map[uint64]*trail{s.trails, s.oldTrails} {
			for _, tr := range gen {
				n := len(tr.search.query)
				for _, c := range tr.clicks {
					n += len(c.box) + len(c.campaign)
				}
				if all += n; g == 0 {
					newer += n
				}
			}
		}
		return newer, all
	}
	whole := New()
	for i, e := range log {
		whole.Fold(e)
		if i%50000 == 0 {
			if _, all := content(&whole.stats); all > 64<<20 {
				t.Fatalf("after %d clicks the trails hold %d bytes of keys, more than 64 MiB", i+1, all)
			}
		}
	}
	if _, all := content(&whole.stats); all > 64<<20 {
		t.Fatalf("the trails hold %d bytes of keys, more than 64 MiB", all)
	}
	for _, split := range []int{len(log)/2 + 3} {
		half := New()
		for _, e := range log[:split] {
			half.Fold(e)
		}
		back, err := DecodeSnapshot(half.AppendSnapshot(nil), DefaultBudget)
		if err != nil {
			t.Fatal(err)
		}
		if back.stats.trailBytes != half.stats.trailBytes {
			t.Fatalf("split at %d: the snapshot read back weighs its newer trails %d bytes, the model %d", split, back.stats.trailBytes, half.stats.trailBytes)
		}
		for _, e := range log[split:] {
			back.Fold(e)
		}
		got, want := back.stats, whole.stats
		if len(got.trails) != len(want.trails) || len(got.oldTrails) != len(want.oldTrails) || got.trailBytes != want.trailBytes {
			t.Fatalf("split at %d: %d and %d trails (%d bytes), folded whole %d and %d (%d bytes)", split,
				len(got.trails), len(got.oldTrails), got.trailBytes, len(want.trails), len(want.oldTrails), want.trailBytes)
		}
	}
}
