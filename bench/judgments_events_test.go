package bench

import (
	"maps"
	"testing"

	"github.com/aisle-search/aisle/events"
)

// TestEventJudgments grades search terms from what visitors did after
// searching.
func TestEventJudgments(t *testing.T) {
	const min = 60 * 1000
	search := func(user, q string, at int64) events.Event {
		return events.Event{Kind: events.Search, User: user, Query: q, Time: at}
	}
	click := func(user, pn, source string, at int64) events.Event {
		return events.Event{Kind: events.Click, User: user, ProductNumber: pn, Shown: &events.Shown{Source: source, Key: "main"}, Time: at}
	}
	buy := func(user string, at int64, pns ...string) events.Event {
		return events.Event{Kind: events.Purchase, User: user, ProductNumbers: pns, OrderNumber: "o", Time: at}
	}
	cart := func(user string, at int64, pns ...string) events.Event {
		return events.Event{Kind: events.Cart, User: user, ProductNumbers: pns, Time: at}
	}
	tests := []struct {
		name string
		evs  []events.Event
		want Judgments
	}{
		{"a click after a search", []events.Event{search("u", "Cordless  Drill", 0), click("u", "P1", events.SourceSearch, 1*min)},
			Judgments{"cordless drill": {"P1": 1}}},
		{"a click too long after", []events.Event{search("u", "drill", 0), click("u", "P1", events.SourceSearch, 31*min)}, Judgments{}},
		{"a click from a page", []events.Event{search("u", "drill", 0), click("u", "P1", events.SourcePage, min)}, Judgments{}},
		{"another visitor's search", []events.Event{search("a", "drill", 0), click("b", "P1", events.SourceSearch, min)}, Judgments{}},
		{"the last search counts", []events.Event{search("u", "drill", 0), search("u", "hammer", min), click("u", "P2", events.SourceSearch, 2*min)},
			Judgments{"hammer": {"P2": 1}}},
		{"carted, then bought", []events.Event{search("u", "drill", 0), click("u", "P1", events.SourceSearch, min), click("u", "P2", events.SourceSearch, 2*min),
			cart("u", 3*min, "P1", "P2"), buy("u", 4*min, "P2")},
			Judgments{"drill": {"P1": 2, "P2": 3}}},
		{"bought before the click", []events.Event{buy("u", 0, "P1"), search("u", "drill", min), click("u", "P1", events.SourceSearch, 2*min)},
			Judgments{"drill": {"P1": 1}}},
		{"the best grade of any visitor", []events.Event{search("a", "drill", 0), click("a", "P1", events.SourceSearch, min), buy("a", 2*min, "P1"),
			search("b", "drill", 0), click("b", "P1", events.SourceSearch, min)},
			Judgments{"drill": {"P1": 3}}},
		{"no visitor", []events.Event{{Kind: events.Search, Query: "drill"}, {Kind: events.Click, ProductNumber: "P1", Shown: &events.Shown{Source: events.SourceSearch}}}, Judgments{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ej := NewEventJudgments()
			for i := range tc.evs {
				ej.Add(&tc.evs[i])
			}
			got := ej.Judgments()
			if !maps.EqualFunc(got, tc.want, func(a, b map[string]float64) bool { return maps.Equal(a, b) }) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
