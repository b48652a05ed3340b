package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/jsonscan"
)

// appendProjectedMaps is the projection as it was before project.go, decoding into maps: the oracle project_test.go checks appendProjected against. It writes a stored document, or only the requested fields
// of it. Dotted names pick members of nested objects and keep the nesting.
func appendProjectedMaps(dst []byte, stored []byte, fields []string, extra *productExtra) []byte {
	if len(fields) == 0 {
		if extra == nil {
			return append(dst, stored...)
		}
		dst = append(dst, stored[:len(stored)-1]...)
		return append(extra.appendTo(dst, len(stored) <= 2, nil), '}')
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(stored, &top); err != nil {
		return append(dst, "{}"...)
	}
	dst = append(dst, '{')
	first := true
	done := map[string]bool{}
	for _, f := range fields {
		name, _, nested := strings.Cut(f, ".")
		if done[name] {
			continue
		}
		raw, ok := top[name]
		if !ok {
			continue
		}
		if nested {
			// Gather every requested member of this object.
			done[name] = true
			var subs []string
			whole := false
			for _, g := range fields {
				if g == name {
					whole = true
				}
				if n, s, ok := strings.Cut(g, "."); ok && n == name {
					subs = append(subs, s)
				}
			}
			var obj map[string]json.RawMessage
			if !whole && json.Unmarshal(raw, &obj) != nil { // (the maps' version unmarshalled first, so a member asked whole after a part of it that was not an object went missing)
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = appendString(dst, name)
			dst = append(dst, ':')
			if whole {
				dst = append(dst, raw...)
				continue
			}
			dst = append(dst, '{')
			n := 0
			for _, s := range subs {
				if v, ok := obj[s]; ok {
					if n > 0 {
						dst = append(dst, ',')
					}
					n++
					dst = appendString(dst, s)
					dst = append(dst, ':')
					dst = append(dst, v...)
				}
			}
			dst = append(dst, '}')
			continue
		}
		done[name] = true
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendString(dst, name)
		dst = append(dst, ':')
		dst = append(dst, raw...)
	}
	if extra != nil {
		dst = extra.appendTo(dst, first, fields)
	}
	return append(dst, '}')
}

// randomDoc is a stored document of random members: strings with
// escapes and HTML characters, numbers, booleans, null, lists, and
// nested objects (whose keys may need escaping).
func randomDoc(r *rand.Rand) []byte {
	var val func(depth int) any
	val = func(depth int) any {
		switch r.IntN(7) {
		case 0:
			return []string{"plain", `say "hi"`, "<b>&</b>", "Müller 😀", "tab\there", ""}[r.IntN(6)]
		case 1:
			return r.Float64()*1000 - 500
		case 2:
			return r.IntN(2) == 0
		case 3:
			return nil
		case 4:
			return []any{1, "two", map[string]any{"x": []any{}}}
		default:
			if depth > 2 {
				return "leaf"
			}
			m := map[string]any{}
			for range r.IntN(5) {
				m[[]string{"size", "color", "a.b", `q"uote`, "<k>", "rating", "x"}[r.IntN(7)]] = val(depth + 1)
			}
			return m
		}
	}
	doc := map[string]any{}
	for range 1 + r.IntN(8) {
		doc[[]string{"title", "price", "extraData", "extraDataNumber", "brand", "hierarchies", "url", "<b>"}[r.IntN(8)]] = val(0)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}

// TestProjectionMatchesMaps: over random documents and field lists
// (whole members, nested parts, both, missing ones, repeated names,
// keys that need escaping), the projection from the bytes writes exactly
// what decoding into maps wrote, scanning the document or reading its
// members from their offsets.
func TestProjectionMatchesMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 12))
	names := []string{"title", "price", "extraData", "extraData.size", "extraData.color", "extraData.a.b", `extraData.q"uote`, "extraData.<k>",
		"extraDataNumber.rating", "brand", "missing", "missing.x", "hierarchies.x", "<b>", "title"}
	for round := range 5000 {
		doc := randomDoc(r)
		var fields []string
		for range r.IntN(6) {
			fields = append(fields, names[r.IntN(len(names))])
		}
		if hasRepeatedPart(fields) {
			continue // the maps wrote a repeated part twice; the bytes once (below)
		}
		for _, extra := range []*productExtra{nil, {score: 1.5, suggested: true, search: true}} {
			want := string(appendProjectedMaps(nil, doc, fields, extra))
			got := string(appendProjected(nil, doc, nil, fields, extra))
			if got != want {
				t.Fatalf("round %d: %s with %q:\n got  %s\n want %s", round, doc, fields, got, want)
			}
			starts, ok := jsonscan.MemberStarts(nil, doc)
			if at := string(appendProjected(nil, doc, starts, fields, extra)); !ok || at != want {
				t.Fatalf("round %d: %s with %q from offsets %v (%v):\n got  %s\n want %s", round, doc, fields, starts, ok, at, want)
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(got), &v); err != nil {
				t.Fatalf("round %d: %s is not JSON: %v", round, got, err)
			}
		}
	}
	if got := string(appendProjected(nil, []byte(`{"e":{"a":1,"b":2}}`), nil, []string{"e.b", "e.a", "e.b"}, nil)); got != `{"e":{"b":2,"a":1}}` {
		t.Errorf("a part named twice: %s, want it once", got)
	}
}

// TestProjectionKeptAcrossFieldLists: a storedDoc (pooled, so one
// response's field list follows another's) makes its projection again
// when the field list changes, and only then: each document writes what
// a fresh projection writes.
func TestProjectionKeptAcrossFieldLists(t *testing.T) {
	doc := []byte(`{"productNumber":"A1","title":"Hose","price":4.5,"extraData":{"color":"Green","size":"M"},"url":"/a1"}`)
	starts, ok := jsonscan.MemberStarts(nil, doc)
	if !ok {
		t.Fatal("no offsets")
	}
	d := &storedDoc{json: doc}
	d.rd.Reset(doc)
	d.rd.Starts = starts
	lists := [][]string{{"title", "price"}, {"title", "price"}, {"url", "extraData.size"}, nil, {"price", "title"}, {"url", "extraData.size"}, {}, {"title"}}
	for i, fields := range lists {
		want := string(appendProjected(nil, doc, starts, fields, nil))
		d.prepare(fields, nil)
		if got := string(d.appendTo(nil, fields, nil)); got != want {
			t.Fatalf("list %d %q: %s, want %s", i, fields, got, want)
		}
	}
	fields := []string{"title", "price"}
	d.prepare(fields, nil)
	d.appendTo(nil, fields, nil)
	fields[0] = "url" // the same slice, another list
	d.prepare(fields, nil)
	if got := string(d.appendTo(nil, fields, nil)); got != `{"url":"/a1","price":4.5}` {
		t.Fatalf("after the list changed in place: %s", got)
	}
}

// TestProjectionHints: one projection serving document after document
// (as a response's storedDoc does) writes what decoding into maps
// writes, whether each name is where the last document had it (the
// hint holds) or elsewhere, missing, or written with escapes (it does
// not, and the members are scanned). Both ways must have happened,
// except for a list with a name no document has, which the segment's
// names (index.MemberNames, not known here) would have set aside: its
// hint cannot hold, and every document is scanned.
func TestProjectionHints(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for _, fields := range [][]string{
		{"title", "price", "url"},
		{"url", "brand", "extraData.size", "extraData.color"},
		{"price", "missing", "hierarchies", "title", "<b>"},
	} {
		noneHas := slices.Contains(fields, "missing")
		var p projection
		p.reset(fields)
		held, missed := 0, 0
		for round := range 3000 {
			doc := randomDoc(r)
			if round%3 != 0 { // most documents as a catalog writes them: one order, a member now and then left out
				doc = catalogDoc(r)
			}
			if round%7 == 0 { // now and then, the same members in another order
				doc = []byte(strings.Replace(string(doc), "{", `{"url":"/first",`, 1))
				if json.Valid(doc) && strings.Count(string(doc), `"url":`) > 1 {
					continue // a key twice: not a document Aisle writes
				}
			}
			starts, ok := jsonscan.MemberStarts(nil, doc)
			if !ok {
				t.Fatalf("%s: no offsets", doc)
			}
			var rd index.StoredReader
			rd.Reset(doc)
			rd.Starts = starts
			if _, ok := p.findHinted(&rd, starts); ok {
				held++
			} else {
				missed++
			}
			want := string(appendProjectedMaps(nil, doc, fields, nil))
			if got := string(p.appendDoc(nil, &rd, nil)); got != want {
				t.Fatalf("%q, round %d: %s:\n got  %s\n want %s", fields, round, doc, got, want)
			}
		}
		if noneHas && held != 0 || !noneHas && (held == 0 || missed == 0) {
			t.Fatalf("%q: the hints held %d times and missed %d", fields, held, missed)
		}
	}
}

// catalogDoc is a document as a catalog's struct writes it: its
// members always in one order, brand and extraData left out now and
// then, with values of every kind.
func catalogDoc(r *rand.Rand) []byte {
	values := []string{`"plain"`, `"say \"hi\""`, `"M\u00fcller"`, `12.5`, `true`, `null`, `[1,"two",{"x":[]}]`,
		`{"size":"M","color":"Green"}`, `{"color":"Red"}`, `{}`}
	doc := []byte{'{'}
	for _, name := range []string{"productNumber", "title", "brand", "price", "url", "extraData", "hierarchies"} {
		if (name == "brand" || name == "extraData") && r.IntN(4) == 0 {
			continue
		}
		if len(doc) > 1 {
			doc = append(doc, ',')
		}
		doc = append(appendString(doc, name), ':')
		doc = append(doc, values[r.IntN(len(values))]...)
	}
	return append(doc, '}')
}

// hasRepeatedPart reports whether fields name one nested part twice.
func hasRepeatedPart(fields []string) bool {
	seen := map[string]bool{}
	for _, f := range fields {
		if strings.Contains(f, ".") {
			if seen[f] {
				return true
			}
			seen[f] = true
		}
	}
	return false
}

// FuzzProjection: any stored bytes and field list project without a
// panic, to {} when the bytes are not an object, and to JSON when they
// are JSON. (The offsets a stored entry keeps are MemberStarts', which
// the projection finds itself here.)
func FuzzProjection(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":"x\"y","d":[1,{"e":2}]}}`), "a,b.c,b.d,z")
	f.Add([]byte(`{"a":`), "a")
	f.Add([]byte(`{"a\u0062":tru}`), "ab")
	f.Add([]byte(`{"a\u0062" : 1 , "ab":2}`), "ab")
	f.Fuzz(func(t *testing.T, stored []byte, list string) {
		fields := strings.Split(list, ",")
		got := appendProjected(nil, stored, nil, fields, nil)
		if json.Valid(stored) && !json.Valid(got) {
			t.Fatalf("%q with %q: %q is not JSON", stored, fields, got)
		}
	})
}

// appendProjected is projection.appendDoc with a projection made for
// fields alone, or appendWhole for none.
func appendProjected(dst, stored []byte, starts []uint32, fields []string, extra *productExtra) []byte {
	if len(fields) == 0 {
		return appendWhole(dst, stored, extra)
	}
	var p projection
	p.reset(fields)
	var r index.StoredReader
	r.Reset(stored)
	r.Starts = append(r.Starts, starts...)
	return p.appendDoc(dst, &r, extra)
}

// BenchmarkProjection: a demo product with 4 fields and 12 (3 of them
// nested parts), scanning the document and from its members' offsets:
// no allocation any way (whole documents against field lists, read from
// a segment: BenchmarkStoredFields).
func BenchmarkProjection(b *testing.B) {
	doc := []byte(`{"productNumber":"AI-000128","title":"Greenfurrow Lightweight Garden Hose Set","url":"https://shop.example/p/ai-000128","imgUrl":"https://img.example/ai-000128.jpg","currency":"USD","price":46.99,"previousPrice":52.99,"priceFormatted":"$46.99","description":"A light hose set for the garden, with a spray nozzle and a wall mount.","brand":"Greenfurrow","inStock":true,"hierarchies":[["Garden","Garden Tools","Garden Hoses"]],"extraData":{"color":"Green","material":"PVC","size":"Medium"},"extraDataNumber":{"rating":4.5,"weight":2.1}}`)
	for _, fields := range [][]string{
		{"productNumber", "title", "price", "url"},
		{"productNumber", "title", "price", "url", "imgUrl", "brand", "inStock", "priceFormatted", "extraData.color", "extraData.size", "extraDataNumber.rating", "hierarchies"}} {
		for _, way := range []string{"scan", "offsets"} {
			var starts []uint32
			if way == "offsets" {
				starts, _ = jsonscan.MemberStarts(nil, doc)
			}
			b.Run(fmt.Sprint(len(fields), " fields/", way), func(b *testing.B) {
				b.ReportAllocs()
				var dst []byte
				var p projection
				p.reset(fields)
				var r index.StoredReader
				r.Reset(doc)
				r.Starts = starts
				extra := &productExtra{score: 2, search: true}
				for b.Loop() {
					dst = p.appendDoc(dst[:0], &r, extra)
				}
				if testing.AllocsPerRun(10, func() { dst = p.appendDoc(dst[:0], &r, extra) }) != 0 {
					b.Fatal("the projection allocates")
				}
			})
		}
	}
}

// TestProjectionFromSegment: over demo products in a built (compressed)
// segment, a field list read through index.StoredReader writes what
// decoding the whole document into maps writes, one storedDoc serving
// doc after doc and list after list; a list of the first member
// decompresses less than a third of a document, and so does one that
// adds a name no document of the segment has (index.MemberNames).
func TestProjectionFromSegment(t *testing.T) {
	seg := demoGeneration(t, 500, 7, nil).Products
	r := rand.New(rand.NewPCG(8, 1))
	names := []string{"productNumber", "title", "price", "brand", "url", "extraData.color", "extraDataNumber.rating", "hierarchies", "created", "missing", "description"}
	d := getStoredDoc()
	defer putStoredDoc(d)
	decoded, whole := 0, 0
	for doc := range uint32(seg.Slots()) {
		stored := seg.Stored(doc)
		var fields []string
		for range 1 + r.IntN(5) {
			fields = append(fields, names[r.IntN(len(names))])
		}
		if hasRepeatedPart(fields) {
			continue
		}
		want := string(appendProjectedMaps(nil, stored, fields, nil))
		d.load(seg, doc, fields)
		if got := string(d.appendTo(nil, fields, nil)); got != want {
			t.Fatalf("doc %d with %q:\n got  %s\n want %s", doc, fields, got, want)
		}
		d.load(seg, doc, []string{"productNumber"})
		if got, want := string(d.appendTo(nil, []string{"productNumber"}, nil)), string(appendProjectedMaps(nil, stored, []string{"productNumber"}, nil)); got != want {
			t.Fatalf("doc %d: %s, want %s", doc, got, want)
		}
		decoded += len(d.rd.Through(0))
		whole += len(stored)
	}
	if whole == 0 || decoded*3 > whole {
		t.Fatalf("a productNumber list decompressed %d of %d bytes", decoded, whole)
	}
	// A name no document has is not looked for to each document's end;
	// one the next segment's documents have is found there, by the same
	// storedDoc.
	plain := demoGeneration(t, 500, 7, func(p *catalog.Product) { p.GroupingKey = "" })
	if plain.Products.MemberNames().Has("groupingKey") || !seg.MemberNames().Has("groupingKey") {
		t.Fatal("groupingKey is not only in the demo's own products")
	}
	list := []string{"productNumber", "groupingKey", "title"}
	decoded, whole = 0, 0
	for doc := range uint32(plain.Products.Slots()) {
		d.load(plain.Products, doc, list)
		if got, want := string(d.appendTo(nil, list, nil)), string(appendProjectedMaps(nil, plain.Products.Stored(doc), list, nil)); got != want {
			t.Fatalf("doc %d: %s, want %s", doc, got, want)
		}
		decoded += len(d.rd.Through(0))
		whole += d.rd.Len()
	}
	if decoded*3 > whole {
		t.Fatalf("a list with a name no document has decompressed %d of %d bytes", decoded, whole)
	}
	grouped := 0
	for doc := range uint32(seg.Slots()) {
		d.load(seg, doc, list)
		got, want := string(d.appendTo(nil, list, nil)), string(appendProjectedMaps(nil, seg.Stored(doc), list, nil))
		if got != want {
			t.Fatalf("after a segment without groupingKey, doc %d of one with it: %s, want %s", doc, got, want)
		}
		if strings.Contains(got, `"groupingKey"`) {
			grouped++
		}
	}
	if grouped == 0 {
		t.Fatal("no groupingKey written: nothing tested")
	}
}

// BenchmarkStoredFields: one demo product out of 50,000 at random, read
// from its compressed entry and written whole or with a field list
// (what each result of a search costs); a list of early members
// decompresses only those.
func BenchmarkStoredFields(b *testing.B) {
	g := demoGeneration(b, 50000, 42, nil)
	r := rand.New(rand.NewPCG(1, 1))
	docs := make([]uint32, 4096)
	for i := range docs {
		docs[i] = uint32(r.IntN(g.Products.Slots()))
	}
	for _, fields := range [][]string{nil, {"productNumber"}, {"productNumber", "title", "price", "url"}, {"productNumber", "title", "brand", "price"}, {"productNumber", "title", "price", "missing"}} {
		b.Run(fmt.Sprint(len(fields), "_fields_", strings.Join(fields, "_")), func(b *testing.B) {
			b.ReportAllocs()
			d := getStoredDoc()
			dst := make([]byte, 0, 64<<10)
			i := 0
			for b.Loop() {
				d.load(g.Products, docs[i&4095], fields)
				dst = d.appendTo(dst[:0], fields, nil)
				i++
			}
		})
	}
}
