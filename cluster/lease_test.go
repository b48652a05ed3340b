package cluster_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aisle-search/aisle/cluster"
	"github.com/aisle-search/aisle/cluster/clustertest"
)

// TestLeases on three nodes: one holder a website; another's Acquire
// names it; renewals keep it; a holder that stops renewing loses it
// after the TTL, to the next node, and its late Renew says so; a release
// frees it at once.
func TestLeases(t *testing.T) {
	nodes := clustertest.Nodes(t, 3)
	nc := clustertest.Connect(t, nodes...)
	const site, ttl = "00000000-0000-4000-8000-000000000001", time.Second
	var leases *cluster.Leases
	deadline := time.Now().Add(30 * time.Second)
	for { // the first JetStream leader election
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var err error
		leases, err = cluster.OpenLeases(ctx, nc, 3, ttl)
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	ctx := context.Background()
	a, err := leases.Acquire(ctx, site, "http://a:8080")
	if err != nil {
		t.Fatal(err)
	}
	var held *cluster.HeldError
	if _, err := leases.Acquire(ctx, site, "http://b:8080"); !errors.As(err, &held) || !errors.Is(err, cluster.ErrHeld) || held.Holder != "http://a:8080" {
		t.Fatalf("a second Acquire: %v, want cluster.ErrHeld naming a", err)
	}
	for range 4 { // renewed past the TTL
		time.Sleep(ttl / 3)
		if err := a.Renew(ctx); err != nil {
			t.Fatalf("renew: %v", err)
		}
	}
	if h, err := leases.Holder(ctx, site); err != nil || h != "http://a:8080" {
		t.Fatalf("holder after renewals: %q, %v", h, err)
	}

	// a stops renewing: b takes the lease once it expires.
	start := time.Now()
	var b *cluster.Lease
	for b == nil {
		b, err = leases.Acquire(ctx, site, "http://b:8080")
		if err != nil && !errors.Is(err, cluster.ErrHeld) {
			t.Fatal(err)
		}
		if time.Since(start) > 10*ttl {
			t.Fatalf("b never took the expired lease: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if took := time.Since(start); took < ttl/2 {
		t.Errorf("b took a's lease %s after a's last renewal, before it expired", took)
	}
	if err := a.Renew(ctx); !errors.Is(err, cluster.ErrLost) {
		t.Errorf("a's renewal after b took the lease: %v, want cluster.ErrLost", err)
	}
	if err := a.Release(ctx); !errors.Is(err, cluster.ErrLost) {
		t.Errorf("a's release after b took the lease: %v, want cluster.ErrLost", err)
	}
	if err := b.Release(ctx); err != nil {
		t.Fatalf("b's release: %v", err)
	}
	if _, err := leases.Acquire(ctx, site, "http://c:8080"); err != nil {
		t.Errorf("c's Acquire after b's release: %v", err)
	}
}
