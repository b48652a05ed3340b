package engine

import (
	"slices"
	"strings"
	"sync"

	"github.com/aisle-search/aisle/index"
	"github.com/aisle-search/aisle/internal/jsonscan"
	"github.com/aisle-search/aisle/ranking"
)

// Projection writes the requested members of a stored document straight
// from its bytes: the index keeps where each top-level member starts,
// from which each wanted value's bytes are found (the offsets found by
// one pass when a document has none), and copied as they are, in
// the order the fields name them. Each name is looked for first where
// the last document had it, which for a catalog's documents (written
// in one member order) is where it is. The document is decompressed only
// through the last member wanted (index.StoredReader), and nothing is
// decoded into maps, so a search's allocations do not grow with its
// fields or results, and a field list costs less than the whole
// document.

// maxProjected is how many distinct parts of a member appendParts
// finds without allocating; more take a slice.
const maxProjected = 16

// projection is a field list worked out once for the documents of a
// response (storedDoc keeps it from one to the next): the top-level
// names it asks for, in the order first named, each with its key as
// written and whether it is asked whole or only in parts. spans is the
// members found in the document at hand.
type projection struct {
	fields []string
	names  []string
	keys   []byte          // each name's key as written, `"name":`, end to end
	keyEnd []int           // by name: where its key ends in keys
	whole  []bool          // by name: asked whole, not only in parts
	spans  []jsonscan.Span // by name; end 0: not found
	starts []uint32        // a document's member offsets when it came without them
	// absent is, by name, whether no document of the segment at hand
	// has it (forNames; none until then), and want how many names are
	// not: findAt stops once it has found those.
	absent []bool
	want   int
	from   *index.MemberNames // what absent was worked out from
	// hint is, by name, which member (its index in starts) held it in
	// the last document found by a scan; -1 before one. The documents of
	// a catalog are written from one struct, so they keep their members
	// in one order, and a name is usually where it was last time.
	hint []int
}

// isFor reports whether p was made for fields (reset).
func (p *projection) isFor(fields []string) bool { return slices.Equal(p.fields, fields) }

// reset makes p the projection of fields, reusing its slices.
func (p *projection) reset(fields []string) {
	p.fields = append(p.fields[:0], fields...)
	p.names, p.keys, p.keyEnd, p.whole = p.names[:0], p.keys[:0], p.keyEnd[:0], p.whole[:0]
	for _, f := range fields {
		name, _, _ := strings.Cut(f, ".")
		if containsString(p.names, name) {
			continue
		}
		p.names = append(p.names, name)
		p.keys = append(appendString(p.keys, name), ':')
		p.keyEnd = append(p.keyEnd, len(p.keys))
		p.whole = append(p.whole, containsString(fields, name))
	}
	p.spans = slices.Grow(p.spans[:0], len(p.names))[:len(p.names)]
	p.absent = slices.Grow(p.absent[:0], len(p.names))[:len(p.names)]
	clear(p.absent)
	p.hint = slices.Grow(p.hint[:0], len(p.names))[:len(p.names)]
	for i := range p.hint {
		p.hint[i] = -1
	}
	p.want, p.from = len(p.names), nil
}

// key is name i's key as the projection writes it, `"name":`.
func (p *projection) key(i int) []byte {
	from := 0
	if i > 0 {
		from = p.keyEnd[i-1]
	}
	return p.keys[from:p.keyEnd[i]]
}

// forNames marks the names no document has, by the top-level names of
// the segment the documents come from (index.Segment.MemberNames; nil:
// not known, and none is marked), so that a document is not read to its
// end for a name that cannot be in it.
func (p *projection) forNames(m *index.MemberNames) {
	if m == p.from {
		return
	}
	p.from, p.want = m, 0
	for i, name := range p.names {
		p.absent[i] = !m.Has(name)
		if !p.absent[i] {
			p.want++
		}
	}
}

// findAt finds p's names among the members of the document r reads,
// which start at starts (jsonscan.MemberStarts), decoding it only
// through the member after the last name found: a key whose bytes are a
// name's is that member, one holding an escape is decoded first, and
// only a found member's value is delimited (jsonscan.ValueAt). It stops
// once every name is found, and reports false for bytes that are not a
// member or do not decode. obj is the document as far as decoded, which
// holds every span found; p.spans is, by name, its span (end 0: not
// found), set afresh for each document.
func (p *projection) findAt(r *index.StoredReader, starts []uint32) (obj []byte, ok bool) {
	clear(p.spans)
	if p.want == 0 {
		return obj, true // no name is in any document
	}
	if obj, ok = p.findHinted(r, starts); ok {
		return obj, true
	}
	clear(p.spans) // what the hints found before one missed
	found := 0
	for k, st := range starts {
		next := r.Len()
		if k+1 < len(starts) {
			next = int(starts[k+1])
		}
		if len(obj) < next {
			if obj = r.Through(next); len(obj) < next {
				return obj, false
			}
		}
		i := int(st)
		if i >= len(obj) || obj[i] != '"' {
			return obj, false
		}
		end := jsonscan.SkipString(obj, i)
		if end < 0 {
			return obj, false
		}
		match := -1
		if text, ok := jsonscan.KeyText(obj[i+1 : end-1]); ok {
			match = slices.Index(p.names, text)
		}
		if match < 0 {
			continue
		}
		v, ok := jsonscan.ValueAt(obj, starts, k, end)
		if !ok {
			return obj, false
		}
		if p.spans[match].End == 0 && !p.absent[match] {
			found++
		}
		p.spans[match] = v
		p.hint[match] = k
		if found == p.want {
			return obj, true // the rest is not read: Aisle wrote it, with each key once
		}
	}
	return obj, true
}

// findHinted is findAt when every name that may be in the document is
// where p.hint says: the member there has the name's key, byte for byte
// as the projection writes it. A JSON string ends at its first
// unescaped quote, so bytes equal to one key's are that key and no
// other. It reports false when a hint misses (a name moved, is absent
// from this document, or is written with escapes), and findAt scans.
func (p *projection) findHinted(r *index.StoredReader, starts []uint32) (obj []byte, ok bool) {
	next := 0
	for i, h := range p.hint {
		if p.absent[i] {
			continue
		}
		if h < 0 || h >= len(starts) {
			return nil, false
		}
		end := r.Len()
		if h+1 < len(starts) {
			end = int(starts[h+1])
		}
		next = max(next, end)
	}
	if obj = r.Through(next); len(obj) < next {
		return nil, false
	}
	for i, h := range p.hint {
		if p.absent[i] {
			continue
		}
		key := p.key(i)
		key = key[:len(key)-1] // without its colon
		st := int(starts[h])
		if st+len(key) > len(obj) || string(obj[st:st+len(key)]) != string(key) {
			return nil, false
		}
		v, ok := jsonscan.ValueAt(obj, starts, h, st+len(key))
		if !ok {
			return nil, false
		}
		p.spans[i] = v
	}
	return obj, true
}

// storedDoc is a stored document read for writing: decoded whole for a
// response without a field list, or read as far as its field list needs
// (index.StoredReader). It is reused from one document to the next and,
// from a pool (getStoredDoc), from one response to the next.
type storedDoc struct {
	json []byte
	rd   index.StoredReader
	proj projection
	// fold keeps prefetchEntries' bytes, so its loads are not dropped.
	fold byte
}

// prefetchEntries starts loading the stored entries of hits' docs
// together (index.Segment.PrefetchStored) before they are read one by
// one, and returns the fold of their first bytes for the caller to
// keep. At a million products each entry is a miss to memory; touched
// together, the misses overlap.
func prefetchEntries(seg *index.Segment, hits []ranking.Hit) byte {
	var fold byte
	for _, h := range hits {
		fold ^= seg.PrefetchStored(h.Doc)
	}
	return fold
}

var storedDocPool = sync.Pool{New: func() any { return &storedDoc{} }}

// getStoredDoc is a storedDoc from the pool; putStoredDoc returns it
// (dropped when a huge document grew it).
func getStoredDoc() *storedDoc { return storedDocPool.Get().(*storedDoc) }

func putStoredDoc(d *storedDoc) {
	if cap(d.json) <= 1<<20 && d.rd.Retained() <= 1<<20 {
		storedDocPool.Put(d)
	}
}

// load reads doc of seg into d: decoded whole for no field list, or
// ready to be decoded as far as fields need, with the projection of
// fields made for seg's documents (prepare).
func (d *storedDoc) load(seg *index.Segment, doc uint32, fields []string) {
	if len(fields) == 0 {
		d.json = seg.AppendStored(d.json[:0], doc)
		return
	}
	d.prepare(fields, seg.MemberNames())
	seg.ReadStored(&d.rd, doc)
}

// prepare makes d's projection the one of fields for documents with
// the top-level names names (nil: not known): made again only when the
// field list differs, and its absent names only when names do.
func (d *storedDoc) prepare(fields []string, names *index.MemberNames) {
	if !d.proj.isFor(fields) {
		d.proj.reset(fields)
	}
	d.proj.forNames(names)
}

// appendTo writes d as load read it for fields: whole, or the fields
// (projection.appendDoc).
func (d *storedDoc) appendTo(dst []byte, fields []string, extra *productExtra) []byte {
	if len(fields) == 0 {
		return appendWhole(dst, d.json, extra)
	}
	return d.proj.appendDoc(dst, &d.rd, extra)
}

// appendWhole writes a stored document as it is, extra (when set)
// before its closing brace.
func appendWhole(dst, stored []byte, extra *productExtra) []byte {
	if extra == nil {
		return append(dst, stored...)
	}
	dst = append(dst, stored[:len(stored)-1]...)
	return append(extra.appendTo(dst, len(stored) <= 2, nil), '}')
}

// appendDoc writes the fields p asks for of the document r reads, in
// the order they are named. Dotted names pick members of nested
// objects and keep the nesting; a member asked whole and in parts is
// written whole; a name that is not there, or a part of a member that
// is not an object, is left out. A stored document that cannot be read
// gives {}. extra, when set, follows (productExtra). The members are
// found from r's offsets (r.Starts), or by scanning the document when
// it has none.
func (p *projection) appendDoc(dst []byte, r *index.StoredReader, extra *productExtra) []byte {
	starts := r.Starts
	if len(starts) == 0 { // no offsets kept (tests, or an empty object): find them
		var ok bool
		if p.starts, ok = jsonscan.MemberStarts(p.starts[:0], r.Through(r.Len())); !ok {
			return append(dst, "{}"...)
		}
		starts = p.starts
	}
	stored, ok := p.findAt(r, starts)
	if !ok {
		return append(dst, "{}"...)
	}
	dst = append(dst, '{')
	first := true
	for i, v := range p.spans {
		if v.End == 0 {
			continue
		}
		raw := stored[v.Start:v.End]
		if !p.whole[i] { // parts only
			var ok bool
			if dst, ok = appendParts(dst, raw, p.names[i], p.fields, first); ok {
				first = false
			}
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, p.key(i)...)
		dst = append(dst, raw...)
	}
	if extra != nil {
		dst = extra.appendTo(dst, first, p.fields)
	}
	return append(dst, '}')
}

// appendParts writes member name of the projection as an object of the
// parts fields name ("name.part"), in their order, each once; it writes
// nothing and reports false when raw is not an object (null counts as
// an empty one).
func appendParts(dst, raw []byte, name string, fields []string, first bool) ([]byte, bool) {
	var partsBuf [maxProjected]string
	var spansBuf [maxProjected]jsonscan.Span
	parts, spans := partsBuf[:0], spansBuf[:0]
	for _, f := range fields {
		if n, part, ok := strings.Cut(f, "."); ok && n == name && !containsString(parts, part) {
			parts, spans = append(parts, part), append(spans, jsonscan.Span{})
		}
	}
	found := 0
	if string(raw) != "null" && !jsonscan.Members(raw, func(key []byte, v jsonscan.Span) bool { // null: an object with nothing
		k, ok := jsonscan.KeyText(key)
		for i, part := range parts {
			if ok && k == part {
				if spans[i].End == 0 {
					found++
				}
				spans[i] = v
			}
		}
		return found == len(parts)
	}) {
		return dst, false
	}
	if !first {
		dst = append(dst, ',')
	}
	dst = appendString(dst, name)
	dst = append(dst, ':', '{')
	n := 0
	for i, part := range parts {
		if spans[i].End == 0 {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = appendString(dst, part)
		dst = append(dst, ':')
		dst = append(dst, raw[spans[i].Start:spans[i].End]...)
	}
	return append(dst, '}'), true
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
