package bench

import (
	"maps"
	"os"
	"path/filepath"
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

// TestLoadShopJudgments reads a shop's judgment form beside Home
// Depot's and refuses other headers and grades.
func TestLoadShopJudgments(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	shop, err := LoadJudgments(write("shop.csv", "query,productNumber,grade,note\ndrill,P1,2,x\ndrill,P2,0,\nlamp,P3,1.5,\n"))
	if err != nil || !maps.EqualFunc(shop, Judgments{"drill": {"P1": 2, "P2": 0}, "lamp": {"P3": 1.5}}, func(a, b map[string]float64) bool { return maps.Equal(a, b) }) {
		t.Errorf("shop form: %v, %v", shop, err)
	}
	hd, err := LoadJudgments(write("hd.csv", "id,product_uid,product_title,search_term,relevance\n1,100001,Angle,angle bracket,3\n"))
	if err != nil || hd["angle bracket"]["100001"] != 2 {
		t.Errorf("Home Depot form: %v, %v", hd, err)
	}
	for name, content := range map[string]string{
		"no columns":          "a,b,c\n1,2,3\n",
		"a bad grade":         "query,productNumber,grade\ndrill,P1,high\n",
		"a negative grade":    "query,productNumber,grade\ndrill,P1,-1\n",
		"a relevance under 1": "product_uid,search_term,relevance\n1,drill,0.5\n",
	} {
		if _, err := LoadJudgments(write("bad.csv", content)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
