package store

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The database's key layout. Every key the store reads or writes is made
// here; nothing else spells a prefix.
//
//	l/<seq: 8 bytes big-endian>    a log entry (JSON), in order
//	p/<productNumber>              a product's JSON
//	c/<kind>/<id>                  a content item's JSON
//	m/config                       the configuration file (JSON)
//	m/seq                          the last applied entry: 8 bytes big-endian
//	m/pseq                         the last entry that changed a product
//	m/segment/<name>               a saved segment's stamp (JSON)
//	x/<name>/...                   a saved segment's keys
const (
	prefixLog     = "l/"
	prefixProduct = "p/"
	prefixContent = "c/"
	prefixSegment = "x/"
	keyConfig     = "m/config"
	keySeq        = "m/seq"
	keyProductSeq = "m/pseq"
	keySegment    = "m/segment/"
)

// ErrCorrupt marks a key or value the store cannot read back; the
// wrapping error names the check that failed.
var ErrCorrupt = errors.New("corrupt store")

// corruptionErrorf wraps ErrCorrupt with what was checked.
func corruptionErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// appendLogKey appends the key of log entry seq: entries sort in sequence
// order.
func appendLogKey(dst []byte, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(append(dst, prefixLog...), seq)
}

// decodeLogKey is the sequence number of a log entry's key.
func decodeLogKey(k []byte) (uint64, error) {
	if len(k) != len(prefixLog)+8 || string(k[:len(prefixLog)]) != prefixLog {
		return 0, corruptionErrorf("log key %q is not %q and 8 bytes", k, prefixLog)
	}
	return binary.BigEndian.Uint64(k[len(prefixLog):]), nil
}

// appendSeq appends a sequence number as the value of keySeq or
// keyProductSeq.
func appendSeq(dst []byte, seq uint64) []byte { return binary.BigEndian.AppendUint64(dst, seq) }

// decodeSeq reads a value appendSeq wrote; name says which key it is.
func decodeSeq(name string, v []byte) (uint64, error) {
	if len(v) != 8 {
		return 0, corruptionErrorf("%s holds %d bytes, not 8", name, len(v))
	}
	return binary.BigEndian.Uint64(v), nil
}

// appendProductKey appends the state key of a product.
func appendProductKey(dst []byte, productNumber string) []byte {
	return append(append(dst, prefixProduct...), productNumber...)
}

// contentKey is the state key of a content item; id is "<kind>/<id>".
func contentKey(id string) []byte { return []byte(prefixContent + id) }

// segmentStampKey is the key of a saved segment's stamp.
func segmentStampKey(name string) []byte { return []byte(keySegment + name) }

// SegmentPrefix is the key prefix of a named segment.
func SegmentPrefix(name string) string { return prefixSegment + name + "/" }

// prefixEnd is the first key after every key starting with p.
func prefixEnd(p string) []byte {
	b := []byte(p)
	b[len(b)-1]++
	return b
}
