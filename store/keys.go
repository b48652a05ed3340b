package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/aisle-search/aisle/analysis"
)

// The database's key layout (Layout 3). Every key the store reads or
// writes is made here; nothing else spells a prefix. A website's keys
// carry its UUID, which config.Validate keeps free of '/'.
//
//	l/<seq: 8 bytes big-endian>    a log entry (JSON), in order; entries of events alone a snapshot covers may be gone (CompactEvents)
//	p/<uuid>/<product id>          a product's JSON, under ProductID of its number
//	c/<uuid>/<kind>/<content id>   a content item's JSON, under ContentID of its id
//	v/<uuid>/<seq: 8 bytes>        the events of log entry seq (a JSON array), so a start replays them without reading the rest of the log
//	b/<uuid>/<chunk: 4 bytes>      a snapshot of the website's behaviour (package behaviour), in chunks of SnapshotChunk bytes
//	m/config                       the configuration file (JSON)
//	m/layout                       the key layout: 8 bytes big-endian
//	m/seq                          the last applied entry: 8 bytes big-endian
//	m/secret                       32 random bytes, made once: the key of the identities' hashes (Secret)
//	m/pseq/<uuid>                  the last entry that changed the website's products
//	m/position/<log>               the last entry of a replicated log (package cluster) applied here: 8 bytes big-endian, written with that entry
//	m/segment/<name>               a saved segment's stamp (JSON), naming its generation
//	m/segment-gen/<name>           the last generation a save of the segment took: 8 bytes big-endian
//	x/<name>@<gen: 16 hex>/...     a saved segment's keys, generation gen
//	x/<name>/...                   a saved segment's keys, generation 0 (saved before generations)
//	k/<key id>                     an API key (access.Key's JSON: the secret's digest, never the secret)
//	a/e/<id: 10 bytes>             an audit entry (JSON); id is its log entry's seq (8 bytes) and its index in the entry (2 bytes), both big-endian
//	a/t/<time: 8 bytes><id>        the audit entry id, created at time (Unix nanoseconds, sign bit flipped, big-endian); times rise with ids
//	a/f/<m>/<len><value><id>       the audit entry id has value (uvarint length, then its bytes) in member m (auditMembers): the postings AuditLogs intersects
const (
	prefixLog        = "l/"
	prefixProduct    = "p/"
	prefixContent    = "c/"
	prefixEvents     = "v/"
	prefixSnapshot   = "b/"
	prefixSegment    = "x/"
	prefixProductSeq = "m/pseq/"
	prefixPosition   = "m/position/"
	keyConfig        = "m/config"
	keyLayout        = "m/layout"
	keySeq           = "m/seq"
	keySecret        = "m/secret"
	keySegment       = "m/segment/"
	keySegmentGen    = "m/segment-gen/"
	prefixAPIKey     = "k/"
	prefixAudit      = "a/e/"
	prefixAuditTime  = "a/t/"
	prefixAuditIndex = "a/f/"
)

// Layout is the key layout this package writes, stored at m/layout.
// Layout 2 keyed products and content items by their exact number and
// id; Open rewrites such a store to layout 3 (migrate.go). A store of another layout (layout 1
// had no website in its keys) is refused with ErrLayout, never read
// wrongly. A change to analysis.FoldString changes product ids, so it
// is a new layout.
const Layout = 3

// ErrLayout marks a store written in another key layout.
var ErrLayout = errors.New("store written in another key layout")

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

// appendSeq appends a sequence number as the value of keySeq, keyLayout
// or a product sequence key.
func appendSeq(dst []byte, seq uint64) []byte { return binary.BigEndian.AppendUint64(dst, seq) }

// decodeSeq reads a value appendSeq wrote; name says which key it is.
func decodeSeq(name string, v []byte) (uint64, error) {
	if len(v) != 8 {
		return 0, corruptionErrorf("%s holds %d bytes, not 8", name, len(v))
	}
	return binary.BigEndian.Uint64(v), nil
}

// productPrefix is the prefix of a website's product keys.
func productPrefix(website string) string { return prefixProduct + website + "/" }

// ProductID is a product's identity: its number folded
// (analysis.FoldString), as search, deletes and the index compare
// numbers. Two numbers with one id (SEC-Ä and sec-a) name one product:
// an upsert of either replaces it, and it takes the number last written.
func ProductID(productNumber string) string { return analysis.FoldString(productNumber) }

// appendProductKey appends the state key of a website's product
// numbered productNumber: its ProductID.
func appendProductKey(dst []byte, website, productNumber string) []byte {
	return appendProductIDKey(dst, website, ProductID(productNumber))
}

// appendProductIDKey appends the state key of a website's product whose
// ProductID is id.
func appendProductIDKey(dst []byte, website, id string) []byte {
	return append(append(append(append(dst, prefixProduct...), website...), '/'), id...)
}

// contentPrefix is the prefix of a website's content keys.
func contentPrefix(website string) string { return prefixContent + website + "/" }

// ContentID is a content item's identity within its kind: its id folded,
// as ProductID folds a product number. Items of one kind whose ids fold
// alike (Acme, acme) are one item.
func ContentID(id string) string { return analysis.FoldString(id) }

// contentKey is the state key of a website's content item; k is
// "<kind>/<id>", keyed "<kind>/<ContentID of id>".
func contentKey(website, k string) []byte {
	kind, id, _ := strings.Cut(k, "/")
	return []byte(contentPrefix(website) + kind + "/" + ContentID(id))
}

// positionKey is the key of a replicated log's applied position.
func positionKey(log string) []byte { return []byte(prefixPosition + log) }

// decodePositionKey is the log a position key names.
func decodePositionKey(k []byte) (string, error) {
	log, ok := strings.CutPrefix(string(k), prefixPosition)
	if !ok || log == "" {
		return "", corruptionErrorf("position key %q is not %q and a log's name", k, prefixPosition)
	}
	return log, nil
}

// productSeqKey is the key of a website's product sequence.
// appendEventsKey appends the key of website's events of entry seq.
func appendEventsKey(dst []byte, website string, seq uint64) []byte {
	dst = append(append(append(dst, prefixEvents...), website...), '/')
	return binary.BigEndian.AppendUint64(dst, seq)
}

// decodeEventsKey reads an events key back.
func decodeEventsKey(k []byte) (website string, seq uint64, err error) {
	rest, ok := bytes.CutPrefix(k, []byte(prefixEvents))
	if !ok || len(rest) < 10 || rest[len(rest)-9] != '/' {
		return "", 0, corruptionErrorf("events key %q is not %q, a website, '/' and 8 bytes", k, prefixEvents)
	}
	return string(rest[:len(rest)-9]), binary.BigEndian.Uint64(rest[len(rest)-8:]), nil
}

// snapshotPrefix is the key prefix of website's behaviour snapshot.
func snapshotPrefix(website string) string { return prefixSnapshot + website + "/" }

// appendSnapshotKey appends the key of chunk i of website's snapshot.
func appendSnapshotKey(dst []byte, website string, i uint32) []byte {
	return binary.BigEndian.AppendUint32(append(dst, snapshotPrefix(website)...), i)
}

// decodeSnapshotKey is the website of a snapshot chunk's key.
func decodeSnapshotKey(k []byte) (string, error) {
	rest, ok := bytes.CutPrefix(k, []byte(prefixSnapshot))
	if !ok || len(rest) < 6 || rest[len(rest)-5] != '/' {
		return "", corruptionErrorf("snapshot key %q is not %q, a website, '/' and 4 bytes", k, prefixSnapshot)
	}
	return string(rest[:len(rest)-5]), nil
}

func productSeqKey(website string) []byte { return []byte(prefixProductSeq + website) }

// decodeProductSeqKey is the website of a product sequence key.
func decodeProductSeqKey(k []byte) (string, error) {
	if len(k) <= len(prefixProductSeq) || string(k[:len(prefixProductSeq)]) != prefixProductSeq {
		return "", corruptionErrorf("product sequence key %q is not %q and a website", k, prefixProductSeq)
	}
	return string(k[len(prefixProductSeq):]), nil
}

// segmentStampKey is the key of a saved segment's stamp.
func segmentStampKey(name string) []byte { return []byte(keySegment + name) }

// segmentGenKey is the key of a segment's last generation.
func segmentGenKey(name string) []byte { return []byte(keySegmentGen + name) }

// segmentPrefix is the key prefix of generation gen of a named segment.
// Each save writes a new generation beside the last, so pebble ingests it
// into the bottom level untouched and drops the older ones whole, where
// saving under one prefix laid a range deletion over the new table and
// made compactions rewrite every save twice.
func segmentPrefix(name string, gen uint64) string {
	if gen == 0 {
		return prefixSegment + name + "/"
	}
	return fmt.Sprintf("%s%s@%016x/", prefixSegment, name, gen)
}

// prefixEnd is the first key after every key starting with p.
func prefixEnd(p string) []byte {
	b := []byte(p)
	b[len(b)-1]++
	return b
}

// apiKeyKey is the key of the API key whose id is id.
func apiKeyKey(id string) []byte { return []byte(prefixAPIKey + id) }

// auditIDLen is the length of an audit entry id in a key.
const auditIDLen = 10

// appendAuditKey appends the key of audit entry id: entries sort in the
// order they were written.
func appendAuditKey(dst []byte, id auditID) []byte {
	return id.append(append(dst, prefixAudit...))
}

// decodeAuditKey is the audit entry id of an audit entry's key.
func decodeAuditKey(k []byte) (auditID, error) {
	rest, ok := bytes.CutPrefix(k, []byte(prefixAudit))
	if !ok || len(rest) != auditIDLen {
		return auditID{}, corruptionErrorf("audit key %q is not %q and %d bytes", k, prefixAudit, auditIDLen)
	}
	return decodeAuditID(rest), nil
}

// auditTime is t as an audit time key orders it: Unix nanoseconds with
// the sign bit flipped, so times before 1970 sort first. t must be
// within auditTimeRange.
func auditTime(t time.Time) uint64 { return uint64(t.UnixNano()) ^ 1<<63 }

// auditTimeRange is where auditTime is defined: the times whose Unix
// nanoseconds an int64 holds (the years 1678 to 2262).
func auditTimeRange(t time.Time) int {
	switch {
	case t.Before(time.Unix(0, math.MinInt64)):
		return -1
	case t.After(time.Unix(0, math.MaxInt64)):
		return 1
	}
	return 0
}

// appendAuditTimeKey appends the time key of audit entry id, created at
// at (auditTime).
func appendAuditTimeKey(dst []byte, at uint64, id auditID) []byte {
	return id.append(binary.BigEndian.AppendUint64(append(dst, prefixAuditTime...), at))
}

// decodeAuditTimeKey reads a time key back.
func decodeAuditTimeKey(k []byte) (at uint64, id auditID, err error) {
	rest, ok := bytes.CutPrefix(k, []byte(prefixAuditTime))
	if !ok || len(rest) != 8+auditIDLen {
		return 0, auditID{}, corruptionErrorf("audit time key %q is not %q, 8 bytes and %d bytes", k, prefixAuditTime, auditIDLen)
	}
	return binary.BigEndian.Uint64(rest), decodeAuditID(rest[8:]), nil
}

// appendAuditPosting appends the prefix of the postings of value in
// audit member m: the keys of the entries that have it, in id order.
func appendAuditPosting(dst []byte, m byte, value string) []byte {
	dst = append(append(dst, prefixAuditIndex...), m, '/')
	return append(binary.AppendUvarint(dst, uint64(len(value))), value...)
}

// decodeAuditPosting is the audit entry id of a key under posting, a
// prefix appendAuditPosting made.
func decodeAuditPosting(posting, k []byte) (auditID, error) {
	rest, ok := bytes.CutPrefix(k, posting)
	if !ok || len(rest) != auditIDLen {
		return auditID{}, corruptionErrorf("audit index key %q is not %q and %d bytes", k, posting, auditIDLen)
	}
	return decodeAuditID(rest), nil
}
