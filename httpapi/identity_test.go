package httpapi

import (
	"strings"
	"testing"
)

// TestCustomerHistoryNeedsAKey: through the server, a customer's orders
// are not readable by their email without a key (401, nothing of them in
// the answer), nor re-linkable by a stranger's event naming the email
// beside another tracking id; with the admin key the lookup answers the
// customer's own history.
func TestCustomerHistoryNeedsAKey(t *testing.T) {
	url, _ := serveLiveStore(t, Options{})
	collect := func(kind, body string, hdr ...string) {
		t.Helper()
		if status, _, raw := send(t, "POST", url+"/serve/collect/"+kind, "text/plain", `{"websiteUuid":"`+shopUUID+`",`+body+`}`, hdr...); status != 200 {
			t.Fatalf("%s %s: %d %s", kind, body, status, raw)
		}
	}
	collect("purchase", `"trackingUserId":"alice","email":"alice@example.com","orderNumber":"O1","productNumbers":["P03"]`)
	collect("purchase", `"trackingUserId":"mallory","email":"alice@example.com","orderNumber":"O2","productNumbers":["P01"]`)
	lookup := `{"websiteUuid":"` + shopUUID + `","email":"alice@example.com","requests":[{"trackingKey":"t","count":5,"fields":["productNumber"],"sources":[{"type":"RECENTLY_BOUGHT"}]}]}`
	for _, hdr := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Origin", "https://evil.example"}} {
		status, _, raw := send(t, "POST", url+"/serve/recoms", "text/plain", lookup, hdr...)
		if status != 401 || strings.Contains(string(raw), "P03") {
			t.Errorf("by email with %q: %d %s, want 401 and no history", hdr, status, raw)
		}
	}
	status, _, raw := send(t, "POST", url+"/serve/recoms", "text/plain", lookup, "Authorization", "Bearer admin-key")
	if status != 200 || !strings.Contains(string(raw), `"productNumber":"P03"`) || strings.Contains(string(raw), "P01") {
		t.Errorf("by email with the admin key: %d %s, want alice's P03 alone", status, raw)
	}
	for _, member := range []string{`"emailHash":1`, `"relink":true`} {
		if status, _, raw := send(t, "POST", url+"/serve/collect/view", "text/plain", `{"websiteUuid":"`+shopUUID+`","productNumber":"P01",`+member+`}`); status != 400 {
			t.Errorf("a view sending %s: %d %s, want 400", member, status, raw)
		}
	}
}
