package events

import (
	"strings"
	"testing"
	"unsafe"
)

// TestCheckTrimsToOwnStrings: an id sent with spaces about it (up to a
// body's bytes) is trimmed to a string of its own, so what keeps the id
// (a box's key, a campaign's id in the analytics) keeps its bytes only,
// not all that was sent; an id without spaces is left as it is.
func TestCheckTrimsToOwnStrings(t *testing.T) {
	pad := strings.Repeat(" ", 30000)
	sent := map[string]string{}
	padded := func(name, id string) string {
		s := pad + id + pad
		sent[name] = s
		return s
	}
	e := Event{Kind: Purchase, Website: padded("websiteUuid", "w"), User: padded("trackingUserId", "u-1"), CustomerID: padded("customerId", "c-1"),
		OrderNumber: padded("orderNumber", "O-1"), Lines: []Line{{ProductNumber: padded("lines[0].productNumber", "P1")}}}
	click := Event{Kind: Click, Website: "w", ProductNumber: padded("productNumber", "P2"),
		Shown: &Shown{Source: SourceRecoms, Key: padded("shown.key", "box-a"), Campaign: padded("shown.retailMediaCampaignId", "spring")}}
	cart := Event{Kind: Cart, Website: "w", ProductNumbers: []string{padded("productNumbers[0]", "P3")}}
	for _, ev := range []*Event{&e, &click, &cart} {
		if err := Check(ev); err != nil {
			t.Fatal(err)
		}
	}
	for name, got := range map[string]string{"websiteUuid": e.Website, "trackingUserId": e.User, "customerId": e.CustomerID, "orderNumber": e.OrderNumber,
		"lines[0].productNumber": e.Lines[0].ProductNumber, "productNumber": click.ProductNumber, "shown.key": click.Shown.Key,
		"shown.retailMediaCampaignId": click.Shown.Campaign, "productNumbers[0]": cart.ProductNumbers[0]} {
		s := sent[name]
		if got != strings.TrimSpace(s) {
			t.Errorf("%s: %q, want %q", name, got, strings.TrimSpace(s))
		}
		base, at := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(got)))
		if base <= at && at < base+uintptr(len(s)) {
			t.Errorf("%s: the id trimmed is a part of the %d bytes sent", name, len(s))
		}
	}
	plain := Event{Kind: Click, Website: "w", ProductNumber: "P1", Shown: &Shown{Source: SourceRecoms, Key: "box-a"}}
	key := plain.Shown.Key
	if err := Check(&plain); err != nil || unsafe.StringData(plain.Shown.Key) != unsafe.StringData(key) {
		t.Errorf("an id without spaces was copied (%v)", err)
	}
}
