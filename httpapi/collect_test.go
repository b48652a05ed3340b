package httpapi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// lastEvent is the newest event in st's log.
func lastEvent(t *testing.T, st *store.Store) events.Event {
	t.Helper()
	var last events.Event
	if err := st.Entries(0, func(e *store.Entry) error {
		evs, err := st.EntryEvents(e)
		if err != nil {
			return err
		}
		for _, raw := range evs {
			if err := json.Unmarshal(raw, &last); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return last
}

// TestCollectIdentity: the visitor is the event's trackingUserId, else
// the retail_id cookie, else a new id set in a retail_id cookie (a year;
// SameSite=Lax over plain http, None and Secure behind an https proxy)
// and returned, as it is for a cookie no event takes as its id (over
// 256 bytes, not UTF-8); every event is in the log when answered, with
// the server's time.
func TestCollectIdentity(t *testing.T) {
	url, st := serveLiveStore(t, Options{})
	view := url + "/serve/collect/view"
	body := `{"websiteUuid":"` + shopUUID + `","productNumber":"P01"}`
	for _, tc := range []struct {
		name, body string
		hdr        []string
		user       string // "": a new one
		cookie     string // the Set-Cookie's attributes after the id; "": none
	}{
		{"the event's id", `{"websiteUuid":"` + shopUUID + `","productNumber":"P01","trackingUserId":"u-given"}`, []string{"Cookie", "retail_id=u-cookie"}, "u-given", ""},
		{"the event's id, no cookie: none made", `{"websiteUuid":"` + shopUUID + `","productNumber":"P01","trackingUserId":"u-given"}`, nil, "u-given", ""},
		{"the cookie's id", body, []string{"Cookie", "retail_id=u-cookie"}, "u-cookie", ""},
		{"a new id over http", body, nil, "", "; max-age=31536000; path=/; SameSite=Lax"},
		{"a new id behind https", body, []string{"X-Forwarded-Proto", "https"}, "", "; max-age=31536000; path=/; secure; SameSite=None"},
		// A cookie no event would take as a trackingUserId is replaced
		// like a missing one, or every event of its browser would fail.
		{"an over-long cookie: a new id", body, []string{"Cookie", "retail_id=" + strings.Repeat("a", events.MaxID+1)}, "", "; max-age=31536000; path=/; SameSite=Lax"},
		{"a non-UTF-8 cookie: a new id", body, []string{"Cookie", "retail_id=u-\xff\xfe"}, "", "; max-age=31536000; path=/; SameSite=Lax"},
	} {
		status, h, raw := send(t, "POST", view, "text/plain", tc.body, tc.hdr...)
		var got collected
		if err := json.Unmarshal(raw, &got); status != 200 || err != nil || !got.Success {
			t.Fatalf("%s: %d %s", tc.name, status, raw)
		}
		logged := lastEvent(t, st)
		if logged.User != got.User || logged.Time == 0 || got.Seq != st.Seq() {
			t.Errorf("%s: logged %+v at %d, answered %+v", tc.name, logged, st.Seq(), got)
		}
		setCookie := h.Get("Set-Cookie")
		if tc.user != "" {
			if got.User != tc.user || setCookie != "" {
				t.Errorf("%s: user %q, Set-Cookie %q; want %q and none", tc.name, got.User, setCookie, tc.user)
			}
			continue
		}
		if len(got.User) != 32 || setCookie != "retail_id="+got.User+tc.cookie {
			t.Errorf("%s: user %q, Set-Cookie %q; want a new 32-hex id and retail_id=<id>%s", tc.name, got.User, setCookie, tc.cookie)
		}
	}
}

// TestCollectErrors: a bad event is a 4xx naming the problem, and logs
// nothing.
func TestCollectErrors(t *testing.T) {
	url, st := serveLiveStore(t, Options{})
	site := `"websiteUuid":"` + shopUUID + `"`
	for _, tc := range []struct {
		name, kind, contentType, body string
		status                        int
		code, says                    string
	}{
		{"an unknown kind", "buy", "application/json", `{` + site + `}`, 400, "INVALID_REQUEST", `no event kind "buy"`},
		{"no website", "view", "application/json", `{"productNumber":"P01"}`, 400, "INVALID_REQUEST", "websiteUuid"},
		{"an unknown website", "view", "application/json", `{"websiteUuid":"00000000-0000-4000-8000-0000000000ff","productNumber":"P01"}`, 404, "NOT_FOUND", "no website"},
		{"an unknown member", "view", "application/json", `{` + site + `,"product":"P01"}`, 400, "INVALID_REQUEST", `unknown member "product"`},
		{"a member of another kind", "view", "application/json", `{` + site + `,"productNumber":"P01","orderNumber":"O1"}`, 400, "INVALID_REQUEST", "a view event has no orderNumber"},
		{"a kind that disagrees", "view", "application/json", `{` + site + `,"kind":"cart","productNumber":"P01"}`, 400, "INVALID_REQUEST", `the body says "cart"`},
		{"malformed JSON", "cart", "text/plain", `{` + site + `,"productNumbers":[`, 400, "INVALID_REQUEST", "malformed JSON"},
		{"a form", "view", "application/x-www-form-urlencoded", `a=b`, 415, "UNSUPPORTED_MEDIA_TYPE", "text/plain"},
		{"too large", "cart", "text/plain", `{` + site + `,"productNumbers":["` + strings.Repeat("x", events.MaxBytes) + `"]}`, 413, "BODY_TOO_LARGE", "exceeds"},
	} {
		seq := st.Seq()
		status, _, raw := send(t, "POST", url+"/serve/collect/"+tc.kind, tc.contentType, tc.body)
		var out struct {
			Success bool
			Error   struct{ Code, Message string }
		}
		_ = json.Unmarshal(raw, &out)
		if status != tc.status || out.Success || out.Error.Code != tc.code || !strings.Contains(out.Error.Message, tc.says) {
			t.Errorf("%s: %d %s, want %d %s saying %q", tc.name, status, raw, tc.status, tc.code, tc.says)
		}
		if st.Seq() != seq {
			t.Errorf("%s: the log moved from %d to %d", tc.name, seq, st.Seq())
		}
	}
	if status, _, _ := send(t, "GET", url+"/serve/collect/view", "", ""); status != http.StatusMethodNotAllowed {
		t.Errorf("GET /serve/collect/view: %d, want 405", status)
	}
}

// TestCollectBatch: POST /serve/collect logs a batch of events of any
// kinds whole once answered; events without a trackingUserId get the
// cookie's id, or one new id set in the cookie; a bad event anywhere
// refuses the batch with the event's index, and logs nothing.
func TestCollectBatch(t *testing.T) {
	url, st := serveLiveStore(t, Options{})
	site := `"websiteUuid":"` + shopUUID + `"`
	batch := `{"events":[{"kind":"view",` + site + `,"productNumber":"P01"},{"kind":"cart",` + site + `,"productNumbers":["P01"]},` +
		`{"kind":"view",` + site + `,"productNumber":"P02","trackingUserId":"u-given"}]}`
	logged := func(from uint64) []events.Event {
		var out []events.Event
		if err := st.Entries(from, func(e *store.Entry) error {
			evs, err := st.EntryEvents(e)
			if err != nil {
				return err
			}
			for _, raw := range evs {
				var ev events.Event
				if err := json.Unmarshal(raw, &ev); err != nil {
					return err
				}
				out = append(out, ev)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		hdr    []string
		cookie bool // a new id is set
	}{
		{"with a cookie", []string{"Cookie", "retail_id=u-cookie"}, false},
		{"without", nil, true},
	} {
		before := st.Seq()
		status, h, raw := send(t, "POST", url+"/serve/collect", "text/plain", batch, tc.hdr...)
		var got collected
		if err := json.Unmarshal(raw, &got); status != 200 || err != nil || !got.Success || got.Events != 3 || got.Seq != st.Seq() {
			t.Fatalf("%s: %d %s", tc.name, status, raw)
		}
		evs := logged(before)
		if len(evs) != 3 || evs[0].User != got.User || evs[1].User != got.User || evs[2].User != "u-given" || evs[1].Kind != events.Cart {
			t.Fatalf("%s: answered %+v, logged %+v", tc.name, got, evs)
		}
		if tc.cookie != (h.Get("Set-Cookie") != "") || !tc.cookie && got.User != "u-cookie" {
			t.Errorf("%s: user %q, Set-Cookie %q", tc.name, got.User, h.Get("Set-Cookie"))
		}
	}
	for _, tc := range []struct {
		name, body string
		status     int
		says       string
	}{
		{"an event without its kind", `{"events":[{"kind":"view",` + site + `,"productNumber":"P01"},{` + site + `,"productNumber":"P01"}]}`, 400, "events.1.kind: is required"},
		{"an event failing its check", `{"events":[{"kind":"view",` + site + `,"productNumber":"P01"},{"kind":"purchase",` + site + `,"productNumbers":["P01"]}]}`, 400, "events.1.orderNumber: is required"},
		{"a website not served", `{"events":[{"kind":"view","websiteUuid":"00000000-0000-4000-8000-0000000000ff","productNumber":"P01"}]}`, 404, "events.0.websiteUuid"},
		{"no events", `{"events":[]}`, 400, "events: is required"},
		{"an unknown member", `{"event":[]}`, 400, `unknown member "event"`},
		{"too large", `{"events":[` + strings.Repeat(`{"kind":"view",`+site+`,"url":"`+strings.Repeat("x", 2000)+`"},`, 600) + `]}`, 413, "exceeds"},
	} {
		seq := st.Seq()
		status, _, raw := send(t, "POST", url+"/serve/collect", "application/json", tc.body)
		var out struct {
			Success bool
			Error   struct{ Code, Field, Message string }
		}
		_ = json.Unmarshal(raw, &out)
		if status != tc.status || out.Success || !strings.Contains(out.Error.Field+": "+out.Error.Message, tc.says) && !strings.Contains(out.Error.Message, tc.says) {
			t.Errorf("%s: %d %s, want %d saying %q", tc.name, status, raw, tc.status, tc.says)
		}
		if st.Seq() != seq {
			t.Errorf("%s: the log moved from %d to %d", tc.name, seq, st.Seq())
		}
	}
}

// TestCollectOff: a server without a collector has no collect route.
func TestCollectOff(t *testing.T) {
	url := serveShop(t, shopSite(config.SearchVersion{}), hardware(), nil, Options{})
	status, _, raw := send(t, "POST", url+"/serve/collect/view", "application/json", `{"websiteUuid":"`+shopUUID+`","productNumber":"P01"}`)
	if status != 404 || !strings.Contains(string(raw), "takes no events") {
		t.Errorf("collect on a server without a collector: %d %s", status, raw)
	}
}

// TestRecomsFromCollectedEvents: through the server, a visitor's views
// sent to /serve/collect come back from /serve/recoms as RETARGETED for
// the same retail_id cookie, most recent first, and as TOP for anyone.
func TestRecomsFromCollectedEvents(t *testing.T) {
	url, _ := serveLiveStore(t, Options{})
	_, h, raw := send(t, "POST", url+"/serve/collect/view", "text/plain", `{"websiteUuid":"`+shopUUID+`","productNumber":"P01"}`)
	cookie := h.Get("Set-Cookie")
	id, _, _ := strings.Cut(strings.TrimPrefix(cookie, "retail_id="), ";")
	if id == "" {
		t.Fatalf("no retail_id cookie: %s", raw)
	}
	for _, pn := range []string{"P03", "P01"} {
		if status, _, raw := send(t, "POST", url+"/serve/collect/view", "text/plain", `{"websiteUuid":"`+shopUUID+`","productNumber":"`+pn+`"}`, "Cookie", "retail_id="+id); status != 200 {
			t.Fatalf("view %s: %d %s", pn, status, raw)
		}
	}
	body := `{"websiteUuid":"` + shopUUID + `","requests":[{"trackingKey":"seen","count":5,"fields":["productNumber"],"sources":[{"type":"RETARGETED"}]},{"trackingKey":"top","count":5,"fields":["productNumber"],"sources":[{"type":"TOP"}]}]}`
	status, _, raw := send(t, "POST", url+"/serve/recoms", "text/plain", body, "Cookie", "retail_id="+id)
	var got struct {
		Success   bool
		Responses []struct {
			TrackingKey string
			Success     bool
			Products    []struct{ ProductNumber string }
		}
	}
	if err := json.Unmarshal(raw, &got); status != 200 || err != nil || !got.Success || len(got.Responses) != 2 {
		t.Fatalf("recoms: %d %s", status, raw)
	}
	var seen, top []string
	for _, p := range got.Responses[0].Products {
		seen = append(seen, p.ProductNumber)
	}
	for _, p := range got.Responses[1].Products {
		top = append(top, p.ProductNumber)
	}
	// P01 viewed twice is first of TOP; the same call repeats nothing, so
	// TOP has only what RETARGETED did not take.
	if strings.Join(seen, " ") != "P01 P03" || len(top) != 0 {
		t.Errorf("RETARGETED %v, TOP %v; want P01 P03 and nothing left for TOP", seen, top)
	}
	status, _, raw = send(t, "POST", url+"/serve/recoms", "application/json", `{"websiteUuid":"`+shopUUID+`","requests":[{"trackingKey":"seen","count":5,"sources":[{"type":"RETARGETED"}]}]}`)
	if status != 200 || !strings.Contains(string(raw), `"code":"BAD_REQUEST"`) {
		t.Errorf("RETARGETED without the cookie: %d %s", status, raw)
	}
	if status, _, raw := send(t, "POST", url+"/serve/recoms", "application/json", `{"websiteUuid":"`+shopUUID+`","trackingUserId":"a","customerId":"b","requests":[{"key":"x"}]}`); status != 400 {
		t.Errorf("two ids: %d %s, want 400", status, raw)
	}
}
