package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"
)

// KVWriter receives a segment's keys in ascending order; the store
// streams them into a table pebble ingests.
type KVWriter interface {
	Set(key, value []byte) error
}

// KVReader scans keys with a prefix in order; values are valid only during
// fn, so the loader copies what it keeps.
type KVReader interface {
	Scan(prefix []byte, fn func(key, value []byte) error) error
}

// FormatVersion is the saved segment's layout (the keys below and the
// encoding of each); it changes whenever either does, and Load refuses a
// segment saved in another, so a caller rebuilds it rather than misread
// it. 3: the version is kept in the meta. 4: words carry their doc counts.
// 5: a stored doc leads with its title's word hashes (stored_entry.go).
// 6: its member offsets carry their byte count. 7: its title words'
// forms follow their terms.
const FormatVersion = 7

// ErrFormat is returned by Load for a segment saved in another
// FormatVersion.
var ErrFormat = errors.New("saved segment format")

// Key layout under the caller's prefix.
const (
	kMeta    = "meta"
	kTerm    = "T/"   // chunk → its terms' docs bitmaps + field postings
	kSurface = "W/"   // chunk → folded words and their term ids
	kFldLen  = "fl/"  // text field → per-doc lengths
	kDoc     = "D/"   // chunk → its docs' keys + stored JSON, compressed
	kDict    = "dict" // the stored docs' compression dictionary
	kAltKey  = "a/"   // folded alternative key → doc id
	kKeyword = "k/"   // field \x00 value id → bitmap; field \x00 "col" → column
	kNumeric = "n/"   // field → column + has bitmap
	kSort    = "s/"   // field → ranks (text sorts)
)

type segMeta struct {
	Format   int               `json:"format"` // FormatVersion when saved
	N        uint32            `json:"n"`
	AvgLen   []float32         `json:"avgLen"`
	Keywords map[string]kwMeta `json:"keywords"`
	Numeric  []string          `json:"numeric"`
	Sorts    []string          `json:"sorts"`
	// Compressed: the docs are S2 blocks against the kDict dictionary.
	Compressed bool `json:"compressed"`
	// Sizes of the sections, so Load lays each out in one arena of its
	// size rather than growing and joining per-chunk ones (0: unknown).
	// Hints only: Load bounds them (sizeHint) and grows past them.
	Postings    int `json:"postings,omitempty"`    // entries of all posting lists
	Spans       int `json:"spans,omitempty"`       // per-field lists
	Terms       int `json:"terms,omitempty"`       // dictionary entries
	TermBytes   int `json:"termBytes,omitempty"`   // their text
	KeyBytes    int `json:"keyBytes,omitempty"`    // the docs' keys
	StoredBytes int `json:"storedBytes,omitempty"` // the docs as stored
	Words       int `json:"words,omitempty"`       // surface words
	WordBytes   int `json:"wordBytes,omitempty"`   // their text
	AltKeys     int `json:"altKeys,omitempty"`     // (key, doc) pairs of alternative keys
	// Members is the docs' top-level member names, each with how many
	// docs have it (MemberNames); absent when not known, as in segments
	// saved before they were kept.
	Members map[string]int `json:"members,omitempty"`
}

// sizeHint is a saved size bounded by what n docs plausibly hold
// (perDoc each), so a corrupt meta cannot make Load allocate without
// bound; a real segment past the bound only grows its arena.
func sizeHint(v int, n uint32, perDoc int) int {
	return max(0, min(v, int(n)*perDoc+1024))
}

type kwMeta struct {
	Values []string `json:"values"`
	Single bool     `json:"single"`
}

// Chunk sizes: terms, words and docs are written a chunk to a key, so a
// catalog of a million products is a few thousand pebble keys rather than
// millions.
const (
	termChunk = 4096
	docChunk  = 256
)

func chunkKey(prefix, kind string, chunk int) []byte {
	k := make([]byte, 0, len(prefix)+len(kind)+4)
	k = append(k, prefix...)
	k = append(k, kind...)
	return binary.BigEndian.AppendUint32(k, uint32(chunk))
}

// Save writes the segment under prefix, so a restart loads it instead of
// re-indexing: each section in turn (saveX below), so the keys go out in
// ascending order (kinds D/ T/ W/ a/ dict fl/ k/ meta n/ s/) and the
// store streams them into a table. Each entry's encoding is an appendX
// of sections.go, which Load's loadX reads back with its decodeX.
// Postings go out as delta-coded per-field docs and frequencies, with
// roaring bitmaps for the terms that keep one. A segment WithDocs made
// is compacted first (Compact), so what is saved is what a fresh build
// of the same docs saves.
func (s *Segment) Save(w KVWriter, prefix string) error {
	s = s.Compact()
	sw := &sectionWriter{w: w, prefix: prefix}
	for _, save := range [...]func(*sectionWriter) error{
		s.saveDocs, s.saveTerms, s.saveWords, s.saveAltKeys, s.saveDict,
		s.saveFieldLens, s.saveKeywords, s.saveMeta, s.saveNumerics, s.saveSorts,
	} {
		if err := save(sw); err != nil {
			return err
		}
	}
	return nil
}

// sectionWriter writes a segment's keys under prefix; the sections reuse
// its buffer for their values.
type sectionWriter struct {
	w      KVWriter
	prefix string
	buf    []byte
}

// set writes value under prefix and the key's parts.
func (sw *sectionWriter) set(value []byte, parts ...string) error {
	return sw.w.Set(segKey(sw.prefix, parts...), value)
}

// segKey is the key of a segment saved under prefix: prefix and parts.
func segKey(prefix string, parts ...string) []byte {
	return []byte(prefix + strings.Join(parts, ""))
}

// saveDocs writes the docs, docChunk to a key: each one's key and
// stored bytes (appendDocEntry).
func (s *Segment) saveDocs(sw *sectionWriter) error {
	return writeChunks(sw.w, sw.prefix, kDoc, int(s.n), docChunk, func(buf []byte, d int) ([]byte, error) {
		return appendDocEntry(buf, s.keys.at(d), s.stored.doc(uint32(d))), nil
	})
}

// saveTerms writes the terms, termChunk to a key: each one's doc count,
// bitmap and postings (appendTermEntry).
func (s *Segment) saveTerms(sw *sectionWriter) error {
	var posts []FieldPosting
	return writeChunks(sw.w, sw.prefix, kTerm, s.terms.len(), termChunk, func(buf []byte, id int) ([]byte, error) {
		posts = s.TermPostings(uint32(id), posts[:0])
		return appendTermEntry(buf, s.terms.at(id), s.post.df[id], s.post.bitmaps[id], posts)
	})
}

// saveWords writes the words, termChunk to a key: each one's term and
// doc count (appendWordEntry).
func (s *Segment) saveWords(sw *sectionWriter) error {
	return writeChunks(sw.w, sw.prefix, kSurface, s.surfaces.len(), termChunk, func(buf []byte, i int) ([]byte, error) {
		return appendWordEntry(buf, s.surfaces.at(i), s.surfaceTerm[i], s.surfaceDF[i]), nil
	})
}

// saveAltKeys writes each alternative key: the docs listing it, in key
// order (appendAltKey). A doc's own key is not written: it is loaded
// with the doc.
func (s *Segment) saveAltKeys(sw *sectionWriter) error {
	for i := 0; i < len(s.keyDoc.docs); {
		k := s.keyDoc.keys.at(i)
		sw.buf = sw.buf[:0]
		for ; i < len(s.keyDoc.docs) && s.keyDoc.keys.at(i) == k; i++ {
			if d := s.keyDoc.docs[i]; foldKey(s.keys.at(int(d))) != k {
				sw.buf = appendAltKey(sw.buf, d)
			}
		}
		if len(sw.buf) > 0 {
			if err := sw.set(sw.buf, kAltKey, k); err != nil {
				return err
			}
		}
	}
	return nil
}

// saveDict writes the stored docs' compression dictionary, when they
// have one.
func (s *Segment) saveDict(sw *sectionWriter) error {
	if s.stored.dict == nil {
		return nil
	}
	return sw.set(s.stored.dictData, kDict)
}

// saveFieldLens writes each text field's per-doc lengths.
func (s *Segment) saveFieldLens(sw *sectionWriter) error {
	for f := range s.fieldLen {
		if err := sw.set(s.fieldLen[f], kFldLen, fieldLensKey(TextField(f))); err != nil {
			return err
		}
	}
	return nil
}

// saveKeywords writes each keyword field's column (appendKeywordColumn)
// and its values' bitmaps, by name.
func (s *Segment) saveKeywords(sw *sectionWriter) error {
	for _, name := range sortedNames(s.keyword) {
		k := s.keyword[name]
		sw.buf = appendKeywordColumn(sw.buf[:0], k.offs, k.vals)
		if err := sw.set(sw.buf, kKeyword, name, "\x00", keywordColumnKey); err != nil {
			return err
		}
		for id, bm := range k.Bitmaps {
			b, err := bm.ToBytes()
			if err != nil {
				return err
			}
			if err := sw.set(b, kKeyword, name, "\x00", keywordValueKey(id)); err != nil {
				return err
			}
		}
	}
	return nil
}

// saveMeta writes the meta: the doc count, the fields and the sections'
// sizes (segMeta), as JSON.
func (s *Segment) saveMeta(sw *sectionWriter) error {
	mb, err := json.Marshal(s.meta())
	if err != nil {
		return err
	}
	return sw.set(mb, kMeta)
}

// meta is s's segMeta.
func (s *Segment) meta() segMeta {
	meta := segMeta{Format: FormatVersion, N: s.n, AvgLen: s.avgLen[:], Keywords: map[string]kwMeta{}, Compressed: s.stored.dict != nil,
		Postings: len(s.post.docs), Spans: len(s.post.spans), Terms: s.terms.len(), TermBytes: len(s.terms.text), KeyBytes: len(s.keys.text),
		Words: s.surfaces.len(), WordBytes: len(s.surfaces.text), AltKeys: max(0, len(s.keyDoc.docs)-int(s.n)),
		Members: s.stored.names.Counts(), Sorts: s.textSortNames()}
	for name := range s.numeric {
		meta.Numeric = append(meta.Numeric, name)
	}
	slices.Sort(meta.Numeric)
	for d := range s.n {
		meta.StoredBytes += len(s.stored.doc(d))
	}
	for name, k := range s.keyword {
		meta.Keywords[name] = kwMeta{Values: k.Values, Single: k.single}
	}
	return meta
}

// textSortNames is the names of s's text sorts (the sorts not of a
// number field), in order.
func (s *Segment) textSortNames() []string {
	var names []string
	for name := range s.sorts {
		if s.numeric[name] == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// saveNumerics writes each number field's column (appendNumericColumn),
// by name.
func (s *Segment) saveNumerics(sw *sectionWriter) error {
	var err error
	for _, name := range sortedNames(s.numeric) {
		if sw.buf, err = appendNumericColumn(sw.buf[:0], s.numeric[name]); err != nil {
			return err
		}
		if err := sw.set(sw.buf, kNumeric, name); err != nil {
			return err
		}
	}
	return nil
}

// saveSorts writes each text sort's ranks (appendSortRanks), by name.
func (s *Segment) saveSorts(sw *sectionWriter) error {
	for _, name := range s.textSortNames() {
		sw.buf = appendSortRanks(sw.buf[:0], s.sorts[name])
		if err := sw.set(sw.buf, kSort, name); err != nil {
			return err
		}
	}
	return nil
}

// writeChunks writes n entries, size to a key, under prefix+kind and the
// chunk's number; appendOne appends entry i to the chunk's buffer.
func writeChunks(w KVWriter, prefix, kind string, n, size int, appendOne func(buf []byte, i int) ([]byte, error)) error {
	var buf []byte
	for i := 0; i < n; i++ {
		if i%size == 0 {
			buf = buf[:0]
		}
		var err error
		if buf, err = appendOne(buf, i); err != nil {
			return err
		}
		if i%size == size-1 || i == n-1 {
			if err := w.Set(chunkKey(prefix, kind, i/size), buf); err != nil {
				return err
			}
		}
	}
	return nil
}

// sortedNames is a map's keys in order.
func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ErrCorrupt marks a saved segment Load cannot read; the error wrapping it
// names the part ("load terms") and the check that failed. The caller
// rebuilds the segment.
var ErrCorrupt = errors.New("corrupt segment")

// corruptf is ErrCorrupt with the check that failed.
func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// checkColumn checks a loaded value column: offsets from 0 to len(vals),
// never decreasing, and value ids below values; the error names the
// check that failed.
func checkColumn(offs, vals []uint32, values int) error {
	switch {
	case len(offs) == 0:
		return corruptf("column without offsets")
	case offs[0] != 0:
		return corruptf("column offsets start at %d, not 0", offs[0])
	case offs[len(offs)-1] != uint32(len(vals)):
		return corruptf("column offsets end at %d, its values at %d", offs[len(offs)-1], len(vals))
	}
	for i := 1; i < len(offs); i++ {
		if offs[i] < offs[i-1] {
			return corruptf("column offsets decrease at doc %d: %d after %d", i, offs[i], offs[i-1])
		}
	}
	for _, v := range vals {
		if v >= uint32(values) {
			return corruptf("column value %d past its %d values", v, values)
		}
	}
	return nil
}

type decoder struct {
	b   []byte
	err error
	// arena, when set, holds the bytes bitmap copies: a section's
	// bitmaps share its chunks (nil: each is its own allocation).
	arena *byteArena
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = corruptf("varint cut short or too long")
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.err = corruptf("byte past the end")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) bytes(n int) []byte {
	if n < 0 || n > len(d.b) {
		d.err = corruptf("%d bytes wanted, %d left", n, len(d.b))
		d.b = nil
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) uint32s() []uint32 {
	n := int(d.uvarint())
	raw := d.bytes(4 * n)
	if d.err != nil {
		return nil
	}
	out := makeHuge[uint32](n, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return out
}

func (d *decoder) bitmap(b []byte) *roaring.Bitmap {
	bm := roaring.New()
	if _, err := bm.FromBuffer(d.arena.copy(b)); err != nil {
		d.err = corruptf("bitmap: %v", err)
	}
	return bm
}

// Load reads a segment saved under prefix: its meta (loadMeta), then
// each section in turn (loadX below, each reading what Save's saveX
// wrote, entry by entry with sections.go's decodeX). The docs and
// columns load on a goroutine of their own (loadColumns) beside the
// terms, words and field lengths. A section that fails a check is an
// error wrapping ErrCorrupt, naming the section ("load terms") and the
// check; an error of the terms is reported first, as a load in section
// order would.
func Load(r KVReader, prefix string) (*Segment, error) {
	meta, err := loadMeta(r, prefix)
	if err != nil {
		return nil, err
	}
	s := loadingSegment(meta.N)
	colErr := make(chan error, 1)
	go func() { colErr <- s.loadColumns(r, prefix, meta) }()
	colDone := false
	defer func() {
		if !colDone { // an early error: the reader stays in use until it ends
			<-colErr
		}
	}()
	if err := s.loadTerms(r, prefix, meta); err != nil {
		return nil, err
	}
	s.byLen, s.typo = typoTerms(&s.terms), newTypoHolder()
	if err := s.loadWords(r, prefix, meta); err != nil {
		return nil, err
	}
	if err := s.loadFieldLens(r, prefix, meta); err != nil {
		return nil, err
	}
	colDone = true
	if err := <-colErr; err != nil {
		return nil, err
	}
	return s, nil
}

// loadMeta reads the meta under prefix; a segment saved in another
// FormatVersion is ErrFormat.
func loadMeta(r KVReader, prefix string) (*segMeta, error) {
	var meta segMeta
	found := false
	if err := r.Scan(segKey(prefix, kMeta), func(_, v []byte) error {
		found = true
		return json.Unmarshal(v, &meta)
	}); err != nil {
		return nil, fmt.Errorf("load segment meta: %w", err)
	}
	if !found {
		return nil, fmt.Errorf("load segment: no segment under %q", prefix)
	}
	if meta.Format != FormatVersion {
		return nil, fmt.Errorf("load segment: %w %d, this build reads %d", ErrFormat, meta.Format, FormatVersion)
	}
	return &meta, nil
}

// loadingSegment is the segment Load fills: n docs, all live, no
// sections yet.
func loadingSegment(n uint32) *Segment {
	s := &Segment{
		n:       n,
		live:    n,
		all:     roaring.New(),
		post:    newPostings(0, 0),
		keys:    newDict(int(n), 0),
		keyword: map[string]*KeywordField{},
		numeric: map[string]*NumericField{},
		sorts:   map[string][]uint32{},
		stored:  storedDocs{off: make([]uint64, 1, n+1)},
	}
	if n > 0 {
		s.all.AddRange(0, uint64(n))
	}
	return s
}

// loadTerms reads the terms and their postings (decodeTermEntry). With
// the sizes in the meta, the postings decode into arenas of their size;
// without, each chunk's into arenas of their own, joined once at the end
// (appending a million products' postings to one arena copied it over
// and over as it grew).
func (s *Segment) loadTerms(r KVReader, prefix string, meta *segMeta) error {
	n := s.n
	sized := meta.Postings > 0
	terms := sizeHint(meta.Terms, n, 256)
	s.terms = newDict(terms, sizeHint(meta.TermBytes, n, 4096))
	if sized {
		postings := sizeHint(meta.Postings, n, 1024)
		s.post = newPostings(terms, postings)
		s.post.spans = makeHuge[postSpan](0, sizeHint(meta.Spans, n, 1024))
	}
	var dec decoder
	var prevTerm string
	var parts []postings
	var bitmaps byteArena
	err := r.Scan(segKey(prefix, kTerm), func(k, v []byte) error {
		dec = decoder{b: v, arena: &bitmaps}
		if !sized {
			// A posting takes two bytes at least (a delta and a
			// frequency): the chunk's size bounds its postings.
			s.post = newPostings(0, len(v)/2)
		}
		for len(dec.b) > 0 {
			if err := s.decodeTermEntry(&dec, prevTerm); err != nil {
				return err
			}
			prevTerm = s.terms.at(s.terms.len() - 1)
		}
		if !sized {
			parts = append(parts, s.post)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("load terms: %w", err)
	}
	if !sized {
		s.post = joinPostings(parts)
	}
	s.post.buildDense(int(s.n))
	return nil
}

// loadWords reads the words, each with its term and doc count
// (decodeWordEntry), strictly ascending; the terms are loaded.
func (s *Segment) loadWords(r KVReader, prefix string, meta *segMeta) error {
	n := s.n
	words := sizeHint(meta.Words, n, 256)
	s.surfaces = newDict(words, sizeHint(meta.WordBytes, n, 4096))
	s.surfaceTerm, s.surfaceDF = make([]uint32, 0, words), make([]uint32, 0, words)
	var dec decoder
	err := r.Scan(segKey(prefix, kSurface), func(k, v []byte) error {
		dec = decoder{b: v}
		for len(dec.b) > 0 {
			word, id, df, err := decodeWordEntry(&dec, s.terms.len(), n)
			if err != nil {
				return err
			}
			if i := s.surfaces.len(); i > 0 && string(word) <= s.surfaces.at(i-1) {
				return corruptf("word %q not after %q", word, s.surfaces.at(i-1))
			}
			s.surfaces.addBytes(word)
			s.surfaceTerm = append(s.surfaceTerm, id)
			s.surfaceDF = append(s.surfaceDF, df)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("load words: %w", err)
	}
	return nil
}

// loadFieldLens reads the text fields' per-doc lengths (decodeFieldLens;
// a field without any has none) and checks their means against the
// meta's.
func (s *Segment) loadFieldLens(r KVReader, prefix string, meta *segMeta) error {
	n := s.n
	err := r.Scan(segKey(prefix, kFldLen), func(k, v []byte) error {
		f, lens, err := decodeFieldLens(k, v, n)
		if err != nil {
			return err
		}
		s.fieldLen[f] = lens
		return nil
	})
	if err != nil {
		return fmt.Errorf("load field lengths: %w", err)
	}
	for f := range s.fieldLen {
		if len(s.fieldLen[f]) != int(n) {
			s.fieldLen[f] = make([]uint8, n)
		}
	}
	s.sumFieldLens()
	if !slices.Equal(s.avgLen[:], meta.AvgLen) {
		return fmt.Errorf("load field lengths: %w", corruptf("mean lengths %v, saved as %v", s.avgLen, meta.AvgLen))
	}
	return nil
}

// loadColumns reads the docs, keys, keyword, numeric and sort sections
// into s (meta.N docs); Load runs it beside the terms, on its own
// decoder.
func (s *Segment) loadColumns(r KVReader, prefix string, meta *segMeta) error {
	// The fields load beside the docs: a third goroutine, so a core that
	// the terms leave idle takes them. The docs' error comes first, as in
	// section order.
	fieldsErr := make(chan error, 1)
	go func() { fieldsErr <- s.loadFields(r, prefix, meta) }()
	own, err := s.loadDocs(r, prefix, meta)
	if err == nil {
		err = s.loadAltKeys(r, prefix, meta, own)
	}
	if err != nil {
		<-fieldsErr
		return err
	}
	return <-fieldsErr
}

// loadDocs reads the docs, their keys (decodeDocEntry) and the
// compression dictionary into s, and returns the docs' own keys, folded,
// in doc order.
func (s *Segment) loadDocs(r KVReader, prefix string, meta *segMeta) ([]keyID, error) {
	own, loaded, err := s.loadDocChunks(r, prefix, meta)
	if err != nil {
		return nil, fmt.Errorf("load documents: %w", err)
	}
	if err := s.loadDict(r, prefix); err != nil {
		return nil, fmt.Errorf("load documents: dictionary: %w", err)
	}
	if meta.Compressed != (s.stored.dict != nil) {
		return nil, fmt.Errorf("load documents: %w", corruptf("dictionary missing or unexpected (compressed %v)", meta.Compressed))
	}
	if loaded != meta.N {
		return nil, fmt.Errorf("load documents: %w", corruptf("%d of %d present", loaded, meta.N))
	}
	s.stored.names = memberNamesOf(meta.Members)
	return own, nil
}

// loadDocChunks reads the doc chunks: each doc's key and stored bytes,
// checked (checkEntry). Sized from the meta, the docs go to one arena;
// else per chunk, joined once (as postings are). It returns the docs'
// own keys, folded, and how many docs it read.
func (s *Segment) loadDocChunks(r KVReader, prefix string, meta *segMeta) ([]keyID, uint32, error) {
	n := meta.N
	var dec decoder
	loaded := uint32(0)
	own := makeHuge[keyID](0, int(min(n, 1<<20))) // folded own keys, in doc order: near sorted
	sized := meta.StoredBytes > 0
	if sized {
		s.stored = storedDocs{data: makeHuge[byte](0, sizeHint(meta.StoredBytes, n, 1<<20)), off: makeHuge[uint64](1, int(n)+1)}
	}
	if meta.KeyBytes > 0 {
		s.keys = newDict(int(n), sizeHint(meta.KeyBytes, n, 1024))
	}
	var docParts []storedDocs
	err := r.Scan(segKey(prefix, kDoc), func(k, v []byte) error {
		dec = decoder{b: v}
		part := &s.stored
		if !sized {
			part = &storedDocs{data: make([]byte, 0, len(v)), off: make([]uint64, 1, docChunk+1)} // its docs are in v
		}
		for len(dec.b) > 0 {
			key, doc, err := decodeDocEntry(&dec)
			if err != nil {
				return err
			}
			if loaded >= n {
				return corruptf("more than %d docs", n)
			}
			if err := checkEntry(doc); err != nil {
				return fmt.Errorf("doc %d: %w", loaded, err)
			}
			part.add(doc)
			s.keys.addBytes(key)
			own = append(own, keyID{foldKey(s.keys.at(int(loaded))), loaded})
			loaded++
		}
		if !sized {
			docParts = append(docParts, *part)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if !sized {
		s.stored = joinStored(docParts)
	}
	return own, loaded, nil
}

// loadDict reads the stored docs' compression dictionary, when there is
// one (decodeDict).
func (s *Segment) loadDict(r KVReader, prefix string) error {
	return r.Scan(segKey(prefix, kDict), func(k, v []byte) error {
		if string(k) != prefix+kDict {
			return nil
		}
		var err error
		s.stored.dictData, s.stored.dict, err = decodeDict(v)
		return err
	})
}

// loadAltKeys reads the alternative keys (decodeAltKey) and makes the
// key index of them and the docs' own keys (own, from loadDocs).
func (s *Segment) loadAltKeys(r KVReader, prefix string, meta *segMeta, own []keyID) error {
	alts := makeHuge[keyID](0, sizeHint(meta.AltKeys, meta.N, 64))
	var docs []uint32
	err := r.Scan(segKey(prefix, kAltKey), func(k, v []byte) error {
		var err error
		if docs, err = decodeAltKey(docs[:0], k, v, meta.N); err != nil {
			return err
		}
		key := string(k[len(prefix)+len(kAltKey):])
		for _, d := range docs {
			alts = append(alts, keyID{key, d})
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("load keys: %w", err)
	}
	s.keyDoc = newKeyIndex(own, alts)
	return nil
}

// loadFields reads the keyword, number and sort columns into s, field by
// field, in the meta's order.
func (s *Segment) loadFields(r KVReader, prefix string, meta *segMeta) error {
	var bitmaps byteArena // the keyword fields' bitmaps share its chunks
	for name, km := range meta.Keywords {
		k, err := loadKeyword(r, prefix, name, km, meta.N, &bitmaps)
		if err != nil {
			return fmt.Errorf("load field %s: %w", name, err)
		}
		s.keyword[name] = k
	}
	for _, name := range meta.Numeric {
		nf, err := loadNumeric(r, prefix, name, meta.N)
		if err != nil {
			return fmt.Errorf("load numeric %s: %w", name, err)
		}
		s.numeric[name] = nf
		s.sorts[name] = numericRank(nf, meta.N)
	}
	for _, name := range meta.Sorts {
		ranks, err := loadSort(r, prefix, name, meta.N)
		if err != nil {
			return fmt.Errorf("load sort %s: %w", name, err)
		}
		s.sorts[name] = ranks
	}
	return nil
}

// loadKeyword reads keyword field name of a segment of n docs: its
// column (decodeKeywordColumn) and a bitmap for each of its values,
// checked against each other.
func loadKeyword(r KVReader, prefix, name string, km kwMeta, n uint32, bitmaps *byteArena) (*KeywordField, error) {
	k := &KeywordField{Name: name, Values: km.Values, single: km.Single, lookup: make(map[string]uint32, len(km.Values))}
	k.Bitmaps = make([]*roaring.Bitmap, len(km.Values))
	var dec decoder
	err := r.Scan(segKey(prefix, kKeyword, name, "\x00"), func(key, v []byte) error {
		rest := string(key[len(prefix)+len(kKeyword)+len(name)+1:])
		dec = decoder{b: v, arena: bitmaps}
		if rest == keywordColumnKey {
			var err error
			k.offs, k.vals, err = decodeKeywordColumn(v)
			return err
		}
		id, err := decodeKeywordValueKey(rest, len(k.Bitmaps))
		if err != nil {
			return err
		}
		k.Bitmaps[id] = dec.bitmap(v)
		return dec.err
	})
	switch {
	case err != nil:
		return nil, err
	case k.offs == nil:
		return nil, corruptf("column missing")
	case len(k.offs) != int(n)+1:
		return nil, corruptf("column of %d docs, not %d", len(k.offs)-1, n)
	case slices.Contains(k.Bitmaps, nil):
		return nil, corruptf("value %d has no bitmap", slices.Index(k.Bitmaps, nil))
	}
	if err := checkColumn(k.offs, k.vals, len(k.Values)); err != nil {
		return nil, err
	}
	for id, v := range k.Values {
		k.lookup[foldKey(v)] = uint32(id)
	}
	k.initHierarchy()
	k.initColumns()
	return k, nil
}

// loadNumeric reads number field name of a segment of n docs
// (decodeNumericColumn).
func loadNumeric(r KVReader, prefix, name string, n uint32) (*NumericField, error) {
	var nb *numBuilder
	err := r.Scan(segKey(prefix, kNumeric, name), func(key, v []byte) error {
		if string(key) != prefix+kNumeric+name {
			return nil
		}
		var err error
		nb, err = decodeNumericColumn(v, n)
		return err
	})
	if err == nil && nb == nil {
		err = corruptf("column missing")
	}
	if err != nil {
		return nil, err
	}
	return nb.build(name, n), nil
}

// loadSort reads text sort name's ranks of a segment of n docs
// (decodeSortRanks).
func loadSort(r KVReader, prefix, name string, n uint32) ([]uint32, error) {
	var ranks []uint32
	found := false
	err := r.Scan(segKey(prefix, kSort, name), func(key, v []byte) error {
		if string(key) != prefix+kSort+name {
			return nil
		}
		found = true
		var err error
		ranks, err = decodeSortRanks(v, n)
		return err
	})
	if err == nil && !found {
		err = corruptf("ranks missing")
	}
	if err != nil {
		return nil, err
	}
	return ranks, nil
}
