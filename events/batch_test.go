package events

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestDecodeBatch: a batch body decodes strictly, and its errors name
// the event and the member.
func TestDecodeBatch(t *testing.T) {
	view := `{"kind":"view","websiteUuid":"w","productNumber":"P1"}`
	many := `{"events":[` + strings.Repeat(view+",", MaxBatch) + view + `]}`
	order := func(n int) string {
		return `{"kind":"purchase","websiteUuid":"w","orderNumber":"o","productNumbers":["` + strings.Repeat(`P1","`, n-1) + `P1"]}`
	}
	orders := func(n, each int) string {
		return `{"events":[` + strings.Repeat(order(each)+",", n-1) + order(each) + `]}`
	}
	for _, tc := range []struct {
		body string
		n    int
		err  string
	}{
		{`{"events":[` + view + `,{"kind":"cart","websiteUuid":"w","productNumbers":["P1"]}]}`, 2, ""},
		{`{"events":[]}`, 0, "events: is required: a list of 1 to 500 events"},
		{`{}`, 0, "events: is required"},
		{many, 0, "events: 501 events: at most 500 in one batch"},
		{orders(5, 1000), 5, ""},
		{orders(6, 1000), 0, "events: name more than 5000 product numbers together"},
		{orders(500, 11), 0, "events: name more than 5000 product numbers together"},
		{`{"events":[` + view + `],"user":"u"}`, 0, `user: unknown member "user"`},
		{`{"events":[` + view + `,{"kind":"view","websiteUuid":"w","sku":"P1"}]}`, 0, `events.1.sku: unknown member "sku"`},
		{`{"events":[{"websiteUuid":"w","productNumber":"P1"}]}`, 0, "events.0.kind: is required"},
		{`{"events":[` + view + `]} {}`, 0, "more than one JSON value"},
		{`{"events":{"kind":"view"}}`, 0, "events: expected"},
		{`[` + view + `]`, 0, "expected"},
	} {
		evs, err := DecodeBatch([]byte(tc.body))
		name := tc.body[:min(60, len(tc.body))]
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, want %q", name, err, tc.err)
		case len(evs) != tc.n:
			t.Errorf("%s: %d events, want %d", name, len(evs), tc.n)
		}
	}
}

// FuzzDecodeBatch: any body decodes or is refused with an *Error, and
// every event decoded passes or fails Check without a panic.
func FuzzDecodeBatch(f *testing.F) {
	f.Add([]byte(`{"events":[{"kind":"view","websiteUuid":"w","productNumber":"P1"}]}`))
	f.Add([]byte(`{"events":[{"kind":"purchase","websiteUuid":"w","orderNumber":"O","lines":[{"productNumber":"A","quantity":2}]}]}`))
	f.Add([]byte(`{"events":[]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		evs, err := DecodeBatch(body)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T %v: not an *Error", err, err)
			}
			return
		}
		if len(evs) == 0 || len(evs) > MaxBatch {
			t.Fatalf("%d events accepted", len(evs))
		}
		for i := range evs {
			_ = fmt.Sprint(Check(&evs[i]))
		}
	})
}
