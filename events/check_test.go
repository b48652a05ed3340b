package events

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/internal/golden"
)

// decodeEvent decodes body strictly, as the server does, with kind set.
func decodeEvent(kind string, body []byte) (Event, error) {
	var e Event
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return e, err
	}
	e.Kind = Kind(kind)
	return e, nil
}

// TestDecode: a behaviour log's line decodes strictly, and its errors
// name the member.
func TestDecode(t *testing.T) {
	for _, tc := range []struct{ line, err string }{
		{`{"kind":"view","websiteUuid":"w","productNumber":"P1","time":1764000000000}`, ""},
		{`{"websiteUuid":"w","productNumber":"P1"}`, "kind: is required: one of view, click, cart, purchase, search or pageview"},
		{`{"kind":"view","websiteUuid":"w","sku":"P1"}`, `sku: unknown member "sku"`},
		{`{"kind":"view","websiteUuid":"w","time":"today"}`, "time: expected a number, got string"},
		{`{"kind":"view",`, "malformed JSON"},
		{`{"kind":"view"} {"kind":"cart"}`, "more than one JSON value"},
	} {
		_, err := Decode([]byte(tc.line))
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Decode(%s): %v, want %q", tc.line, err, tc.err)
		}
	}
}

// TestCheck: every case of testdata/cases.txt, checked, against
// testdata/check.golden (go test ./events -run TestCheck -update).
func TestCheck(t *testing.T) {
	f, err := os.Open("testdata/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, body, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("case %q: want a kind, a tab and a body", line)
		}
		e, err := decodeEvent(kind, []byte(body))
		if err != nil {
			t.Fatalf("case %q does not decode: %v", line, err)
		}
		fmt.Fprintf(&out, "%s %s\n", kind, body)
		if err := Check(&e); err != nil {
			fmt.Fprintf(&out, "  error: %v\n", err)
			continue
		}
		got, _ := json.Marshal(&e)
		fmt.Fprintf(&out, "  ok: %s\n", got)
	}
	golden.Check(t, "check.golden", []byte(out.String()))
}

// TestCheckLimits: the sizes Check bounds.
func TestCheckLimits(t *testing.T) {
	long := strings.Repeat("x", MaxID+1)
	many := make([]string, MaxProducts+1)
	for i := range many {
		many[i] = fmt.Sprint("P", i)
	}
	for _, tc := range []struct {
		name  string
		e     Event
		field string
	}{
		{"a long product number", Event{Kind: View, Website: "w", ProductNumber: long}, "productNumber"},
		{"a long tracking id", Event{Kind: View, Website: "w", ProductNumber: "P", User: long}, "trackingUserId"},
		{"a long url", Event{Kind: Pageview, Website: "w", URL: strings.Repeat("u", MaxText+1)}, "url"},
		{"a long query", Event{Kind: Search, Website: "w", Query: strings.Repeat("q", MaxText+1), Results: new(int)}, "query"},
		{"a large cart", Event{Kind: Cart, Website: "w", ProductNumbers: many}, "productNumbers"},
		{"a bad UTF-8 id", Event{Kind: View, Website: "w", ProductNumber: "P\xff"}, "productNumber"},
		{"a long shown key", Event{Kind: Click, Website: "w", ProductNumber: "P", Shown: &Shown{Source: SourcePage, Key: long}}, "shown.key"},
	} {
		err := Check(&tc.e)
		e, ok := err.(*Error)
		if !ok || e.Field != tc.field {
			t.Errorf("%s: %v, want an error about %s", tc.name, err, tc.field)
		}
	}
	ok := Event{Kind: Cart, Website: "w", ProductNumbers: many[:MaxProducts]}
	if err := Check(&ok); err != nil {
		t.Errorf("a cart of %d products: %v", MaxProducts, err)
	}
}

// TestValidID: ValidID says yes exactly when Check takes the string as
// a non-empty trackingUserId.
func TestValidID(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"u-1", true}, {" u-1 ", true}, {strings.Repeat("x", MaxID), true}, {"Müller", true},
		{"", false}, {"   ", false}, {strings.Repeat("x", MaxID+1), false}, {"u\xff", false},
	} {
		e := Event{Kind: View, Website: "w", ProductNumber: "P", User: tc.id}
		checked := Check(&e) == nil && e.User != ""
		if got := ValidID(tc.id); got != tc.want || checked != tc.want {
			t.Errorf("ValidID(%q) = %v, Check takes it: %v; want %v", tc.id, got, checked, tc.want)
		}
	}
}

// FuzzCheck: any body of any kind decodes and checks without a panic,
// and an event Check accepts survives its JSON unchanged (the log keeps
// the JSON) and is accepted again.
func FuzzCheck(f *testing.F) {
	sc, err := os.ReadFile("testdata/cases.txt")
	if err != nil {
		f.Fatal(err)
	}
	for line := range strings.Lines(string(sc)) {
		if kind, body, ok := strings.Cut(strings.TrimSpace(line), "\t"); ok && !strings.HasPrefix(kind, "#") {
			f.Add(kind, []byte(body))
		}
	}
	f.Fuzz(func(t *testing.T, kind string, body []byte) {
		e, err := decodeEvent(kind, body)
		if err != nil || Check(&e) != nil {
			return
		}
		data, err := json.Marshal(&e)
		if err != nil {
			t.Fatalf("an accepted event does not encode: %v", err)
		}
		var again Event
		if err := json.Unmarshal(data, &again); err != nil {
			t.Fatalf("%s does not decode: %v", data, err)
		}
		if err := Check(&again); err != nil {
			t.Fatalf("%s was accepted, then refused: %v", data, err)
		}
		if data2, _ := json.Marshal(&again); !bytes.Equal(data, data2) {
			t.Fatalf("the log's JSON changed on a round trip:\n%s\n%s", data, data2)
		}
	})
}

// FuzzDecodeChecked: the fast path of DecodeChecked answers as the
// strict one for any line: the same event, JSON and error.
func FuzzDecodeChecked(f *testing.F) {
	for _, line := range []string{
		`{"kind":"view","websiteUuid":"w","time":1764000000000,"trackingUserId":"u","productNumber":"P1"}`,
		`{"kind":"view","websiteUuid":"w","productNumber":" P1 "}`,
		`{"kind":"view","websiteUuid":"w","productNumber":"P1","sku":"x"}`,
		`{"Kind":"view","websiteUuid":"w","productNumber":"P1"}`,
		`{"kind":"view","websiteUuid":"w","productNumber":"P1","productNumber":"P2"}`,
		`{"kind":"purchase","websiteUuid":"w","orderNumber":"O","lines":[{"productNumber":"A","quantity":1}]}`,
		`{"kind":"cart","websiteUuid":"w","productNumbers":[]}`,
		`{"kind":"click","websiteUuid":"w","productNumber":"P","shown":{"source":"search","key":"k","position":2,"x":1}}`,
		`{"kind":"click","websiteUuid":"w","productNumber":"P","shown":{"source":"search","key":"k","position":2}}`,
		`{"kind":"search","websiteUuid":"w","query":"q","results":0}`,
	} {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		e1, d1, err1 := DecodeChecked(line)
		e2, d2, err2 := decodeChecked(line)
		if fmt.Sprint(err1) != fmt.Sprint(err2) || !bytes.Equal(d1, d2) {
			t.Fatalf("%s:\nfast   %s %v\nstrict %s %v", line, d1, err1, d2, err2)
		}
		if err1 == nil && !reflect.DeepEqual(e1, e2) {
			t.Fatalf("%s: events differ:\n%+v\n%+v", line, e1, e2)
		}
	})
}
