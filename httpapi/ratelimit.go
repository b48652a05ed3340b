package httpapi

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"math"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
)

// Rate is how many requests a second one client may send to a group of
// routes, sustained, and how many at once after a pause (the bucket's
// size). A Rate of 0 a second sets no limit.
type Rate struct {
	PerSecond float64
	Burst     int
}

// RateLimits are the per-client limits of each group of public routes.
// A client is the connection's address, or, when that is one of
// TrustedProxies, the last address X-Forwarded-For names that is not a
// trusted proxy; IPv6 addresses count by their /64, which one host
// usually holds whole. A request past its client's limit is a 429 with
// Retry-After, and does no other work.
type RateLimits struct {
	// Collect limits POST /serve/collect/{kind} and /serve/collect, a
	// batch counting as its events (at most a burst's). DefaultRateLimits:
	// 20 a second, bursts of 100.
	Collect Rate
	// Search, Pages and Recoms limit /serve/search, /serve/pages/{key}
	// and /serve/recoms. Default: none.
	Search, Pages, Recoms Rate
	// TrustedProxies are the proxies in front of the server (load
	// balancers, CDNs) whose X-Forwarded-For is believed. Default none:
	// the header is ignored, so a client cannot name itself anew.
	TrustedProxies []netip.Prefix
	// MaxClients bounds how many clients each group remembers (about 64
	// bytes each); default 100,000. Past it, the clients whose buckets
	// have refilled are forgotten first, which changes nothing for them.
	MaxClients int
}

// DefaultRateLimits limits /serve/collect alone: 20 events a second per
// client, bursts of 100, which a shopper's browser never reaches and
// which bounds what one address can make the server write.
func DefaultRateLimits() RateLimits {
	return RateLimits{Collect: Rate{PerSecond: 20, Burst: 100}}
}

// routeGroup is a group of routes sharing one limit.
type routeGroup int

const (
	groupNone routeGroup = iota
	groupCollect
	groupSearch
	groupPages
	groupRecoms
	numGroups
)

// groupOf is the group of path.
func groupOf(path string) routeGroup {
	switch {
	case path == collectBatchPath || strings.HasPrefix(path, collectPrefix):
		return groupCollect
	case path == "/serve/search":
		return groupSearch
	case strings.HasPrefix(path, pagesPrefix):
		return groupPages
	case path == "/serve/recoms":
		return groupRecoms
	}
	return groupNone
}

// rateLimiter holds one limiter per group with a limit.
type rateLimiter struct {
	groups  [numGroups]*limiter
	proxies []netip.Prefix
}

func newRateLimiter(rl RateLimits) *rateLimiter {
	max := rl.MaxClients
	if max <= 0 {
		max = 100_000
	}
	r := &rateLimiter{proxies: rl.TrustedProxies}
	for g, rate := range map[routeGroup]Rate{groupCollect: rl.Collect, groupSearch: rl.Search, groupPages: rl.Pages, groupRecoms: rl.Recoms} {
		if rate.PerSecond > 0 {
			r.groups[g] = newLimiter(rate, max)
		}
	}
	return r
}

// take takes n requests' tokens of group for ctx's client (at most a
// full bucket's: a batch larger than a burst passes after a pause), or
// answers the 429 error to write.
func (r *rateLimiter) take(ctx *fasthttp.RequestCtx, group routeGroup, n int) error {
	l := r.groups[group]
	if l == nil || n <= 0 {
		return nil
	}
	ok, wait := l.take(r.client(ctx), min(float64(n), l.burst), time.Now().UnixNano())
	if ok {
		return nil
	}
	secs := int(math.Ceil(wait.Seconds()))
	ctx.Response.Header.Set("Retry-After", fmt.Sprint(max(secs, 1)))
	return &engine.Error{Kind: kindRateLimited, Code: "RATE_LIMITED",
		Message: fmt.Sprintf("too many requests from this address: at most %g a second (bursts of %d); retry in %d s", l.rate, int(l.burst), max(secs, 1))}
}

// client is the address ctx's request counts against: the peer, or
// behind trusted proxies the last untrusted address of X-Forwarded-For;
// an IPv6 address masked to its /64.
func (r *rateLimiter) client(ctx *fasthttp.RequestCtx) netip.Addr {
	peer, _ := netip.AddrFromSlice(ctx.RemoteIP())
	addr := peer.Unmap()
	if r.trusted(addr) {
		xff := ctx.Request.Header.Peek("X-Forwarded-For")
		for len(xff) > 0 {
			i := bytes.LastIndexByte(xff, ',')
			a, err := netip.ParseAddr(string(bytes.TrimSpace(xff[i+1:])))
			if err != nil {
				break
			}
			addr = a.Unmap()
			if !r.trusted(addr) {
				break
			}
			xff = xff[:max(i, 0)]
		}
	}
	if addr.Is6() {
		addr = netip.PrefixFrom(addr, 64).Masked().Addr()
	}
	return addr
}

func (r *rateLimiter) trusted(a netip.Addr) bool {
	for _, p := range r.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// limiter is a token bucket per client, in shards so that requests of
// different clients seldom wait on one lock.
type limiter struct {
	rate, burst float64 // tokens a second, tokens at most
	perShard    int     // clients a shard keeps at most
	seed        maphash.Seed
	shards      [64]limiterShard
}

type limiterShard struct {
	mu      sync.Mutex
	buckets map[netip.Addr]bucket
}

// bucket is a client's tokens at a time (Unix nanoseconds).
type bucket struct {
	tokens float64
	at     int64
}

func newLimiter(r Rate, maxClients int) *limiter {
	l := &limiter{rate: r.PerSecond, burst: float64(max(r.Burst, 1)), perShard: max(maxClients/64, 1), seed: maphash.MakeSeed()}
	for i := range l.shards {
		l.shards[i].buckets = map[netip.Addr]bucket{}
	}
	return l
}

// take takes n tokens from client's bucket at now; when it holds fewer,
// it takes none and says how long until it will hold n.
func (l *limiter) take(client netip.Addr, n float64, now int64) (ok bool, wait time.Duration) {
	b16 := client.As16()
	s := &l.shards[maphash.Bytes(l.seed, b16[:])%uint64(len(l.shards))]
	s.mu.Lock()
	defer s.mu.Unlock()
	b, known := s.buckets[client]
	if !known {
		if len(s.buckets) >= l.perShard {
			l.forget(s, now)
		}
		b = bucket{tokens: l.burst, at: now}
	}
	b.tokens = min(l.burst, b.tokens+float64(now-b.at)/1e9*l.rate)
	b.at = now
	if b.tokens < n {
		s.buckets[client] = b
		return false, time.Duration((n - b.tokens) / l.rate * 1e9)
	}
	b.tokens -= n
	s.buckets[client] = b
	return true, 0
}

// forget drops the buckets of a full shard that have refilled (a new
// bucket is the same); when none has, half of them, so memory stays
// bounded under a flood of addresses.
func (l *limiter) forget(s *limiterShard, now int64) {
	full := int64(l.burst / l.rate * 1e9)
	for a, b := range s.buckets {
		if now-b.at >= full {
			delete(s.buckets, a)
		}
	}
	for a := range s.buckets {
		if len(s.buckets) < l.perShard/2 {
			break
		}
		delete(s.buckets, a)
	}
}
