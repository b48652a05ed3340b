package httpapi

import (
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// TestRateLimitsThroughTheServer: past its client's limit a collect
// request is a 429 with Retry-After and a RATE_LIMITED body, and does
// nothing; a batch counts as its events; searches, unlimited, go on;
// once the bucket refills the client is served again.
func TestRateLimitsThroughTheServer(t *testing.T) {
	url, st := serveLiveStore(t, Options{RateLimits: RateLimits{Collect: Rate{PerSecond: 2, Burst: 3}}})
	view := `{"websiteUuid":"` + shopUUID + `","productNumber":"P01","trackingUserId":"u"}`
	batch := `{"events":[{"kind":"view","websiteUuid":"` + shopUUID + `","productNumber":"P01","trackingUserId":"u"},{"kind":"view","websiteUuid":"` + shopUUID + `","productNumber":"P02","trackingUserId":"u"}]}`
	if status, _, raw := send(t, "POST", url+"/serve/collect", "text/plain", batch); status != 200 {
		t.Fatalf("a batch of 2: %d %s", status, raw)
	}
	if status, _, raw := send(t, "POST", url+"/serve/collect/view", "text/plain", view); status != 200 {
		t.Fatalf("the third event: %d %s", status, raw)
	}
	seq := st.Seq()
	status, h, raw := send(t, "POST", url+"/serve/collect/view", "text/plain", view)
	retry, _ := strconv.Atoi(h.Get("Retry-After"))
	if status != 429 || retry < 1 || !strings.Contains(string(raw), `"code":"RATE_LIMITED"`) || st.Seq() != seq {
		t.Errorf("the fourth event: %d, Retry-After %q, %s; seq %d → %d", status, h.Get("Retry-After"), raw, seq, st.Seq())
	}
	for range 5 {
		if status, _, raw := send(t, "POST", url+"/serve/search", "text/plain", `{"query":"drill","key":"shop"}`); status != 200 {
			t.Fatalf("a search beside the limit: %d %s", status, raw)
		}
	}
	time.Sleep(600 * time.Millisecond) // a token at 2 a second
	if status, _, raw := send(t, "POST", url+"/serve/collect/view", "text/plain", view); status != 200 {
		t.Errorf("after the refill: %d %s", status, raw)
	}
}

// TestRateLimitClient: the client is the connection's address; behind
// a trusted proxy, the last address X-Forwarded-For names that is not a
// trusted proxy; from anyone else the header is ignored; IPv6 counts by
// /64.
func TestRateLimitClient(t *testing.T) {
	r := newRateLimiter(RateLimits{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	for _, tc := range []struct{ peer, xff, want string }{
		{"203.0.113.7", "", "203.0.113.7"},
		{"203.0.113.7", "198.51.100.1", "203.0.113.7"},
		{"10.1.2.3", "198.51.100.1", "198.51.100.1"},
		{"10.1.2.3", "1.1.1.1, 198.51.100.1, 10.9.9.9", "198.51.100.1"},
		{"10.1.2.3", "not an address", "10.1.2.3"},
		{"10.1.2.3", "", "10.1.2.3"},
		{"2001:db8:1:2:aaaa::1", "", "2001:db8:1:2::"},
		{"::ffff:203.0.113.7", "", "203.0.113.7"},
	} {
		var ctx fasthttp.RequestCtx
		var req fasthttp.Request
		if tc.xff != "" {
			req.Header.Set("X-Forwarded-For", tc.xff)
		}
		ctx.Init(&req, &net.TCPAddr{IP: net.ParseIP(tc.peer), Port: 4000}, nil)
		if got := r.client(&ctx); got.String() != tc.want {
			t.Errorf("peer %s, X-Forwarded-For %q: client %s, want %s", tc.peer, tc.xff, got, tc.want)
		}
	}
}

// TestLimiterBoundsItsClients: a flood of distinct addresses keeps at
// most MaxClients buckets; a request for more than a bucket holds waits.
func TestLimiterBoundsItsClients(t *testing.T) {
	l := newLimiter(Rate{PerSecond: 1, Burst: 2}, 6400)
	now := time.Now().UnixNano()
	for i := range 200_000 {
		a := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		if ok, _ := l.take(a, 1, now); !ok {
			t.Fatalf("a new address was limited: %s", a)
		}
	}
	n := 0
	for i := range l.shards {
		n += len(l.shards[i].buckets)
	}
	if n > 6400 {
		t.Errorf("%d buckets after a flood of 200,000 addresses, at most 6,400", n)
	}
	if ok, wait := l.take(netip.MustParseAddr("192.0.2.2"), 3, now); ok || wait <= 0 {
		t.Errorf("3 tokens from a bucket of 2: %v, %v", ok, wait)
	}
}
