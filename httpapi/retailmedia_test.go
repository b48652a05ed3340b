package httpapi

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
)

// adsSite is the pages site with two campaigns: "spring" (ACTIVE, the
// Garden's P07 then P05, first place, everywhere) and "preview" (in
// REVIEW, P04 second, searches only).
func adsSite() config.Website {
	w := pagesSite()
	w.Campaigns = []config.Campaign{
		{ID: "spring", Name: "Spring garden", State: config.CampaignActive, Products: []string{"P07", "P05"}, Positions: []int{1}},
		{ID: "preview", State: config.CampaignReview, Products: []string{"P04"}, Positions: []int{2}, Placements: []string{config.PlaceSearch}},
	}
	return w
}

// campaignStats reads a campaign's counts through the admin API.
func campaignStats(t *testing.T, url, id string) (status int, impressions, clicks float64) {
	t.Helper()
	status, body := adminSend(t, "GET", url+adminPrefix+shopUUID+"/campaigns/"+id, "", "")
	c, _ := body["campaign"].(map[string]any)
	imp, _ := c["impressions"].(float64)
	cl, _ := c["clicks"].(float64)
	return status, imp, cl
}

// TestRetailMediaThroughTheServer: sponsored products come flagged in
// search, page and box answers, whatever fields were asked, in json and
// in the default templates; REVIEW campaigns only with
// includeRetailMediaInReview; the total stays organic; each impression
// and each click naming the campaign is counted and read per campaign;
// a client cannot send impressions.
func TestRetailMediaThroughTheServer(t *testing.T) {
	url, _ := serveLiveSite(t, adsSite(), hardware(), Options{})
	r := searchOK(t, url, `{"query":"*","key":"shop","products":{"count":4,"fields":["productNumber"]}}`)
	items := r.results("products")
	if items[0]["productNumber"] != "P07" || items[0]["sponsored"] != true || items[0]["retailMediaCampaignId"] != "spring" ||
		items[1]["sponsored"] != nil || r.get("products", "totalCount") != 8.0 {
		t.Fatalf("search: %s", r.raw)
	}
	for _, it := range items[1:] {
		if it["productNumber"] == "P07" {
			t.Errorf("P07 repeated: %s", r.raw)
		}
	}
	r = searchOK(t, url, `{"query":"*","key":"shop","includeRetailMediaInReview":true,"products":{"count":4}}`)
	if items := r.results("products"); items[1]["productNumber"] != "P04" || items[1]["retailMediaCampaignId"] != "preview" {
		t.Errorf("with includeRetailMediaInReview: %s", r.raw)
	}
	html, _ := searchOK(t, url, `{"query":"*","key":"shop","format":"html","products":{"count":2}}`).get("html").(string)
	if !strings.Contains(html, "aisle-sponsored") || !strings.Contains(html, "Sponsored") {
		t.Errorf("html search without the sponsored label: %s", html)
	}
	p := pagePost(t, url, "in-stock", `{"url":"u","format":"json","firstLoad":false,"params":{},"products":{"start":0,"count":3,"fields":["productNumber"]}}`)
	if first := p.get("products", "result").([]any)[0].(map[string]any); first["productNumber"] != "P07" || first["retailMediaCampaignId"] != "spring" {
		t.Errorf("page: %s", p.raw)
	}
	// Two answers with spring's product: two impressions; a click naming
	// it: one click.
	status, _, raw := send(t, "POST", url+"/serve/collect/click", "application/json",
		`{"websiteUuid":"`+shopUUID+`","productNumber":"P07","shown":{"source":"search","key":"shop","position":1,"retailMediaCampaignId":"spring"}}`)
	if status != 200 {
		t.Fatalf("click: %d %s", status, raw)
	}
	var imp, clicks float64
	for range 200 {
		if status, imp, clicks = campaignStats(t, url, "spring"); imp >= 4 && clicks == 1 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if status != 200 || imp != 4 || clicks != 1 {
		t.Errorf("spring's stats: %d, %v impressions, %v clicks; want 4 (three searches, a page) and 1", status, imp, clicks)
	}
	if _, imp, _ := campaignStats(t, url, "preview"); imp != 1 {
		t.Errorf("preview: %v impressions, want the one search that asked for review", imp)
	}
	if status, _, _ := campaignStats(t, url, "nope"); status != 404 {
		t.Errorf("an unknown campaign: %d, want 404", status)
	}
	status, all := adminSend(t, "GET", url+adminPrefix+shopUUID+"/campaigns", "", "")
	if list, _ := all["campaigns"].([]any); status != 200 || len(list) != 2 || list[0].(map[string]any)["name"] != "Spring garden" {
		t.Errorf("every campaign: %d %v", status, all)
	}
	// Impressions are the server's to record.
	for _, tc := range []struct{ path, body, field string }{
		{"/serve/collect/impression", `{"websiteUuid":"` + shopUUID + `","productNumber":"P07","shown":{"source":"search","retailMediaCampaignId":"spring"}}`, "kind"},
		{"/serve/collect", `{"events":[{"kind":"impression","websiteUuid":"` + shopUUID + `","productNumber":"P07","shown":{"source":"search","retailMediaCampaignId":"spring"}}]}`, "events.0.kind"},
	} {
		status, _, raw := send(t, "POST", url+tc.path, "application/json", tc.body)
		var e struct{ Error struct{ Field string } }
		if json.Unmarshal(raw, &e); status != 400 || e.Error.Field != tc.field {
			t.Errorf("%s: %d %s, want 400 naming %s", tc.path, status, raw, tc.field)
		}
	}
}

// TestCampaignMatrixThroughTheServer: through the real server, a
// campaign configured with PUT /admin/v1/config shows in a search and on
// a page exactly when its state (ACTIVE, or REVIEW with
// includeRetailMediaInReview) and its dates (around the server's clock)
// allow, at its position, only where the request's filters let it.
func TestCampaignMatrixThroughTheServer(t *testing.T) {
	url, _ := serveLiveSite(t, adsSite(), hardware(), Options{})
	now := time.Now()
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	dates := []struct {
		name       string
		start, end *time.Time
		running    bool
	}{
		{"open", nil, nil, true},
		{"running", at(-time.Hour), at(time.Hour), true},
		{"not yet", at(time.Hour), at(2 * time.Hour), false},
		{"over", at(-2 * time.Hour), at(-time.Hour), false},
	}
	for _, state := range config.CampaignStates {
		for _, d := range dates {
			w := adsSite()
			w.Campaigns = []config.Campaign{{ID: "m", State: state, Start: d.start, End: d.end, Products: []string{"P07", "P03"}, Positions: []int{2}}}
			body, _ := json.Marshal(config.File{Websites: []config.Website{w}})
			if status, r := adminSend(t, "PUT", url+"/admin/v1/config", "application/json", string(body)); status != 200 {
				t.Fatalf("PUT config: %d %v", status, r)
			}
			for _, review := range []bool{false, true} {
				shown := d.running && (state == config.CampaignActive || review && state == config.CampaignReview)
				for _, tc := range []struct {
					name, path, body string
					want             string // the second product when shown
				}{
					{"search", "/serve/search", fmt.Sprintf(`{"query":"*","key":"shop","includeRetailMediaInReview":%v,"products":{"count":3,"fields":["productNumber"]}}`, review), "P07"},
					{"search for tools", "/serve/search", fmt.Sprintf(`{"query":"*","key":"shop","includeRetailMediaInReview":%v,"products":{"count":3,"fields":["productNumber"],"filters":["hierarchies:Tools$"]}}`, review), "P03"},
					{"page", "/serve/pages/tools", fmt.Sprintf(`{"url":"u","format":"json","firstLoad":false,"params":{},"includeRetailMediaInReview":%v,"products":{"start":0,"count":3,"fields":["productNumber"]}}`, review), "P03"},
				} {
					status, _, raw := send(t, "POST", url+tc.path, "application/json", tc.body)
					var res struct {
						Products struct {
							Results, Result []map[string]any
							TotalCount      float64
						}
					}
					if err := json.Unmarshal(raw, &res); status != 200 || err != nil {
						t.Fatalf("%s: %d %s", tc.name, status, raw)
					}
					items := append(res.Products.Results, res.Products.Result...)
					got := items[1]["productNumber"] == tc.want && items[1]["retailMediaCampaignId"] == "m"
					sponsored := 0
					for _, it := range items {
						if it["sponsored"] == true {
							sponsored++
						}
					}
					if got != shown || sponsored != map[bool]int{true: 1, false: 0}[shown] {
						t.Errorf("%s, %s, review %v, %s: %s; want %s sponsored second: %v", state, d.name, review, tc.name, raw, tc.want, shown)
					}
				}
			}
		}
	}
}
