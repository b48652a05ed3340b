package index

import "encoding/binary"

// A stored entry is one doc's bytes in storedDocs: the hashes of its
// title's words in order (TitleHash of each token's term, as the title
// field indexes it), then of the same words' forms (TitleHash of
// analysis.Analyzer.Form of each token as written), the offsets of its
// JSON's top-level members (jsonscan.MemberStarts; none when it is not
// an object), then its JSON, compressed when the docs have a
// dictionary:
//
//	uvarint n | n × uint16 terms | n × uint16 forms, little endian |
//	uvarint m | uvarint b | m × uvarint in b bytes, each offset less
//	the one before | JSON
//
// The offsets' byte count puts the JSON a read away: a doc's JSON is
// found without decoding its offsets, which only a projection reads.
//
// Proximity re-ranking reads a title's words from the hashes, and the
// exact forms' re-ranking their forms, without decoding or tokenizing
// the JSON, and a field projection jumps to the
// members it wants; they ride in the entry so that every path that
// keeps, replaces, compacts, saves or loads a doc keeps them with it,
// overlays included.

// TitleHash is the 16-bit hash a title word's term is kept as: FNV-1a,
// its halves xored. Two terms share one in 65,536.
func TitleHash(term string) uint16 {
	h := uint32(2166136261)
	for i := 0; i < len(term); i++ {
		h = (h ^ uint32(term[i])) * 16777619
	}
	return uint16(h>>16) ^ uint16(h)
}

// appendEntry appends the entry of a doc with title hashes (its words'
// terms' then their forms', 2 bytes each as appendTitleHash writes
// them), the member offsets of its JSON and payload (the JSON,
// compressed or not).
func appendEntry(dst, hashes []byte, starts []uint32, payload []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(hashes)/4))
	dst = append(dst, hashes...)
	dst = binary.AppendUvarint(dst, uint64(len(starts)))
	size := 0
	prev := uint32(0)
	for _, st := range starts {
		size += uvarintLen(uint64(st - prev))
		prev = st
	}
	dst = binary.AppendUvarint(dst, uint64(size))
	prev = 0
	for _, st := range starts {
		dst = binary.AppendUvarint(dst, uint64(st-prev))
		prev = st
	}
	return append(dst, payload...)
}

// uvarintLen is how many bytes binary.AppendUvarint writes for v.
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// appendTitleHash appends one title word's hash to a doc's hashes.
func appendTitleHash(dst []byte, h uint16) []byte {
	return binary.LittleEndian.AppendUint16(dst, h)
}

// storedEntry is an entry's parts, views into it.
type storedEntry struct {
	members []byte // the member offsets, as appendEntry encodes them
	count   int    // how many offsets members holds
	payload []byte
}

// decodeEntry splits an entry into its parts, reading no member
// offset (checkEntry does, at load). An empty entry (a removed doc) has
// none.
func decodeEntry(src []byte) (storedEntry, error) {
	var e storedEntry
	if len(src) == 0 {
		return e, nil
	}
	n, k := binary.Uvarint(src)
	if k <= 0 {
		return e, corruptf("stored entry: title hash count unreadable")
	}
	if n > uint64(len(src)-k)/4 {
		return e, corruptf("stored entry: %d title words' hashes run past its %d bytes", n, len(src))
	}
	at := k + int(n)*4
	m, k := binary.Uvarint(src[at:])
	if k <= 0 || m > uint64(len(src)-at-k) {
		return e, corruptf("stored entry: member count unreadable or past its %d bytes", len(src))
	}
	at += k
	b, k := binary.Uvarint(src[at:])
	if k <= 0 || b < m || b > uint64(len(src)-at-k) {
		return e, corruptf("stored entry: %d member offsets' byte count unreadable or past its %d bytes", m, len(src))
	}
	at += k
	end := at + int(b)
	e.members, e.count, e.payload = src[at:end], int(m), src[end:]
	return e, nil
}

// checkEntry is decodeEntry with the member offsets read through: each
// readable, and all of them filling their bytes exactly.
func checkEntry(src []byte) error {
	e, err := decodeEntry(src)
	if err != nil {
		return err
	}
	b := e.members
	for range e.count {
		_, k := binary.Uvarint(b)
		if k <= 0 {
			return corruptf("stored entry: member offset unreadable")
		}
		b = b[k:]
	}
	if len(b) != 0 {
		return corruptf("stored entry: %d member offsets end %d bytes short of their %d", e.count, len(b), len(e.members))
	}
	return nil
}

// entryTitle is an entry's title hashes, its words' terms' then their
// forms', read without walking its member offsets (decodeEntry checked
// the entry at load): the re-rankings read them for 20 docs a search.
func entryTitle(src []byte) []byte {
	n, k := binary.Uvarint(src)
	if k <= 0 || n > uint64(len(src)-k)/4 {
		return nil
	}
	return src[k : k+int(n)*4]
}

// appendMemberStarts appends an entry's member offsets to dst.
func appendMemberStarts(dst []uint32, e *storedEntry) []uint32 {
	prev, b := uint32(0), e.members
	for range e.count {
		d, k := binary.Uvarint(b)
		b = b[k:]
		prev += uint32(d)
		dst = append(dst, prev)
	}
	return dst
}
