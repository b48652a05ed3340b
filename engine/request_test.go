package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/internal/golden"
)

// TestRequestLimits: "count ≤ 1000; start + count ≤ 100,000; at most 100
// filters; query ≤ 512 bytes" (docs/decisions.md "Limits"), a negative
// start or count, a missing count ("count | number | yes", spec), and the
// enumerations format and deviceType. Requests at each limit are
// answered; one past it is an invalid request naming the member. The
// messages are in testdata/request-errors.txt.
func TestRequestLimits(t *testing.T) {
	g := shopGen(t)
	filters := func(n int) string {
		return `["brand:x"` + strings.Repeat(`,"brand:y"`, n-1) + `]`
	}
	query := func(n int) string { return strings.Repeat("a", n) }
	// show writes a body with its long runs counted, for messages and
	// the golden file.
	show := func(body string) string {
		for _, run := range []string{"a", "é", `,"brand:y"`} {
			if n := strings.Count(body, run); n > 9 && strings.Contains(body, strings.Repeat(run, n)) {
				body = strings.Replace(body, strings.Repeat(run, n), fmt.Sprintf("<%d × %s>", n, run), 1)
			}
		}
		return body
	}
	var report strings.Builder
	for _, tc := range []struct {
		body  string
		field string // "" when the request is valid
	}{
		{`{"key":"shop"}`, "query"},
		{`{"query":"x"}`, "key"},
		{`{"query":"x","key":""}`, "key"},
		{`{"query":"` + query(MaxQuery) + `","key":"shop"}`, ""},
		{`{"query":"` + query(MaxQuery+1) + `","key":"shop"}`, "query"},
		{`{"query":"` + strings.Repeat("é", MaxQuery/2) + `","key":"shop"}`, ""},
		{`{"query":"` + strings.Repeat("é", MaxQuery/2) + `a","key":"shop"}`, "query"},
		{`{"query":"x","key":"shop","format":"json"}`, ""},
		{`{"query":"x","key":"shop","format":"html"}`, ""},
		{`{"query":"x","key":"shop","format":"xml"}`, "format"},
		{`{"query":"x","key":"shop","deviceType":"DESKTOP"}`, ""},
		{`{"query":"x","key":"shop","deviceType":"MOBILE"}`, ""},
		{`{"query":"x","key":"shop","deviceType":"mobile"}`, "deviceType"},
		{`{"query":"x","key":"shop","products":{}}`, "products.count"},
		{`{"query":"x","key":"shop","products":{"start":0}}`, "products.count"},
		{`{"query":"x","key":"shop","products":{"count":0}}`, ""},
		{`{"query":"x","key":"shop","products":{"count":-1}}`, "products.count"},
		{`{"query":"x","key":"shop","products":{"count":1000}}`, ""},
		{`{"query":"x","key":"shop","products":{"count":1001}}`, "products.count"},
		{`{"query":"x","key":"shop","products":{"start":0,"count":1}}`, ""},
		{`{"query":"x","key":"shop","products":{"start":-1,"count":1}}`, "products.start"},
		{`{"query":"x","key":"shop","products":{"start":-1,"count":-1}}`, "products.start"},
		{`{"query":"x","key":"shop","products":{"start":99000,"count":1000}}`, ""},
		{`{"query":"x","key":"shop","products":{"start":99001,"count":1000}}`, "products.start"},
		{`{"query":"x","key":"shop","products":{"start":100000,"count":0}}`, ""},
		{`{"query":"x","key":"shop","products":{"start":100001,"count":0}}`, "products.start"},
		{`{"query":"x","key":"shop","products":{"start":9223372036854775807,"count":1}}`, "products.start"},
		{`{"query":"x","key":"shop","products":{"count":1,"filters":` + filters(MaxFilters) + `}}`, ""},
		{`{"query":"x","key":"shop","products":{"count":1,"filters":` + filters(MaxFilters+1) + `}}`, "products.filters"},
		{`{"query":"x","key":"shop","products":{"count":1,"fields":` + filters(MaxFields) + `}}`, ""},
		{`{"query":"x","key":"shop","products":{"count":1,"fields":` + filters(MaxFields+1) + `}}`, "products.fields"},
		{`{"query":"x","key":"shop","brands":{"count":1,"fields":` + filters(MaxFields+1) + `}}`, "brands.fields"},
		{`{"query":"x","key":"shop","categories":{"start":1}}`, "categories.count"},
		{`{"query":"x","key":"shop","brands":{"count":1001}}`, "brands.count"},
		{`{"query":"x","key":"shop","sitePages":{"start":-1,"count":1}}`, "sitePages.start"},
		{`{"query":"x","key":"shop","blogPosts":{"start":99999,"count":2}}`, "blogPosts.start"},
		{`{"query":"x","key":"shop","blogPosts":{"start":99999,"count":1}}`, ""},
		{`{"query":"x","key":"shop","redirects":{"count":-2}}`, "redirects.count"},
		{`{"query":"x","key":"shop","redirects":{"start":100000,"count":1}}`, "redirects.start"},
		{`{"query":"x","key":"shop","redirects":{"start":5,"count":1000}}`, ""},
		{`{"query":"x","key":"shop","products":{"count":1},"categories":{"count":1},"brands":{"count":1},"sitePages":{"count":1},"blogPosts":{"count":1},"redirects":{"count":1}}`, ""},
	} {
		req := shopRequest(t, tc.body)
		verr := req.Validate()
		_, serr := g.Search(req)
		if (verr == nil) != (serr == nil) {
			t.Errorf("%s: Validate says %v, Search %v", show(tc.body), verr, serr)
		}
		if tc.field == "" {
			if verr != nil {
				t.Errorf("%s: %v, want it answered", show(tc.body), verr)
			}
			continue
		}
		var e *Error
		if !as(verr, &e) || e.Kind != KindInvalid || e.Code != "INVALID_REQUEST" || e.Field != tc.field {
			t.Errorf("%s: %#v, want an invalid request about %s", show(tc.body), verr, tc.field)
			continue
		}
		fmt.Fprintf(&report, "%s\n  %s %s: %s\n", show(tc.body), e.Code, e.Field, e.Message)
	}
	golden.Check(t, "request-errors.txt", []byte(report.String()))
}
