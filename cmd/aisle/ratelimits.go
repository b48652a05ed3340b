package main

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/aisle-search/aisle/httpapi"
)

// defaultRates are the rate flags' defaults (httpapi.DefaultRateLimits):
// collect limited, the rest not.
var defaultRates = map[string]string{"rate-collect": "20:100", "rate-search": "0", "rate-pages": "0", "rate-recoms": "0"}

// rateLimits are the serve flags' rate limits; an empty flag is its
// default.
func (f *serveFlags) rateLimits() (httpapi.RateLimits, error) {
	var rl httpapi.RateLimits
	for _, r := range []struct {
		flag, value string
		to          *httpapi.Rate
	}{{"rate-collect", f.rateCollect, &rl.Collect}, {"rate-search", f.rateSearch, &rl.Search},
		{"rate-pages", f.ratePages, &rl.Pages}, {"rate-recoms", f.rateRecoms, &rl.Recoms}} {
		value := r.value
		if value == "" {
			value = defaultRates[r.flag]
		}
		rate, err := parseRate(value)
		if err != nil {
			return rl, fmt.Errorf("serve: --%s (or AISLE_%s) %q: %w", r.flag, strings.ToUpper(strings.ReplaceAll(r.flag, "-", "_")), r.value, err)
		}
		*r.to = rate
	}
	for _, c := range strings.Split(f.trustedProxies, ",") {
		if c = strings.TrimSpace(c); c == "" {
			continue
		}
		p, err := netip.ParsePrefix(c)
		if err != nil {
			if a, aerr := netip.ParseAddr(c); aerr == nil {
				p, err = a.Prefix(a.BitLen())
			}
		}
		if err != nil {
			return rl, fmt.Errorf("serve: --trusted-proxies (or AISLE_TRUSTED_PROXIES) %q: want addresses or CIDRs such as 10.0.0.0/8, comma-separated", c)
		}
		rl.TrustedProxies = append(rl.TrustedProxies, p.Masked())
	}
	return rl, nil
}

// parseRate reads "RATE[:BURST]": requests a second (0: no limit) and
// the bucket's size, 5×RATE (at least 1) when not given.
func parseRate(s string) (httpapi.Rate, error) {
	perSecond, burst, hasBurst := strings.Cut(strings.TrimSpace(s), ":")
	r, err := strconv.ParseFloat(perSecond, 64)
	if err != nil || r < 0 || r > 1e9 {
		return httpapi.Rate{}, fmt.Errorf("want requests a second (0 for no limit), and :BURST if wanted, such as 20:100")
	}
	b := max(int(5*r), 1)
	if hasBurst {
		if b, err = strconv.Atoi(burst); err != nil || b < 1 {
			return httpapi.Rate{}, fmt.Errorf("the burst %q: want a whole number of requests, 1 or more", burst)
		}
	}
	return httpapi.Rate{PerSecond: r, Burst: b}, nil
}
