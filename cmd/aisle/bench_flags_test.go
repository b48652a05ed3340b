package main

import (
	"errors"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestParseBenchFlags: aisle bench's flags, their defaults, each set,
// and every refusal naming the flag at fault.
func TestParseBenchFlags(t *testing.T) {
	defaults := benchFlags{catalog: "demo", products: 100000, engines: "aisle", queries: 500, rounds: 2,
		concurrency: 8, duration: 5 * time.Second, rateSearch: true, p99: 20 * time.Millisecond,
		updates: 1000, writeBatch: 5000, writeRate: 5000, liveBudget: 3 * time.Minute,
		eventBatch: 50, hostileRounds: 20}
	with := func(change func(*benchFlags)) benchFlags {
		f := defaults
		change(&f)
		return f
	}
	tests := []struct {
		args  []string
		want  benchFlags
		peers bool
	}{
		{nil, defaults, false},
		{[]string{"--catalog", "flipkart", "--shared", "/data", "--data", "/tmp/d", "--queries", "7", "--rounds", "3"},
			with(func(f *benchFlags) {
				f.catalog, f.shared, f.data, f.queries, f.rounds = "flipkart", "/data", "/tmp/d", 7, 3
			}), false},
		{[]string{"--products", "1000000", "--concurrency", "2", "--duration", "2s", "--rate-search=false", "--p99", "5ms", "--json", "r.json"},
			with(func(f *benchFlags) {
				f.products, f.concurrency, f.duration, f.rateSearch, f.p99, f.jsonOut = 1000000, 2, 2*time.Second, false, 5*time.Millisecond, "r.json"
			}), false},
		{[]string{"--live", "--updates", "300", "--write-batch", "50", "--write-rate", "0", "--live-budget", "2m"},
			with(func(f *benchFlags) {
				f.live, f.updates, f.writeBatch, f.writeRate, f.liveBudget = true, 300, 50, 0, 2*time.Minute
			}), false},
		{[]string{"--events", "--event-batch", "500"}, with(func(f *benchFlags) { f.events, f.eventBatch = true, 500 }), false},
		{[]string{"--hostile", "--hostile-rounds", "2"}, with(func(f *benchFlags) { f.hostile, f.hostileRounds = true, 2 }), false},
		{[]string{"--engines", "aisle,bleve,postgres,sphinx", "--svg", "c.svg"},
			with(func(f *benchFlags) { f.engines, f.svgOut = "aisle,bleve,postgres,sphinx", "c.svg" }), true},
		{[]string{"--engines", "bleve"}, with(func(f *benchFlags) { f.engines = "bleve" }), true},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			got, err := parseBenchFlags(tc.args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
			if got.peers() != tc.peers {
				t.Fatalf("peers() = %v", got.peers())
			}
		})
	}

	refusals := []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--products", "0"}, "--products 0: want at least 1"},
		{[]string{"--concurrency", "0"}, "--concurrency 0: want at least 1"},
		{[]string{"--duration", "-1s"}, "--duration -1s: want a positive duration"},
		{[]string{"--queries", "0"}, "--queries 0 --rounds 2: want at least 1 each"},
		{[]string{"--rounds", "0"}, "--queries 500 --rounds 0: want at least 1 each"},
		{[]string{"--p99", "0s"}, "--p99 0s: want a positive limit"},
		{[]string{"--event-batch", "0"}, "--event-batch 0: want 1 to 500"},
		{[]string{"--event-batch", "501"}, "--event-batch 501: want 1 to 500"},
		{[]string{"--engines", "aisle,lucene"}, `unknown engine "lucene"`},
		{[]string{"--engines", ""}, `unknown engine ""`},
		{[]string{"--products", "many"}, `invalid value "many" for flag -products`},
	}
	for _, tc := range refusals {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			if _, err := parseBenchFlags(tc.args, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := parseBenchFlags([]string{"-h"}, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
}

// TestPeerArgs: a peer run passes peerbench the run's catalog, size,
// engines, requests and outputs.
func TestPeerArgs(t *testing.T) {
	f, err := parseBenchFlags([]string{"--engines", "aisle,bleve", "--catalog", "flipkart", "--products", "20", "--queries", "9", "--rounds", "1", "--json", "r.json"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--catalog", "flipkart", "--products", "20", "--shared", "", "--engines", "aisle,bleve", "--queries", "9", "--rounds", "1", "--json", "r.json", "--svg", ""}
	if got := f.peerArgs(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
