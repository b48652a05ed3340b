package live

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/store"
)

// changeLine is an "admin change" line without its time and duration.
var changeLine = regexp.MustCompile(`time=\S+ (level=INFO msg="admin change" .*) took=\S+`)

// TestAdminChangeLogged: every admin change the Writer commits logs one
// line naming its position, website, what it changed and who made it,
// and never a key's secret; a refused change logs none.
func TestAdminChangeLogged(t *testing.T) {
	_, _, l, logs := liveShop(t)
	logs.take()
	by := l.As(Actor{Name: "feed bot"})
	var b store.Batch
	for _, pn := range []string{"N1", "N2"} {
		if err := b.PutProduct(&catalog.Product{ProductNumber: pn, Title: "new kite", Price: 5}); err != nil {
			t.Fatal(err)
		}
	}
	b.DeleteProduct("A100")
	put, err := by.Apply(shopUUID, &b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := by.DeleteProduct(shopUUID, "no such product"); err == nil {
		t.Fatal("deleting a missing product succeeded")
	}
	site := shopWebsite()
	site.Name = "Renamed"
	cfg, err := by.SetConfig(&config.File{Websites: []config.Website{*site}})
	if err != nil {
		t.Fatal(err)
	}
	key, secret, created, err := by.CreateKey(access.Spec{Name: "search key", Scopes: []access.Scope{access.ScopeSearch}, Website: shopUUID})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	raw := logs.buf.take()
	for _, line := range strings.Split(raw, "\n") {
		if m := changeLine.FindStringSubmatch(line); m != nil {
			got = append(got, m[1])
		}
	}
	want := []string{
		fmt.Sprintf(`level=INFO msg="admin change" position=%d website=%s changed="FEED_CONFIG catalog" products_put=2 products_deleted=1 by="feed bot"`, put.Seq, shopUUID),
		fmt.Sprintf(`level=INFO msg="admin change" position=%d website=%s changed="WEBSITE %[2]s, FEED_CONFIG indexedFields, SEARCH_CONFIG shop, SEARCH_CONFIG plain, SEARCH_CONFIG bare" by="feed bot"`, cfg.Seq, shopUUID),
		fmt.Sprintf(`level=INFO msg="admin change" position=%d website=%s changed="API_KEY %s" by="feed bot"`, created.Seq, shopUUID, key.ID),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("admin change lines:\n%s\nwant\n%s\nlog:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), raw)
	}
	if strings.Contains(raw, secret) {
		t.Errorf("the log carries the key's secret:\n%s", raw)
	}
}

// TestChangedResourcesBounded: a change of many resources names the
// first few and counts the rest.
func TestChangedResourcesBounded(t *testing.T) {
	var entries []store.AuditEntry
	for i := range 8 {
		entries = append(entries, store.AuditEntry{ResourceType: ResourceSearchConfig, SourceID: fmt.Sprint("s", i)})
	}
	want := "SEARCH_CONFIG s0, SEARCH_CONFIG s1, SEARCH_CONFIG s2, SEARCH_CONFIG s3, SEARCH_CONFIG s4, +3 more"
	if got := changedResources(entries); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
