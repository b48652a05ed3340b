package httpapi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// openUUID is the website beside the locked shop in TestRecomsAPIKeys.
const openUUID = "00000000-0000-4000-8000-00000000a002"

// TestRecomsAPIKeys: "Search needs Authorization: Bearer <key> only when
// the website sets requireApiKey" holds for /serve/recoms as for search
// and pages (docs/decisions.md, API keys): a call answered from such a
// website's products, named by websiteUuid or by one of its boxes, is a
// 401 without one of its keys or the admin key; a website without
// requireApiKey answers anyone.
func TestRecomsAPIKeys(t *testing.T) {
	alt := []config.BoxSource{{Type: "ALTERNATIVES"}}
	locked := shopSite(config.SearchVersion{})
	locked.RequireAPIKey, locked.APIKeys = true, []string{"k1"}
	locked.Boxes = []config.Box{{Key: "locked-alt", Count: 4, Sources: alt}}
	open := shopSite(config.SearchVersion{})
	open.UUID, open.Search[0].Key = openUUID, "open"
	open.Boxes = []config.Box{{Key: "open-alt", Count: 4, Sources: alt}}
	url := listen(t, New(engine.New("admin-key", buildShop(t, locked, hardware(), nil), buildShop(t, open, hardware(), nil)), Options{}))

	const ctx = `"context":{"productNumbers":["P02"]}`
	managed := func(site string, keys ...string) string {
		body := `{`
		if site != "" {
			body += `"websiteUuid":"` + site + `",`
		}
		body += `"requests":[`
		for i, k := range keys {
			if i > 0 {
				body += ","
			}
			body += `{"key":"` + k + `",` + ctx + `}`
		}
		return body + `]}`
	}
	unmanaged := func(site string) string {
		return `{"websiteUuid":"` + site + `","requests":[{"trackingKey":"t","count":4,` + ctx + `,"sources":[{"type":"ALTERNATIVES"}]}]}`
	}
	lockedCalls := []string{managed("", "locked-alt"), managed(shopUUID, "locked-alt"), unmanaged(shopUUID), managed("", "open-alt", "locked-alt")}
	openCalls := []string{managed("", "open-alt"), managed(openUUID, "open-alt"), unmanaged(openUUID),
		managed(openUUID, "locked-alt")} // the locked box is not looked up in the open website: NOT FOUND
	for _, tc := range []struct {
		calls  []string
		auth   string
		status int
	}{
		{lockedCalls, "", 401}, {lockedCalls, "Bearer wrong", 401}, {lockedCalls, "Basic k1", 401},
		{lockedCalls, "Bearer k1", 200}, {lockedCalls, "Bearer admin-key", 200},
		{openCalls, "", 200}, {openCalls, "Bearer wrong", 200},
		{[]string{unmanaged("00000000-0000-4000-8000-00000000ffff")}, "", 404},
	} {
		for _, body := range tc.calls {
			var hdr []string
			if tc.auth != "" {
				hdr = []string{"Authorization", tc.auth}
			}
			status, _, raw := send(t, "POST", url+"/serve/recoms", "text/plain", body, hdr...)
			var res struct {
				Success   bool
				Error     struct{ Code string }
				Responses []struct {
					Success  bool
					Products []json.RawMessage
				}
			}
			if err := json.Unmarshal(raw, &res); err != nil || status != tc.status {
				t.Errorf("%s with Authorization %q: %d %s, want %d", body, tc.auth, status, raw, tc.status)
				continue
			}
			switch {
			case status == 401 && (res.Error.Code != "UNAUTHORIZED" || res.Responses != nil):
				t.Errorf("%s with Authorization %q: %s, want UNAUTHORIZED and no products", body, tc.auth, raw)
			case status == 200 && (!res.Success || len(res.Responses) == 0 || res.Responses[0].Success && len(res.Responses[0].Products) == 0):
				t.Errorf("%s with Authorization %q: %s, want the box's products", body, tc.auth, raw)
			}
		}
	}
}

// TestRecomsBounds: through the server, a call of more requests than the
// bound is a 400 naming requests, whatever they ask, and a request's
// count past its bound fails that response alone with BAD_REQUEST
// naming the count; at the bounds, every response succeeds.
func TestRecomsBounds(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{}), hardware(), nil, Options{})
	call := func(requests, count int) string {
		req := `{"trackingKey":"t","count":` + fmt.Sprint(count) + `,"fields":["productNumber"],"sources":[{"type":"TOP"},{"type":"ALTERNATIVES"}],"context":{"productNumbers":["P01"]}}`
		return `{"websiteUuid":"` + shopUUID + `","requests":[` + strings.TrimSuffix(strings.Repeat(req+",", requests), ",") + `]}`
	}
	type answer struct {
		Success   bool
		Error     struct{ Code, Field, Message string }
		Responses []struct {
			Success       bool
			Code, Message string
		}
	}
	post := func(body string) (int, answer) {
		t.Helper()
		status, _, raw := send(t, "POST", url+"/serve/recoms", "application/json", body)
		var a answer
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatalf("%d %s: %v", status, raw, err)
		}
		return status, a
	}
	for _, n := range []int{11, 2000} {
		if status, a := post(call(n, 1000000000)); status != 400 || a.Success || a.Error.Code != "INVALID_REQUEST" || a.Error.Field != "requests" ||
			!strings.Contains(a.Error.Message, "at most 10 requests") {
			t.Errorf("%d requests: %d %+v, want a 400 naming requests", n, status, a)
		}
	}
	status, a := post(call(10, 1000000000))
	if status != 200 || !a.Success || len(a.Responses) != 10 {
		t.Fatalf("10 requests of a billion: %d %+v", status, a)
	}
	for i, r := range a.Responses {
		if r.Success || r.Code != "BAD_REQUEST" || r.Message != "count 1000000000: at most 100 products" {
			t.Errorf("response %d: %+v, want BAD_REQUEST naming the count", i, r)
		}
	}
	status, a = post(call(10, 100))
	if status != 200 || !a.Success || len(a.Responses) != 10 {
		t.Fatalf("10 requests of 100: %d %+v", status, a)
	}
	for i, r := range a.Responses {
		if !r.Success {
			t.Errorf("response %d: %+v, want success", i, r)
		}
	}
}
