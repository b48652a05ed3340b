package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// TestTuneAShop: aisle tune --data fits a website's ranking to what its
// visitors did. Shoppers who search a brand click and buy the brand's
// own product, not the one naming the brand in its title that the
// default weights put first; tune reports a held-out gain and stores a
// draft version that puts the brand's product first, leaving the live
// version as it was.
func TestTuneAShop(t *testing.T) {
	dir := t.TempDir()
	var feed, evs strings.Builder
	const at = 1764000000000
	for i := range 45 {
		brand := fmt.Sprintf("brand%c%c", 'a'+i/26, 'a'+i%26)
		for _, p := range []catalog.Product{
			{ProductNumber: fmt.Sprintf("own-%d", i), Title: "lamp shade", Brand: brand},
			{ProductNumber: fmt.Sprintf("named-%d", i), Title: brand + " lamp shade", Brand: "generic"},
		} {
			b, _ := json.Marshal(p)
			feed.Write(append(b, '\n'))
		}
		user := fmt.Sprintf("u%d", i)
		t0 := at + int64(i)*1000000
		fmt.Fprintf(&evs, `{"kind":"search","websiteUuid":"%s","trackingUserId":"%s","query":"%s","results":2,"time":%d}`+"\n", shopSite, user, brand, t0)
		fmt.Fprintf(&evs, `{"kind":"click","websiteUuid":"%s","trackingUserId":"%s","productNumber":"own-%d","shown":{"source":"search","key":"main","position":2},"time":%d}`+"\n", shopSite, user, i, t0+20000)
		fmt.Fprintf(&evs, `{"kind":"purchase","websiteUuid":"%s","trackingUserId":"%s","orderNumber":"o%d","productNumbers":["own-%d"],"time":%d}`+"\n", shopSite, user, i, i, t0+90000)
	}
	data := filepath.Join(dir, "shop")
	mustRun(t, "import", "--data", data, "--quiet", "--website", shopSite, writeFile(t, dir, "feed.jsonl", feed.String()))

	if _, err := runCLI("tune", "--data", data, "--folds", "3"); err == nil || !strings.Contains(err.Error(), "0 judged search terms") {
		t.Errorf("tune without events: %v, want it to say there are no judged terms", err)
	}
	mustRun(t, "import", "--data", data, "--events", "--quiet", writeFile(t, dir, "events.jsonl", evs.String()))
	out := mustRun(t, "tune", "--data", data, "--folds", "3", "--rounds", "4")
	m := regexp.MustCompile(`mean: ([0-9.]+) -> ([0-9.]+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("tune printed no held-out mean:\n%s", out)
	}
	base, _ := strconv.ParseFloat(m[1], 64)
	tuned, _ := strconv.ParseFloat(m[2], 64)
	if base > 0.7 || tuned < 0.95 {
		t.Errorf("held-out NDCG %v -> %v, want from under 0.7 to 0.95 or more:\n%s", base, tuned, out)
	}
	if !strings.Contains(out, "draft version 2") {
		t.Fatalf("tune did not store draft version 2:\n%s", out)
	}

	st, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg, err := st.Config()
	if err != nil {
		t.Fatal(err)
	}
	w := &cfg.Websites[0]
	g, err := live.Open(st, w, analysis.English, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	first := func(id *int) string {
		q, key, n := "brandab", config.DefaultKey, 2
		res, err := g.Search(&engine.SearchRequest{Query: &q, Key: &key, ID: id, Products: &engine.ProductSettings{
			ContentSettings: engine.ContentSettings{PageSettings: engine.PageSettings{Count: &n}}}})
		if err != nil {
			t.Fatal(err)
		}
		return g.Products.Key(res.Products.Hits[0].Doc)
	}
	draft := 2
	if live, tunedFirst := first(nil), first(&draft); live != "named-1" || tunedFirst != "own-1" {
		t.Errorf("brandab finds %s first live and %s under the draft; want named-1, then own-1", live, tunedFirst)
	}
	v := w.Search[0].Versions
	if len(v) != 2 || v[0].Status != config.StatusLive || v[1].Status != config.StatusDraft {
		t.Errorf("versions after tune: %+v; want the live one and a draft", v)
	}
}
