package config

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/internal/expect"
	"github.com/aisle-search/aisle/internal/golden"
)

// TestDefaultIsValid: the configuration of a catalog imported without
// one is valid with a generated website id, and each id is new.
func TestDefaultIsValid(t *testing.T) {
	a, b := NewUUID(), NewUUID()
	if err := Default(a).Validate(); err != nil {
		t.Fatal(err)
	}
	if a == b || a[14] != '4' || !strings.ContainsRune("89ab", rune(a[19])) {
		t.Errorf("NewUUID: %s then %s, want distinct version 4 UUIDs", a, b)
	}
}

// TestDocumentedExampleParses: docs/configuration.md, "A configuration
// file is JSON ... it is a complete example": the example in the reference
// is a configuration Parse accepts, with the members it shows.
func TestDocumentedExampleParses(t *testing.T) {
	doc, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```json\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/configuration.md has no ```json example")
	}
	f, err := Parse([]byte(example))
	if err != nil {
		t.Fatalf("the documented example is refused: %v", err)
	}
	w := &f.Websites[0]
	if w.UUID != "3f6c1a9e-5b2d-4c8e-9a71-2d4e6f8b0c13" || len(w.IndexedFields) != 6 || len(w.Search) != 1 {
		t.Fatalf("website %+v", w)
	}
	v := w.Search[0].Versions[0]
	if w.Search[0].Key != "main" || v.Status != StatusLive || len(v.Fields) != 3 || len(v.Facets) != 1 || len(v.Sorting) != 1 ||
		len(v.Synonyms) != 2 || len(v.Redirects) != 1 || v.InitialContent == nil || v.InitialContent.Count != 12 ||
		v.Devices["MOBILE"].MaxFacetValues != 10 || v.MaxFacetValues != 100 {
		t.Fatalf("version %+v", v)
	}
}

// baseJSON is a valid configuration using every member, for the tests to
// change one thing in.
const baseJSON = `{"websites":[{"uuid":"00000000-0000-4000-8000-000000000001","name":"W","requireApiKey":false,"apiKeys":["k"],
 "indexedFields":[{"name":"brand","type":"keyword"},{"name":"hierarchies","type":"hierarchy"},
   {"name":"price","type":"number","sortable":true},{"name":"inStock","type":"boolean"},
   {"name":"created","type":"date","sortable":true},{"name":"title","type":"text","sortable":true}],
 "searchConfigs":[{"key":"main","versions":[{"id":1,"status":"live",
   "fields":[{"name":"title","weight":5},{"name":"brand","weight":3}],
   "facets":[{"field":"brand","type":"LIST","title":"Brand"}],
   "sorting":[{"field":"price","title":"Price","ascendingText":"Low","descendingText":"High"}],
   "synonyms":[{"terms":["sofa","couch"]},{"from":"tv","terms":["television"]}],
   "redirects":[{"queries":["returns"],"url":"https://shop/returns","trackingCode":"r"}],
   "initialContent":{"filters":["isOnSale:true"],"sorting":["price asc"],"count":12},
   "devices":{"MOBILE":{"maxFacetValues":10,"facets":[{"field":"inStock","type":"BOOLEAN","title":"Stock"}],
     "sorting":[{"field":"created","title":"New"}]}},
   "maxFacetValues":100,"template":"{{.Total}}"}]}]}]}`

// at walks a decoded document: string steps are members, int steps are
// array indexes. It returns the object there.
func at(t *testing.T, doc any, path ...any) map[string]any {
	t.Helper()
	for _, step := range path {
		switch s := step.(type) {
		case string:
			doc = doc.(map[string]any)[s]
		case int:
			doc = doc.([]any)[s]
		}
	}
	m, ok := doc.(map[string]any)
	if !ok {
		t.Fatalf("%v is not an object", path)
	}
	return m
}

var (
	website = []any{"websites", 0}
	version = []any{"websites", 0, "searchConfigs", 0, "versions", 0}
)

func path(base []any, more ...any) []any { return append(append([]any{}, base...), more...) }

// parseCase changes baseJSON and says whether Parse must accept the
// result.
type parseCase struct {
	name   string
	change func(t *testing.T, doc map[string]any)
	ok     bool
}

// set returns a change that sets member name of the object at p.
func set(p []any, name string, v any) func(*testing.T, map[string]any) {
	return func(t *testing.T, doc map[string]any) { at(t, doc, p...)[name] = v }
}

// checkCases parses each case's document, fails the test when Parse
// accepts or refuses against the case, and compares every outcome (ok or
// the error) with the golden file, so the messages are reviewed.
func checkCases(t *testing.T, goldenName string, cases []parseCase) {
	t.Helper()
	var report strings.Builder
	for _, tc := range expect.Some(t, goldenName+" cases", cases) {
		var doc map[string]any
		if err := json.Unmarshal([]byte(baseJSON), &doc); err != nil {
			t.Fatal(err)
		}
		tc.change(t, doc)
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Parse(data)
		outcome := "ok"
		if err != nil {
			outcome = err.Error()
		}
		if (err == nil) != tc.ok {
			t.Errorf("%s: Parse = %s, want ok %v", tc.name, outcome, tc.ok)
		}
		fmt.Fprintf(&report, "%s:\n  %s\n", tc.name, outcome)
	}
	golden.Check(t, goldenName, []byte(report.String()))
}

// TestUnknownMembersAreErrors: docs/configuration.md, "Unknown members are
// errors, so a misspelt setting is reported rather than ignored", at every
// level of the file.
func TestUnknownMembersAreErrors(t *testing.T) {
	var cases []parseCase
	for _, p := range [][]any{
		{},
		website,
		path(website, "indexedFields", 0),
		path(website, "searchConfigs", 0),
		version,
		path(version, "fields", 0),
		path(version, "facets", 0),
		path(version, "sorting", 0),
		path(version, "synonyms", 0),
		path(version, "redirects", 0),
		path(version, "initialContent"),
		path(version, "devices", "MOBILE"),
		path(version, "devices", "MOBILE", "facets", 0),
	} {
		cases = append(cases, parseCase{name: fmt.Sprintf("misspelt member in %v", p), change: set(p, "sortabel", true)})
	}
	checkCases(t, "unknown_members.txt", cases)
}

// TestFieldWeightBounds: docs/configuration.md, "fields: searchable text
// fields and BM25F weights (0–100)", bounds included.
func TestFieldWeightBounds(t *testing.T) {
	var cases []parseCase
	for _, tc := range []struct {
		weight float64
		ok     bool
	}{{-0.5, false}, {0, true}, {0.5, true}, {100, true}, {100.5, false}, {1000, false}} {
		cases = append(cases, parseCase{name: fmt.Sprintf("weight %v", tc.weight), change: set(path(version, "fields", 1), "weight", tc.weight), ok: tc.ok})
	}
	for _, tc := range []struct {
		b  float64
		ok bool
	}{{-0.1, false}, {0, true}, {1, true}, {1.1, false}} {
		cases = append(cases, parseCase{name: fmt.Sprintf("lengthNormalization %v", tc.b), change: set(path(version, "fields", 1), "lengthNormalization", tc.b), ok: tc.ok})
	}
	checkCases(t, "field_weights.txt", cases)
}

// TestSearchableFieldNames: docs/configuration.md, fields are "title,
// brand, hierarchies (category names), keywords, description,
// productNumber, extraData (every extraData and extraDataList value)".
func TestSearchableFieldNames(t *testing.T) {
	var cases []parseCase
	for _, name := range []string{"title", "brand", "hierarchies", "keywords", "description", "productNumber", "extraData"} {
		cases = append(cases, parseCase{name: "field " + name, change: set(path(version, "fields", 1), "name", name), ok: true})
	}
	for _, name := range []string{"price", "colour", "", "Title"} {
		cases = append(cases, parseCase{name: fmt.Sprintf("field %q", name), change: set(path(version, "fields", 1), "name", name)})
	}
	cases = append(cases, parseCase{name: "no fields", change: set(version, "fields", []any{})})
	checkCases(t, "searchable_fields.txt", cases)
}

// TestExactlyOneLiveVersion: docs/configuration.md, "Each key has versions;
// exactly one has "status": "live", the others are "draft"".
func TestExactlyOneLiveVersion(t *testing.T) {
	versions := func(statuses ...string) func(*testing.T, map[string]any) {
		return func(t *testing.T, doc map[string]any) {
			var vs []any
			for i, s := range statuses {
				vs = append(vs, map[string]any{"id": i + 1, "status": s, "fields": []any{map[string]any{"name": "title", "weight": 1}}})
			}
			at(t, doc, path(website, "searchConfigs", 0)...)["versions"] = vs
		}
	}
	checkCases(t, "live_versions.txt", []parseCase{
		{"live", versions("live"), true},
		{"draft, live, draft", versions("draft", "live", "draft"), true},
		{"no versions", versions(), false},
		{"draft only", versions("draft"), false},
		{"two live", versions("live", "draft", "live"), false},
		{"published", versions("live", "published"), false},
		{"id used twice", func(t *testing.T, doc map[string]any) {
			versions("live", "draft")(t, doc)
			at(t, doc, path(version[:len(version)-1], 1)...)["id"] = 1
		}, false},
	})
}

// TestFacetTypeMustFitFieldType: docs/configuration.md, facets: "field (an
// indexed field), type (LIST, BOOLEAN, RANGE; must fit the field type)",
// and the indexed fields table: keyword and hierarchy take LIST, boolean
// BOOLEAN, number and date RANGE, text none. Device facets follow the same
// rule.
func TestFacetTypeMustFitFieldType(t *testing.T) {
	fits := map[string]string{"brand": "LIST", "hierarchies": "LIST", "inStock": "BOOLEAN", "price": "RANGE", "created": "RANGE", "title": ""}
	fieldType := map[string]string{"brand": "keyword", "hierarchies": "hierarchy", "inStock": "boolean", "price": "number", "created": "date", "title": "text"}
	var cases []parseCase
	for _, field := range []string{"brand", "hierarchies", "inStock", "price", "created", "title"} {
		for _, facet := range []string{"LIST", "BOOLEAN", "RANGE"} {
			for _, where := range []struct {
				name string
				path []any
			}{{"version", path(version, "facets", 0)}, {"MOBILE device", path(version, "devices", "MOBILE", "facets", 0)}} {
				cases = append(cases, parseCase{
					name: fmt.Sprintf("%s facet on a %s field, in the %s", facet, fieldType[field], where.name),
					change: func(t *testing.T, doc map[string]any) {
						set(where.path, "field", field)(t, doc)
						set(where.path, "type", facet)(t, doc)
					},
					ok: fits[field] == facet,
				})
			}
		}
	}
	cases = append(cases,
		parseCase{name: "LIST facet on a field that is not indexed", change: set(path(version, "facets", 0), "field", "extraData.color")},
		parseCase{name: "lower-case facet type", change: set(path(version, "facets", 0), "type", "list")},
	)
	checkCases(t, "facet_types.txt", cases)
}

// TestSortingNeedsSortableIndexedField: docs/configuration.md, sorting:
// "field (indexed and sortable)"; and the indexed fields table: keyword,
// hierarchy and boolean fields are not sortable.
func TestSortingNeedsSortableIndexedField(t *testing.T) {
	var cases []parseCase
	for i, tc := range []struct {
		typ string
		ok  bool
	}{{"keyword", false}, {"hierarchy", false}, {"number", true}, {"boolean", false}, {"date", true}, {"text", true}} { // baseJSON's order
		cases = append(cases, parseCase{name: "sortable " + tc.typ + " field", change: set(path(website, "indexedFields", i), "sortable", true), ok: tc.ok})
	}
	cases = append(cases,
		parseCase{name: "sorting on an indexed field that is not sortable", change: set(path(version, "sorting", 0), "field", "brand")},
		parseCase{name: "sorting on a field that is not indexed", change: set(path(version, "sorting", 0), "field", "extraDataNumber.rating")},
		parseCase{name: "device sorting on a field that is not sortable", change: set(path(version, "devices", "MOBILE", "sorting", 0), "field", "inStock")},
		parseCase{name: "unknown field type", change: set(path(website, "indexedFields", 0), "type", "blob")},
		parseCase{name: "indexed field listed twice", change: set(path(website, "indexedFields", 1), "name", "brand")},
	)
	checkCases(t, "sorting.txt", cases)
}

// TestWebsiteAndVersionMembers covers the remaining rules of
// docs/configuration.md: "uuid: required", API keys for requireApiKey,
// search configurations "by key", DESKTOP / MOBILE devices, synonyms and
// redirects with their required parts, and maxFacetValues.
func TestWebsiteAndVersionMembers(t *testing.T) {
	checkCases(t, "members.txt", []parseCase{
		{"no websites", func(t *testing.T, doc map[string]any) { doc["websites"] = []any{} }, false},
		{"no uuid", set(website, "uuid", ""), false},
		{"requireApiKey with a key", set(website, "requireApiKey", true), true},
		{"requireApiKey without keys", func(t *testing.T, doc map[string]any) {
			set(website, "requireApiKey", true)(t, doc)
			set(website, "apiKeys", []any{})(t, doc)
		}, false},
		{"key used twice", func(t *testing.T, doc map[string]any) {
			w := at(t, doc, website...)
			w["searchConfigs"] = append(w["searchConfigs"].([]any), w["searchConfigs"].([]any)[0])
		}, false},
		{"empty key", set(path(website, "searchConfigs", 0), "key", ""), false},
		{"DESKTOP device", func(t *testing.T, doc map[string]any) {
			d := at(t, doc, path(version, "devices")...)
			d["DESKTOP"], d["MOBILE"] = d["MOBILE"], nil
		}, true},
		{"TV device", set(path(version, "devices"), "TV", map[string]any{}), false},
		{"one-way synonym without terms", set(path(version, "synonyms", 1), "terms", []any{}), false},
		{"two-way synonym of one term", set(path(version, "synonyms", 0), "terms", []any{"sofa"}), false},
		{"redirect without url", set(path(version, "redirects", 0), "url", ""), false},
		{"redirect without queries", set(path(version, "redirects", 0), "queries", []any{}), false},
		{"maxFacetValues 0 (the default)", set(version, "maxFacetValues", 0), true},
		{"negative maxFacetValues", set(version, "maxFacetValues", -1), false},
		{"a number where a string belongs", set(website, "uuid", 7), false},
		{"a uuid that is a name", set(website, "uuid", "my-shop"), false},
		{"an uppercase uuid", set(website, "uuid", "3F6C1A9E-5B2D-4C8E-9A71-2D4E6F8B0C13"), false},
		{"a uuid without dashes", set(website, "uuid", "3f6c1a9e5b2d4c8e9a712d4e6f8b0c13"), false},
		{"danish", set(website, "language", "da"), true},
		{"an unknown language", set(website, "language", "klingon"), false},
		{"a second website", secondWebsite("another-key"), true},
		{"a second website with the same uuid", func(t *testing.T, doc map[string]any) {
			secondWebsite("another-key")(t, doc)
			doc["websites"].([]any)[1].(map[string]any)["uuid"] = at(t, doc, website...)["uuid"]
		}, false},
		{"a second website with the same search key", secondWebsite("main"), false},
	})
}

// secondWebsite adds a copy of the first website under another UUID,
// its search configuration keyed key.
func secondWebsite(key string) func(t *testing.T, doc map[string]any) {
	return func(t *testing.T, doc map[string]any) {
		b, err := json.Marshal(at(t, doc, website...))
		if err != nil {
			t.Fatal(err)
		}
		var w map[string]any
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		w["uuid"] = "00000000-0000-4000-8000-000000000002"
		w["searchConfigs"].([]any)[0].(map[string]any)["key"] = key
		doc["websites"] = append(doc["websites"].([]any), w)
	}
}

// TestParseRefusesDataAfterTheDocument: a configuration file is one JSON
// document; a second one or stray text after it would otherwise be
// silently ignored, as a misspelt member would (docs/configuration.md,
// "a misspelt setting is reported rather than ignored").
func TestParseRefusesDataAfterTheDocument(t *testing.T) {
	const doc = `{"websites":[{"uuid":"00000000-0000-4000-8000-000000000001"}]}`
	for _, tc := range []struct {
		name, data string
		ok         bool
	}{
		{"the document alone", doc, true},
		{"white space after it", doc + "\n\t \r\n", true},
		{"a second document", doc + "\n" + `{"websites":[{"uuid":"00000000-0000-4000-8000-000000000002"}]}`, false},
		{"a stray brace", doc + "}", false},
		{"text", doc + " and more", false},
	} {
		_, err := Parse([]byte(tc.data))
		if (err == nil) != tc.ok || err != nil && !strings.HasPrefix(err.Error(), "decode: ") {
			t.Errorf("%s: Parse error %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// knownMembers reports the object members of data that are no member of
// the Go type t decodes them into (matched case-insensitively, as the
// decoder matches them), with their paths.
func knownMembers(v any, t reflect.Type, at string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var bad []string
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Map:
			for k, e := range x {
				bad = append(bad, knownMembers(e, t.Elem(), at+"."+k)...)
			}
		case reflect.Struct:
			fields := map[string]reflect.Type{}
			for f := range t.Fields() {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				fields[strings.ToLower(name)] = f.Type
			}
			for k, e := range x {
				ft, ok := fields[strings.ToLower(k)]
				if !ok {
					bad = append(bad, at+"."+k)
					continue
				}
				bad = append(bad, knownMembers(e, ft, at+"."+k)...)
			}
		}
	case []any:
		if t.Kind() == reflect.Slice {
			for i, e := range x {
				bad = append(bad, knownMembers(e, t.Elem(), fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	return bad
}

// FuzzParse checks what Parse promises beyond validating: a document it
// accepts is one JSON value whose every member is a configuration member
// (nothing is ignored: not a misspelt member, not a second document), the
// configuration it returns is stored and read back unchanged (encoded,
// parsed again, equal), and a refused document's error says
// where: in the decoding, or at the path of a member under websites.
func FuzzParse(f *testing.F) {
	f.Add([]byte(baseJSON))
	f.Add([]byte(`{"websites":[{"uuid":"00000000-0000-4000-8000-000000000001","indexedFields":[{"name":"brand","type":"keyword"}],"searchConfigs":[{"key":"s","versions":[{"id":1,"status":"live","fields":[{"name":"title","weight":5}]}]}]}]}`))
	f.Add([]byte(`{"websites":[{"uuid":"00000000-0000-4000-8000-000000000001","sortabel":true}]}`))
	f.Add([]byte(`{"websites":[{"uuid":"00000000-0000-4000-8000-000000000001"}]}` + "\n"))
	f.Add([]byte(`{"websites":[{"UUID":"w","searchConfigs":null}]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"websites":[{"uuid":""}]}`))
	f.Add([]byte(`{"websites":[{"uuid":"00000000-0000-4000-8000-000000000001"}]} {"websites":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "decode: ") && !strings.HasPrefix(msg, "websites") {
				t.Fatalf("error names no member: %v", err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Parse accepted what is not one JSON document: %q", data)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if bad := knownMembers(doc, reflect.TypeFor[File](), ""); len(bad) > 0 {
			t.Fatalf("Parse accepted unknown members %q", bad)
		}
		enc, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(enc)
		if err != nil {
			t.Fatalf("the encoded configuration is refused: %v\n%s", err, enc)
		}
		if !expect.SameAfterJSON(cfg, again) {
			enc2, _ := json.Marshal(again)
			t.Fatalf("encoded and parsed again, the configuration changed:\n%s\n%s", enc, enc2)
		}
	})
}

// TestBoxes: a managed recommendation box's members, and its key unique
// across the server.
func TestBoxes(t *testing.T) {
	box := func(members map[string]any) func(t *testing.T, doc map[string]any) {
		return func(t *testing.T, doc map[string]any) {
			b := map[string]any{"key": "top", "count": 4, "sources": []any{map[string]any{"type": "TOP"}}}
			for k, v := range members {
				if v == nil {
					delete(b, k)
				} else {
					b[k] = v
				}
			}
			w := at(t, doc, website...)
			boxes, _ := w["boxes"].([]any)
			w["boxes"] = append(boxes, b)
		}
	}
	twice := func(t *testing.T, doc map[string]any) { box(nil)(t, doc); box(nil)(t, doc) }
	checkCases(t, "boxes.txt", []parseCase{
		{"a box", box(nil), true},
		{"html with a template and limits", box(map[string]any{"format": "html", "template": "<p>{{len .Products}}</p>",
			"sources": []any{map[string]any{"type": "ALTERNATIVES", "limit": 2, "filters": map[string]any{"brand": "$context.brand"}}, map[string]any{"type": "TOP"}}}), true},
		{"no key", box(map[string]any{"key": nil}), false},
		{"a key with a space", box(map[string]any{"key": "top sellers"}), false},
		{"count 0", box(map[string]any{"count": 0}), false},
		{"count 100", box(map[string]any{"count": 100}), true},
		{"count 101", box(map[string]any{"count": 101}), false},
		{"no sources", box(map[string]any{"sources": []any{}}), false},
		{"eleven sources", box(map[string]any{"sources": slices.Repeat([]any{map[string]any{"type": "TOP"}}, 11)}), false},
		{"an unknown source", box(map[string]any{"sources": []any{map[string]any{"type": "NEWEST"}}}), false},
		{"a negative limit", box(map[string]any{"sources": []any{map[string]any{"type": "TOP", "limit": -1}}}), false},
		{"format xml", box(map[string]any{"format": "xml"}), false},
		{"an unknown member", box(map[string]any{"size": 3}), false},
		{"a key used twice", twice, false},
		{"a key of another website's box", func(t *testing.T, doc map[string]any) {
			box(nil)(t, doc)
			secondWebsite("another-key")(t, doc)
		}, false},
	})
}

// TestAllowedOrigins: a website's allowedOrigins are origins as
// browsers send them, compared byte for byte.
func TestAllowedOrigins(t *testing.T) {
	origins := func(os ...any) func(t *testing.T, doc map[string]any) {
		return func(t *testing.T, doc map[string]any) {
			doc["websites"].([]any)[0].(map[string]any)["allowedOrigins"] = os
		}
	}
	checkCases(t, "origins.txt", []parseCase{
		{"https and http with a port", origins("https://shop.example", "http://localhost:8080", "http://[::1]:8080"), true},
		{"a path", origins("https://shop.example/"), false},
		{"no scheme", origins("shop.example"), false},
		{"another scheme", origins("ftp://shop.example"), false},
		{"a default port", origins("https://shop.example:443"), false},
		{"upper case", origins("https://Shop.example"), false},
		{"a user", origins("https://me@shop.example"), false},
		{"a wildcard", origins("*"), false},
	})
}

// TestPages: a managed page's members, versions as a search
// configuration's, and its key unique across the server. (Its base
// filters and template are the engine's to compile: engine.CheckWebsite.)
func TestPages(t *testing.T) {
	page := func(members map[string]any, version map[string]any) func(t *testing.T, doc map[string]any) {
		return func(t *testing.T, doc map[string]any) {
			v := map[string]any{"id": 1, "status": "live", "filters": map[string]any{"brand": "Acme"}, "sorting": []any{"price asc"},
				"facets":      []any{map[string]any{"field": "brand", "type": "LIST", "title": "Brand"}},
				"sortOptions": []any{map[string]any{"field": "price", "title": "Price"}}}
			for k, x := range version {
				if x == nil {
					delete(v, k)
				} else {
					v[k] = x
				}
			}
			p := map[string]any{"key": "garden", "versions": []any{v}}
			for k, x := range members {
				if x == nil {
					delete(p, k)
				} else {
					p[k] = x
				}
			}
			w := at(t, doc, website...)
			pages, _ := w["pages"].([]any)
			w["pages"] = append(pages, p)
		}
	}
	twice := func(t *testing.T, doc map[string]any) { page(nil, nil)(t, doc); page(nil, nil)(t, doc) }
	checkCases(t, "pages.txt", []parseCase{
		{"a page", page(nil, nil), true},
		{"html with a template, style and script, a phone's facets", page(nil, map[string]any{"template": "<p>{{.Total}}</p>", "style": "p{}", "javascript": "1",
			"devices": map[string]any{"MOBILE": map[string]any{"maxFacetValues": 5}}}), true},
		{"no key", page(map[string]any{"key": nil}, nil), false},
		{"a key with a slash", page(map[string]any{"key": "garden/tools"}, nil), false},
		{"no live version", page(nil, map[string]any{"status": "draft"}), false},
		{"an unknown status", page(nil, map[string]any{"status": "published"}), false},
		{"a facet on an unindexed field", page(nil, map[string]any{"facets": []any{map[string]any{"field": "colour", "type": "LIST", "title": "Colour"}}}), false},
		{"a sort option on an unsortable field", page(nil, map[string]any{"sortOptions": []any{map[string]any{"field": "brand", "title": "Brand"}}}), false},
		{"an unknown device", page(nil, map[string]any{"devices": map[string]any{"TV": map[string]any{}}}), false},
		{"an unknown member", page(nil, map[string]any{"size": 3}), false},
		{"a key used twice", twice, false},
		{"a key of another website's page", func(t *testing.T, doc map[string]any) {
			page(nil, nil)(t, doc)
			secondWebsite("another-key")(t, doc)
		}, false},
	})
}

// TestReRankWeights: a version's title re-ranking weights, proximity
// and exact forms, are each between 0 and 1.
func TestReRankWeights(t *testing.T) {
	for _, name := range []string{"proximity", "exactForms"} {
		t.Run(name, func(t *testing.T) {
			checkCases(t, strings.ToLower(name)+".txt", []parseCase{
				{"off", set(version, name, 0), true},
				{"a weight", set(version, name, 0.3), true},
				{"negative", set(version, name, -0.1), false},
				{"above 1", set(version, name, 1.5), false},
				{"not a number", set(version, name, "high"), false},
			})
		})
	}
}

// TestK1: a version's BM25 k1 is above 0 and at most 10.
func TestK1(t *testing.T) {
	checkCases(t, "k1.txt", []parseCase{
		{"the default", set(version, "k1", 1.2), true},
		{"the top", set(version, "k1", 10), true},
		{"zero", set(version, "k1", 0), false},
		{"above 10", set(version, "k1", 12), false},
		{"not a number", set(version, "k1", "soft"), false},
	})
}

// TestCampaigns: a retail media campaign's members: a known state,
// dates in order, products and positions, placements and devices.
func TestCampaigns(t *testing.T) {
	campaign := func(members map[string]any) func(t *testing.T, doc map[string]any) {
		return func(t *testing.T, doc map[string]any) {
			c := map[string]any{"id": "spring", "state": "ACTIVE", "products": []any{"P1", "P2"}, "positions": []any{1, 5},
				"start": "2026-03-01T00:00:00Z", "end": "2026-06-01T00:00:00Z", "placements": []any{"search", "pages"}, "devices": []any{"MOBILE"},
				"target": map[string]any{"queries": []any{"drill"}, "brands": []any{"Acme"}, "hierarchies": []any{"Tools$"}}}
			for k, v := range members {
				if v == nil {
					delete(c, k)
				} else {
					c[k] = v
				}
			}
			w := at(t, doc, website...)
			cs, _ := w["campaigns"].([]any)
			w["campaigns"] = append(cs, c)
		}
	}
	twice := func(t *testing.T, doc map[string]any) { campaign(nil)(t, doc); campaign(nil)(t, doc) }
	checkCases(t, "campaigns.txt", []parseCase{
		{"a campaign", campaign(nil), true},
		{"open dates, every placement and device, no target", campaign(map[string]any{"start": nil, "end": nil, "placements": nil, "devices": nil, "target": nil}), true},
		{"in review", campaign(map[string]any{"state": "REVIEW"}), true},
		{"no id", campaign(map[string]any{"id": nil}), false},
		{"an unknown state", campaign(map[string]any{"state": "LIVE"}), false},
		{"a lower-case state", campaign(map[string]any{"state": "active"}), false},
		{"ending before it starts", campaign(map[string]any{"end": "2026-02-01T00:00:00Z"}), false},
		{"a date that is not RFC 3339", campaign(map[string]any{"start": "March 1"}), false},
		{"no products", campaign(map[string]any{"products": []any{}}), false},
		{"no positions", campaign(map[string]any{"positions": nil}), false},
		{"position 0", campaign(map[string]any{"positions": []any{0}}), false},
		{"position 101", campaign(map[string]any{"positions": []any{101}}), false},
		{"a position twice", campaign(map[string]any{"positions": []any{3, 3}}), false},
		{"an unknown placement", campaign(map[string]any{"placements": []any{"email"}}), false},
		{"an unknown device", campaign(map[string]any{"devices": []any{"TV"}}), false},
		{"an unknown target", campaign(map[string]any{"target": map[string]any{"colors": []any{"red"}}}), false},
		{"an id used twice", twice, false},
	})
}

// TestBoosts covers the boosts of docs/decisions.md ("Popularity in
// search"): weights between 0 and 1, a known listing order, and the
// indexed field each weighted factor reads.
func TestBoosts(t *testing.T) {
	boosts := func(b map[string]any) func(*testing.T, map[string]any) { return set(version, "boosts", b) }
	w := func(name string, v any) func(*testing.T, map[string]any) { return boosts(map[string]any{name: v}) }
	unindex := func(name string, change func(*testing.T, map[string]any)) func(*testing.T, map[string]any) {
		return func(t *testing.T, doc map[string]any) {
			change(t, doc)
			ws := at(t, doc, website...)
			var kept []any
			for _, f := range ws["indexedFields"].([]any) {
				if f.(map[string]any)["name"] != name {
					kept = append(kept, f)
				}
			}
			ws["indexedFields"] = kept
			if name == "inStock" { // the MOBILE facet names it
				delete(at(t, doc, path(version, "devices")...), "MOBILE")
			}
		}
	}
	index := func(name, typ string, change func(*testing.T, map[string]any)) func(*testing.T, map[string]any) {
		return func(t *testing.T, doc map[string]any) {
			change(t, doc)
			ws := at(t, doc, website...)
			ws["indexedFields"] = append(ws["indexedFields"].([]any), map[string]any{"name": name, "type": typ})
		}
	}
	checkCases(t, "boosts.txt", []parseCase{
		{"every weight and the popularity listing", index("isOnSale", "boolean", boosts(map[string]any{"popularity": 0.2, "inStock": 0.1,
			"onSale": 0.05, "newness": 1, "newnessHalfLifeDays": 14, "listing": "popularity"})), true},
		{"all weights 0", boosts(map[string]any{}), true},
		{"a negative weight", w("popularity", -0.1), false},
		{"a weight above 1", w("inStock", 1.5), false},
		{"an unknown listing", w("listing", "price"), false},
		{"catalog listing", w("listing", "catalog"), true},
		{"a negative half-life", w("newnessHalfLifeDays", -3), false},
		{"an unknown member", w("sales", 0.1), false},
		{"inStock weighted, not indexed", unindex("inStock", w("inStock", 0.1)), false},
		{"inStock not weighted, not indexed", unindex("inStock", w("popularity", 0.1)), true},
		{"onSale weighted, no isOnSale nor previousPrice", w("onSale", 0.1), false},
		{"onSale weighted by isOnSale", index("isOnSale", "boolean", w("onSale", 0.1)), true},
		{"onSale weighted by previousPrice", index("previousPrice", "number", w("onSale", 0.1)), true},
		{"onSale weighted by a keyword isOnSale", index("isOnSale", "keyword", w("onSale", 0.1)), false},
		{"newness weighted, created not indexed", unindex("created", func(t *testing.T, doc map[string]any) {
			w("newness", 0.3)(t, doc)
			delete(at(t, doc, path(version, "devices")...), "MOBILE")
		}), false},
	})
}
