package store

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/goccy/go-json"
)

// AuditEntry is one entry of the audit log: what changed, on which
// resource, by whom. The store writes it in the same pebble batch as the
// change it records (Batch.Audit), and it is never removed.
type AuditEntry struct {
	// ID is the store's: the log entry that wrote it and its place in
	// that entry, fixed-width hexadecimal, so ids sort in write order.
	ID string `json:"id"`
	// SourceID is the id of the resource concerned.
	SourceID string `json:"sourceId"`
	// SequenceKey ties together a sequence of changes to one resource.
	SequenceKey string `json:"sequenceKey"`
	// WebsiteUUID is the website concerned; "" for none (null).
	WebsiteUUID string `json:"websiteUuid,omitempty"`
	CompanyID   string `json:"companyId"`
	// Keypoint marks a crucial change, such as saving a design.
	Keypoint bool `json:"keypoint"`
	// Endpoint marks a dead end, such as a deleted draft.
	Endpoint      bool     `json:"endpoint"`
	ChangedFields []string `json:"changedFields"`
	ResourceTitle string   `json:"resourceTitle"`
	// ResourceType is an AuditResourceType value; the store keeps any
	// string.
	ResourceType string `json:"resourceType"`
	// Session is who made the change; nil for unknown.
	Session *AuditSession `json:"auditLogSession,omitempty"`
	// CreatedAt is when the change happened: the store's clock when zero
	// (Options.Clock). The store raises a time earlier than the last
	// entry's to that entry's, so time order is id order.
	CreatedAt time.Time `json:"createdAt"`
}

// AuditSession is who made an audited change.
type AuditSession struct {
	SessionID string `json:"sessionId"`
	// EntityName is the acting entity: a username, an API key's name, an
	// email; "" for none.
	EntityName string `json:"authenticatedEntityName,omitempty"`
	// Events are the actions performed in the session.
	Events []string `json:"sessionEvents,omitempty"`
}

// MaxAuditPerEntry is the most audit entries one batch holds: an
// entry's index within its batch takes 2 bytes of its id.
const MaxAuditPerEntry = 1 << 16

// Audit adds entries to the audit log, written with the batch's other
// changes or not at all. The store sets each one's ID, and its CreatedAt
// when zero. The batch keeps the entries' slices, not copies.
func (b *Batch) Audit(entries ...AuditEntry) { b.audit = append(b.audit, entries...) }

// AuditEntries are the entries Audit added, not copies.
func (b *Batch) AuditEntries() []AuditEntry { return b.audit }

// checkAudit refuses audit entries the store cannot write.
func (b *Batch) checkAudit() error {
	if len(b.audit) > MaxAuditPerEntry {
		return fmt.Errorf("%w: %d audit entries, at most %d in a batch", ErrInvalidBatch, len(b.audit), MaxAuditPerEntry)
	}
	for i := range b.audit {
		if at := b.audit[i].CreatedAt; !at.IsZero() && auditTimeRange(at) != 0 {
			return fmt.Errorf("%w: audit entry %d created at %s, outside the years 1678 to 2262", ErrInvalidBatch, i, at)
		}
	}
	return nil
}

// auditID is an audit entry's identity: its log entry and its index in
// that entry. Ids order as entries were written.
type auditID struct {
	seq uint64
	n   uint16
}

var maxAuditID = auditID{^uint64(0), ^uint16(0)}

// String is the id as AuditEntry.ID has it: 16 hex digits of seq, '-',
// 4 of n.
func (id auditID) String() string { return fmt.Sprintf("%016x-%04x", id.seq, id.n) }

// parseAuditID reads String's form back; ok is false for anything else,
// upper-case digits included, so an id has one spelling.
func parseAuditID(s string) (id auditID, ok bool) {
	if len(s) != 21 || s[16] != '-' {
		return auditID{}, false
	}
	seq, ok1 := parseHex(s[:16])
	n, ok2 := parseHex(s[17:])
	return auditID{seq, uint16(n)}, ok1 && ok2
}

// parseHex reads lower-case hex digits, at most 16.
func parseHex(s string) (uint64, bool) {
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uint64(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// append appends the id's auditIDLen bytes, big-endian.
func (id auditID) append(dst []byte) []byte {
	return binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint64(dst, id.seq), id.n)
}

// decodeAuditID reads the id append wrote; b holds auditIDLen bytes.
func decodeAuditID(b []byte) auditID {
	return auditID{binary.BigEndian.Uint64(b), binary.BigEndian.Uint16(b[8:])}
}

// compare is -1, 0 or 1 as id is before, the same as or after o.
func (id auditID) compare(o auditID) int {
	if c := cmp.Compare(id.seq, o.seq); c != 0 {
		return c
	}
	return cmp.Compare(id.n, o.n)
}

// next is the id after id; id is not maxAuditID.
func (id auditID) next() auditID {
	if id.n == ^uint16(0) {
		return auditID{id.seq + 1, 0}
	}
	return auditID{id.seq, id.n + 1}
}

// prev is the id before id; id is not the zero id.
func (id auditID) prev() auditID {
	if id.n == 0 {
		return auditID{id.seq - 1, ^uint16(0)}
	}
	return auditID{id.seq, id.n - 1}
}

// auditMembers are the audit entry's members AuditLogs filters on, each
// with the tag its postings are keyed under (a/f/<tag>/), its value in
// an entry and the value a filter asks for (ok false: any).
var auditMembers = [...]struct {
	tag    byte
	value  func(e *AuditEntry) string
	filter func(f *AuditFilter) (v string, ok bool)
}{
	{'w', func(e *AuditEntry) string { return e.WebsiteUUID }, func(f *AuditFilter) (string, bool) { return deref(f.WebsiteUUID) }},
	{'c', func(e *AuditEntry) string { return e.CompanyID }, func(f *AuditFilter) (string, bool) { return deref(f.CompanyID) }},
	{'s', func(e *AuditEntry) string { return e.SourceID }, func(f *AuditFilter) (string, bool) { return deref(f.SourceID) }},
	{'q', func(e *AuditEntry) string { return e.SequenceKey }, func(f *AuditFilter) (string, bool) { return deref(f.SequenceKey) }},
	{'r', func(e *AuditEntry) string { return e.ResourceType }, func(f *AuditFilter) (string, bool) { return deref(f.ResourceType) }},
	{'k', func(e *AuditEntry) string { return flagValue(e.Keypoint) }, func(f *AuditFilter) (string, bool) { return flagFilter(f.Keypoint) }},
	{'e', func(e *AuditEntry) string { return flagValue(e.Endpoint) }, func(f *AuditFilter) (string, bool) { return flagFilter(f.Endpoint) }},
}

// deref is *v, ok false when v is nil.
func deref(v *string) (string, bool) {
	if v == nil {
		return "", false
	}
	return *v, true
}

// flagFilter is the posting value a flag filter asks for, ok false when
// f is nil.
func flagFilter(f *bool) (string, bool) {
	if f == nil {
		return "", false
	}
	return flagValue(*f), true
}

// flagValue is a flag's value in its postings.
func flagValue(f bool) string {
	if f {
		return "1"
	}
	return "0"
}

// auditWrite is an audit entry ready to write: its id, its time key and
// its JSON.
type auditWrite struct {
	id    auditID
	at    uint64
	entry *AuditEntry
	value []byte
}

// stampAudit gives entry seq's audit entries their ids and times, after
// last (the time of the entry written before them), and encodes them;
// it returns the last time. b is not modified.
func stampAudit(b *Batch, seq uint64, now, last time.Time) ([]auditWrite, time.Time, error) {
	if len(b.audit) == 0 {
		return nil, last, nil
	}
	out := make([]auditWrite, len(b.audit))
	for n := range b.audit {
		e := b.audit[n] // a copy: the batch keeps its own
		id := auditID{seq, uint16(n)}
		e.ID = id.String()
		if e.CreatedAt.IsZero() {
			e.CreatedAt = now
		}
		e.CreatedAt = e.CreatedAt.UTC().Round(0)
		if e.CreatedAt.Before(last) {
			e.CreatedAt = last
		}
		last = e.CreatedAt
		value, err := json.Marshal(&e)
		if err != nil {
			return nil, last, fmt.Errorf("encode audit entry %s: %w", e.ID, err)
		}
		out[n] = auditWrite{id: id, at: auditTime(e.CreatedAt), entry: &e, value: value}
	}
	return out, last, nil
}

// auditSize is roughly what writing ws adds to a pebble batch.
func auditSize(ws []auditWrite) int {
	size := 0
	for _, w := range ws {
		size += 2*len(w.value) + 64*(2+len(auditMembers)) // the entry, its time and postings, each value once
	}
	return size
}

// writeAudit writes ws into pb: each entry, its time key and its
// postings.
func writeAudit(pb *pebble.Batch, ws []auditWrite) error {
	var key []byte
	for _, w := range ws {
		key = appendAuditKey(key[:0], w.id)
		if err := pb.Set(key, w.value, nil); err != nil {
			return err
		}
		key = appendAuditTimeKey(key[:0], w.at, w.id)
		if err := pb.Set(key, nil, nil); err != nil {
			return err
		}
		for _, m := range auditMembers {
			key = w.id.append(appendAuditPosting(key[:0], m.tag, m.value(w.entry)))
			if err := pb.Set(key, nil, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// lastAuditTime is the time of the last audit entry written to db, zero
// for none.
func lastAuditTime(db *pebble.DB) (time.Time, error) {
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixAuditTime), UpperBound: prefixEnd(prefixAuditTime)})
	if err != nil {
		return time.Time{}, err
	}
	defer it.Close()
	if !it.Last() {
		return time.Time{}, it.Error()
	}
	at, _, err := decodeAuditTimeKey(it.Key())
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(0, int64(at^1<<63)).UTC(), nil
}

// decodeAuditEntry reads the value of audit entry id.
func decodeAuditEntry(id auditID, v []byte) (AuditEntry, error) {
	var e AuditEntry
	if err := json.Unmarshal(v, &e); err != nil {
		return AuditEntry{}, fmt.Errorf("decode audit entry %s: %w", id, errors.Join(ErrCorrupt, err))
	}
	if e.ID != id.String() {
		return AuditEntry{}, corruptionErrorf("audit entry %s says it is %q", id, e.ID)
	}
	return e, nil
}

// EntryAudit are the audit entries log entry e wrote, in order; a count
// they do not match (Entry.AuditCount) is a corruption error.
func (s *Store) EntryAudit(e *Entry) ([]AuditEntry, error) {
	if e.AuditCount == 0 {
		return nil, nil
	}
	h := s.acquire()
	defer s.release(h)
	hi := prefixEnd(prefixAudit)
	if e.Seq < maxAuditID.seq {
		hi = appendAuditKey(nil, auditID{e.Seq + 1, 0})
	}
	it, err := h.db.NewIter(&pebble.IterOptions{LowerBound: appendAuditKey(nil, auditID{e.Seq, 0}), UpperBound: hi})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []AuditEntry
	for it.First(); it.Valid(); it.Next() {
		id, err := decodeAuditKey(it.Key())
		if err != nil {
			return nil, err
		}
		a, err := decodeAuditEntry(id, it.Value())
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	if err := it.Error(); err != nil {
		return nil, err
	}
	if len(out) != e.AuditCount {
		return nil, corruptionErrorf("entry %d counts %d audit entries, %d are kept", e.Seq, e.AuditCount, len(out))
	}
	return out, nil
}
