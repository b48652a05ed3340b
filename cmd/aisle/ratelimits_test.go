package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestRateLimitFlags: the rate flags read RATE[:BURST] (a burst of five
// seconds' worth by default), collect limited by default, the others
// not; trusted proxies are CIDRs or addresses; a bad value says which
// flag and what it wants.
func TestRateLimitFlags(t *testing.T) {
	f := serveFlags{rateCollect: "20:100", rateSearch: "0", ratePages: "0", rateRecoms: "0"}
	rl, err := f.rateLimits()
	if err != nil || rl.Collect.PerSecond != 20 || rl.Collect.Burst != 100 || rl.Search.PerSecond != 0 || rl.Recoms.PerSecond != 0 {
		t.Errorf("the defaults: %+v %v", rl, err)
	}
	f.rateSearch, f.trustedProxies = "50", "10.0.0.0/8, 192.0.2.7,2001:db8::/32"
	if rl, err = f.rateLimits(); err != nil || rl.Search.PerSecond != 50 || rl.Search.Burst != 250 || fmt.Sprint(rl.TrustedProxies) != "[10.0.0.0/8 192.0.2.7/32 2001:db8::/32]" {
		t.Errorf("search 50, three proxies: %+v %v", rl, err)
	}
	for _, tc := range []struct{ rate, proxies, says string }{
		{"fast", "", "--rate-pages (or AISLE_RATE_PAGES)"},
		{"-1", "", "want requests a second"},
		{"5:0", "", "the burst \"0\""},
		{"5", "10.0.0.0/33", "--trusted-proxies"},
	} {
		f := serveFlags{rateCollect: "0", rateSearch: "0", ratePages: tc.rate, rateRecoms: "0", trustedProxies: tc.proxies}
		if _, err := f.rateLimits(); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("pages %q, proxies %q: %v, want %q", tc.rate, tc.proxies, err, tc.says)
		}
	}
}

// TestServeLimitsCollectByDefault: aisle serve limits /serve/collect per
// client out of the box: past the burst of 100, events are 429 with
// Retry-After, and searches are not limited.
func TestServeLimitsCollectByDefault(t *testing.T) {
	s := startCLI(t, "serve", "--data", shopDir(t), "--addr", "127.0.0.1:0", "--admin-key", "k")
	limited, start := 0, time.Now()
	for range 150 {
		status, body := s.admin(t, "", "POST", "/serve/collect/view", "text/plain", `{"websiteUuid":"`+shopSite+`","productNumber":"R1"}`)
		switch {
		case status == 429 && strings.Contains(body, "RATE_LIMITED"):
			limited++
		case status != 200:
			t.Fatalf("an event: %d %s", status, body)
		}
	}
	// The burst, and 20 a second refilled while they were sent.
	took := time.Since(start).Seconds()
	if allowed := 150 - limited; allowed > 100+int(20*took)+1 || took < 2 && limited == 0 {
		t.Errorf("%d of 150 events in %.1fs answered, want at most the burst of 100 and 20 a second", allowed, took)
	}
	for range 150 {
		if n := s.total(t, "default", "drill"); n != 1 {
			t.Fatalf("a search: %d products", n)
		}
	}
}
