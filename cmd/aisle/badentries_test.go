package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/store"
)

// twoShops is a configuration of two websites: shopSite under the key
// "shop" and otherSite under "other".
const (
	otherSite = "00000000-0000-4000-8000-000000000002"
	twoShops  = `{"websites":[
 {"uuid":"00000000-0000-4000-8000-000000000001","searchConfigs":[{"key":"shop","versions":[{"id":1,"status":"live","fields":[{"name":"title","weight":1}]}]}]},
 {"uuid":"00000000-0000-4000-8000-000000000002","searchConfigs":[{"key":"other","versions":[{"id":1,"status":"live","fields":[{"name":"title","weight":1}]%s}]}]}]}`
)

// TestCaseCollidingNumbersAreOneProduct: two product numbers that differ
// only in case and accents (SEC-Ä, sec-a) are one product: the second
// upsert replaces the first through the admin API, answered as an
// update, and the server restarts on the directory and serves it under
// the number last written.
func TestCaseCollidingNumbersAreOneProduct(t *testing.T) {
	data := shopDir(t)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	path := "/admin/v1/websites/" + shopSite + "/products"
	for _, tc := range []struct{ body, want string }{
		{`{"productNumber":"SEC-Ä","title":"a sec"}`, `"added":1`},
		{`{"productNumber":"sec-a","title":"a sec"}`, `"updated":1`},
	} {
		status, body := s.admin(t, "k", http.MethodPost, path, "application/x-ndjson", tc.body)
		if status != http.StatusOK || !strings.Contains(body, tc.want) {
			t.Fatalf("write %s: %d %s, want 200 and %s", tc.body, status, body, tc.want)
		}
	}
	check := func(when string, s *cliServer) {
		t.Helper()
		status, out := s.search(t, "", fmt.Sprintf(`{"query":"sec","key":%q,"products":{"count":10}}`, config.DefaultKey))
		if status != http.StatusOK || out.Products.TotalCount != 1 || out.Products.Results[0]["productNumber"] != "sec-a" {
			t.Errorf("%s: search sec: %d %+v, want the one product sec-a", when, status, out.Products)
		}
		if n := s.total(t, config.DefaultKey, "*"); n != 4 {
			t.Errorf("%s: %d products, want 4", when, n)
		}
	}
	check("served", s)
	s.shutdown(t)
	s = startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	check("after a restart", s)
}

// TestUnservableWebsiteSkipped: a website whose stored data or
// configuration cannot be served (each kind of bad entry planted in the
// store, as no API call can write them) is logged, reported by /healthz
// and not served, and the other website serves; a configuration that
// repairs it serves it again, and one that changes only the other
// website is taken while it stays broken.
func TestUnservableWebsiteSkipped(t *testing.T) {
	for _, tc := range []struct {
		name, template string             // template: the other website's extra version members
		plant          func(*store.Batch) // the other website's bad entry
		served         bool               // the other website serves all the same
	}{
		{name: "a stored product that does not decode", plant: func(b *store.Batch) {
			b.PutProductJSON("P-1", []byte(`{"productNumber":"P-1","title":"t","price":"ten"}`))
		}},
		{name: "a template that does not parse", template: `,"template":"{{"`},
		{name: "a template that fails on sample data", template: `,"template":"{{index nil 3}}"`},
		{name: "a content item of no kind", plant: func(b *store.Batch) {
			b.PutContent(&catalog.Content{Kind: "gadgets", ID: "g1", Title: "t"})
		}},
		{name: "two products whose numbers fold alike", served: true, plant: func(b *store.Batch) {
			b.PutProductJSON("SEC-Ä", []byte(`{"productNumber":"SEC-Ä","title":"x"}`))
			b.PutProductJSON("sec-a", []byte(`{"productNumber":"sec-a","title":"x"}`))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := shopDir(t)
			st, err := store.Open(data)
			if err != nil {
				t.Fatal(err)
			}
			var f config.File
			if err := json.Unmarshal(fmt.Appendf(nil, twoShops, tc.template), &f); err != nil {
				t.Fatal(err)
			}
			b := store.Batch{}
			b.SetConfig(&f)
			if _, err := st.Apply(&b, true); err != nil {
				t.Fatal(err)
			}
			b = store.Batch{Website: otherSite}
			b.PutProductJSON("OK-1", []byte(`{"productNumber":"OK-1","title":"x"}`))
			if tc.plant != nil {
				tc.plant(&b)
			}
			if _, err := st.Apply(&b, true); err != nil {
				t.Fatal(err)
			}
			st.Close()

			s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
			if n := s.total(t, "shop", "*"); n != 3 {
				t.Errorf("the good website: %d products, want 3", n)
			}
			status, _ := s.search(t, "", `{"query":"*","key":"other"}`)
			_, health := s.admin(t, "", http.MethodGet, "/healthz", "", "")
			reported := strings.Contains(health, `"notServed":[{"websiteUuid":"`+otherSite+`"`)
			switch {
			case tc.served && (status != http.StatusOK || reported):
				t.Errorf("the other website: search %d, /healthz %s; want it served", status, health)
			case !tc.served && (status != http.StatusNotFound || !reported):
				t.Errorf("the broken website: search %d, /healthz %s; want 404 and reported", status, health)
			case !tc.served && !strings.Contains(s.stderr.String(), "website not served"):
				t.Errorf("the log does not say the website is not served:\n%s", s.stderr.String())
			}
			if tc.served {
				return
			}
			// A change to the good website alone is taken; the broken one
			// stays reported.
			changed := strings.Replace(fmt.Sprintf(twoShops, tc.template), `"key":"shop"`, `"key":"shop2"`, 1)
			if code, body := s.admin(t, "k", http.MethodPut, "/admin/v1/config", "application/json", changed); code != http.StatusOK {
				t.Fatalf("a change beside the broken website: %d %s", code, body)
			}
			if n := s.total(t, "shop2", "*"); n != 3 {
				t.Errorf("after the change: %d products under shop2, want 3", n)
			}
			if tc.template != "" {
				// The configuration that repairs it serves it.
				repaired := strings.Replace(fmt.Sprintf(twoShops, ""), `"key":"shop"`, `"key":"shop2"`, 1)
				if code, body := s.admin(t, "k", http.MethodPut, "/admin/v1/config", "application/json", repaired); code != http.StatusOK {
					t.Fatalf("the repairing configuration: %d %s", code, body)
				}
				if n := s.total(t, "other", "*"); n != 1 {
					t.Errorf("repaired: %d products under other, want 1", n)
				}
				if _, health := s.admin(t, "", http.MethodGet, "/healthz", "", ""); health != `{"success":true}` {
					t.Errorf("repaired: /healthz %s", health)
				}
			}
		})
	}
}
