package index

import "encoding/binary"

// A stored entry is one doc's bytes in storedDocs: the hashes of its
// title's words in order (TitleHash of each token's term, as the title
// field indexes it), then its JSON, compressed when the docs have a
// dictionary:
//
//	uvarint n | n × uint16, little endian | JSON
//
// Proximity re-ranking reads a title's words from the hashes, without
// decoding or tokenizing the JSON; they ride in the entry so that every
// path that keeps, replaces, compacts, saves or loads a doc keeps them
// with it, overlays included.

// TitleHash is the 16-bit hash a title word's term is kept as: FNV-1a,
// its halves xored. Two terms share one in 65,536.
func TitleHash(term string) uint16 {
	h := uint32(2166136261)
	for i := 0; i < len(term); i++ {
		h = (h ^ uint32(term[i])) * 16777619
	}
	return uint16(h>>16) ^ uint16(h)
}

// appendEntry appends the entry of a doc with title hashes (2 bytes
// each, as appendTitleHash writes them) and payload.
func appendEntry(dst, hashes, payload []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(hashes)/2))
	dst = append(dst, hashes...)
	return append(dst, payload...)
}

// appendTitleHash appends one title word's hash to a doc's hashes.
func appendTitleHash(dst []byte, h uint16) []byte {
	return binary.LittleEndian.AppendUint16(dst, h)
}

// decodeEntry splits an entry into its title hashes and its payload,
// both views into src. An empty entry (a removed doc) is neither.
func decodeEntry(src []byte) (hashes, payload []byte, err error) {
	if len(src) == 0 {
		return nil, nil, nil
	}
	n, k := binary.Uvarint(src)
	if k <= 0 {
		return nil, nil, corruptf("stored entry: title hash count unreadable")
	}
	if n > uint64(len(src)-k)/2 {
		return nil, nil, corruptf("stored entry: %d title hashes run past its %d bytes", n, len(src))
	}
	end := k + int(n)*2
	return src[k:end], src[end:], nil
}
