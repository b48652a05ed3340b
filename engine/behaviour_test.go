package engine

import (
	"fmt"
	"testing"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/events"
)

// TestBehavioursHeld: Held reports each website's visitors and links as
// its model's Size counts them, within the budget.
func TestBehavioursHeld(t *testing.T) {
	b := NewBehaviours()
	b.UseBudget(behaviour.BudgetFor(40))
	for i := range 100 {
		b.Fold(&events.Event{Kind: events.View, Website: "a", User: fmt.Sprint("u", i), ProductNumber: "p1", Email: fmt.Sprintf("v%d@example.com", i), Time: int64(i) * 1000})
	}
	for i := range 3 {
		b.Fold(&events.Event{Kind: events.View, Website: "b", User: fmt.Sprint("u", i), ProductNumber: "p1", Time: 1000})
	}
	got := map[string][2]int{}
	b.Held(func(uuid string, visitors, links int) { got[uuid] = [2]int{visitors, links} })
	for _, uuid := range []string{"a", "b"} {
		s := b.Model(uuid).Size()
		if want := [2]int{s.Visitors, s.Links}; got[uuid] != want {
			t.Errorf("website %s: held %v, want %v (Size)", uuid, got[uuid], want)
		}
	}
	if v, l := got["a"][0], got["a"][1]; v == 0 || v > 40 || l == 0 || l > 80 {
		t.Errorf("website a: %d visitors, %d links held, want some and within 40 and 80", v, l)
	}
	if got["b"] != [2]int{3, 0} {
		t.Errorf("website b: held %v, want 3 visitors and no link", got["b"])
	}
	if len(got) != 2 {
		t.Errorf("held of %d websites, want 2", len(got))
	}
}
