package store

import (
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble"
)

// AuditFilter narrows the audit log: every member set must hold. The
// equalities compare exact strings; WebsiteUUID "" matches the entries
// of no website.
type AuditFilter struct {
	WebsiteUUID, CompanyID, SourceID, SequenceKey, ResourceType *string
	Keypoint, Endpoint                                          *bool
	// CreatedBefore and CreatedAfter bound CreatedAt, both inclusive.
	CreatedBefore, CreatedAfter *time.Time
}

// AuditQuery asks for one page of the audit log.
type AuditQuery struct {
	Filter AuditFilter
	// Ascending is oldest first; the default is newest first.
	Ascending bool
	// First is the page size, 1 to MaxAuditPage: the caller defaults and
	// checks it (ErrBadAuditQuery otherwise).
	First int
	// After is a cursor from a previous page (AuditPage.End, or one of
	// its Cursors), "" for the first page.
	After string
}

// AuditPage is one page of the audit log.
type AuditPage struct {
	Entries []AuditEntry
	// Cursors are the entries' cursors, one each: After one of them, a
	// query goes on past its entry.
	Cursors []string
	// HasNext says more entries may follow; false, none do. A page cut
	// short by its work bound says true even when none follow.
	HasNext bool
	// End is the cursor to go on from: the last entry's, or, on a page
	// its work bound cut short, the point its walk reached (the page may
	// then hold fewer entries than asked, or none). "" on an empty page
	// with nothing after it.
	End string

	steps int // the seeks the page took
}

// MaxAuditPage is the most entries a page of the audit log holds.
const MaxAuditPage = 100

// auditPageSteps bounds the seeks of one page of the audit log (a few
// microseconds each: a page that meets it takes some milliseconds). A page of equality filters costs
// the seeks of a zig-zag walk of their postings: one per filter for each
// entry found, and one for each run of ids where the filters part; data
// whose filters part at almost every entry (one filter's entries the
// even ids, another's the odd) would otherwise cost a walk of the
// shorter posting. Such a page stops short, its End where it stopped.
const auditPageSteps = 4096

// ErrBadCursor marks a cursor no page of the audit log gave.
var ErrBadCursor = errors.New("malformed audit log cursor")

// ErrBadAuditQuery marks a query of the audit log the store does not
// answer: its page size outside 1 to MaxAuditPage.
var ErrBadAuditQuery = errors.New("invalid audit log query")

// encodeAuditCursor is the cursor of id: base64url of its text, without
// padding.
func encodeAuditCursor(id auditID) string {
	return base64.RawURLEncoding.EncodeToString([]byte(id.String()))
}

// decodeAuditCursor reads a cursor encodeAuditCursor made, and only
// that spelling of it (the decoder would also skip line breaks).
func decodeAuditCursor(c string) (auditID, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return auditID{}, fmt.Errorf("%w %q: not base64url", ErrBadCursor, c)
	}
	id, ok := parseAuditID(string(raw))
	if !ok || encodeAuditCursor(id) != c {
		return auditID{}, fmt.Errorf("%w %q: not an audit entry id", ErrBadCursor, c)
	}
	return id, nil
}

// AuditLogs is a page of the audit log: the first q.First entries after
// q.After that q.Filter matches, newest first unless q.Ascending. It
// costs its page: equality filters intersect by a zig-zag walk of their
// postings, and the time bounds become id bounds (times rise with ids),
// each a seek; the walk takes at most auditPageSteps seeks. Cursors
// name positions in the log, which entries written later never move: a
// walk from page to page sees every entry there when it began once,
// and newest first none written since.
func (s *Store) AuditLogs(q AuditQuery) (AuditPage, error) {
	if q.First < 1 || q.First > MaxAuditPage {
		return AuditPage{}, fmt.Errorf("%w: a page of %d entries, not 1 to %d", ErrBadAuditQuery, q.First, MaxAuditPage)
	}
	lo, hi := auditID{}, maxAuditID
	if q.After != "" {
		c, err := decodeAuditCursor(q.After)
		if err != nil {
			return AuditPage{}, err
		}
		switch {
		case q.Ascending && c == maxAuditID, !q.Ascending && c == auditID{}:
			return AuditPage{}, nil
		case q.Ascending:
			lo = c.next()
		default:
			hi = c.prev()
		}
	}
	h := s.acquire()
	defer s.release(h)
	snap := h.db.NewSnapshot()
	defer snap.Close()
	lo, hi, ok, err := auditTimeBounds(snap, &q.Filter, lo, hi)
	if err != nil || !ok || lo.compare(hi) > 0 {
		return AuditPage{}, err
	}
	w := auditWalk{asc: q.Ascending, budget: s.auditSteps, postings: q.Filter.postings()}
	if len(w.postings) == 0 {
		w.postings = [][]byte{[]byte(prefixAudit)} // every entry
	}
	defer w.close()
	for _, p := range w.postings {
		p = p[:len(p):len(p)] // each bound its own copy
		it, err := snap.NewIter(&pebble.IterOptions{LowerBound: lo.append(p), UpperBound: append(hi.append(p), 0)})
		if err != nil {
			return AuditPage{}, err
		}
		w.its = append(w.its, it)
	}
	w.at, w.valid = make([]auditID, len(w.its)), make([]bool, len(w.its))
	ids, cut, at, err := w.match(lo, hi, q.First+1)
	if err != nil {
		return AuditPage{}, err
	}
	page := AuditPage{HasNext: cut || len(ids) > q.First, steps: w.steps}
	ids = ids[:min(len(ids), q.First)]
	for _, id := range ids {
		e, err := getAuditEntry(snap, id)
		if err != nil {
			return AuditPage{}, err
		}
		page.Entries = append(page.Entries, e)
		page.Cursors = append(page.Cursors, encodeAuditCursor(id))
	}
	switch {
	case cut && len(ids) < q.First && q.Ascending:
		page.End = encodeAuditCursor(at.prev()) // every id before at is walked
	case cut && len(ids) < q.First:
		page.End = encodeAuditCursor(at.next()) // every id after at is walked
	case len(ids) > 0:
		page.End = page.Cursors[len(ids)-1]
	}
	return page, nil
}

// postings are the prefixes of the postings of f's equalities.
func (f *AuditFilter) postings() [][]byte {
	var out [][]byte
	for _, m := range auditMembers {
		if v, ok := m.filter(f); ok {
			out = append(out, appendAuditPosting(nil, m.tag, v))
		}
	}
	return out
}

// auditTimeBounds narrows the ids lo to hi to those f's time bounds
// keep: two seeks of snap's time keys. ok is false when none are kept.
func auditTimeBounds(snap *pebble.Snapshot, f *AuditFilter, lo, hi auditID) (_, _ auditID, ok bool, err error) {
	after, before := f.CreatedAfter, f.CreatedBefore
	if after != nil && auditTimeRange(*after) < 0 {
		after = nil // before every entry
	}
	if before != nil && auditTimeRange(*before) > 0 {
		before = nil // after every entry
	}
	if after == nil && before == nil {
		return lo, hi, true, nil
	}
	if (after != nil && auditTimeRange(*after) > 0) || (before != nil && auditTimeRange(*before) < 0) {
		return lo, hi, false, nil
	}
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixAuditTime), UpperBound: prefixEnd(prefixAuditTime)})
	if err != nil {
		return lo, hi, false, err
	}
	defer it.Close()
	key := make([]byte, 0, len(prefixAuditTime)+8+auditIDLen)
	if after != nil {
		if !it.SeekGE(appendAuditTimeKey(key[:0], auditTime(*after), auditID{})) {
			return lo, hi, false, it.Error()
		}
		_, id, err := decodeAuditTimeKey(it.Key())
		if err != nil {
			return lo, hi, false, err
		}
		if id.compare(lo) > 0 {
			lo = id
		}
	}
	if before != nil {
		if at := auditTime(*before); at == ^uint64(0) {
			ok = it.Last()
		} else {
			ok = it.SeekLT(appendAuditTimeKey(key[:0], at+1, auditID{}))
		}
		if !ok {
			return lo, hi, false, it.Error()
		}
		_, id, err := decodeAuditTimeKey(it.Key())
		if err != nil {
			return lo, hi, false, err
		}
		if id.compare(hi) < 0 {
			hi = id
		}
	}
	return lo, hi, true, nil
}

// getAuditEntry reads audit entry id from snap; the postings named it,
// so its absence is a corruption error.
func getAuditEntry(snap *pebble.Snapshot, id auditID) (AuditEntry, error) {
	v, closer, err := snap.Get(appendAuditKey(nil, id))
	if errors.Is(err, pebble.ErrNotFound) {
		return AuditEntry{}, corruptionErrorf("the audit index names entry %s, which is not stored", id)
	}
	if err != nil {
		return AuditEntry{}, err
	}
	defer closer.Close()
	return decodeAuditEntry(id, v)
}

// auditWalk intersects postings, one iterator each, in one direction.
type auditWalk struct {
	postings [][]byte
	its      []*pebble.Iterator
	at       []auditID // where each iterator is, when it is
	valid    []bool
	asc      bool
	key      []byte // the seek key, reused
	steps    int
	budget   int
}

func (w *auditWalk) close() {
	for _, it := range w.its {
		it.Close()
	}
}

// seek positions posting i at its first id at or past cand in the
// walk's direction; ok is false when none is left. An iterator already
// there does not move, and one on the id just before steps once.
func (w *auditWalk) seek(i int, cand auditID) (id auditID, ok bool, err error) {
	it := w.its[i]
	if w.valid[i] {
		switch c := w.at[i].compare(cand); {
		case c == 0 || (c > 0) == w.asc:
			return w.at[i], true, nil
		case w.asc && w.at[i].next() == cand:
			w.steps++
			return w.land(i, it.Next())
		case !w.asc && w.at[i].prev() == cand:
			w.steps++
			return w.land(i, it.Prev())
		}
	}
	w.steps++
	w.key = cand.append(append(w.key[:0], w.postings[i]...))
	if w.asc {
		return w.land(i, it.SeekGE(w.key))
	}
	return w.land(i, it.SeekLT(append(w.key, 0))) // the last key at or before cand's
}

// land reads where iterator i landed; ok is false when it is done.
func (w *auditWalk) land(i int, ok bool) (id auditID, _ bool, err error) {
	w.valid[i] = false
	if !ok {
		return auditID{}, false, w.its[i].Error()
	}
	if id, err = decodeAuditPosting(w.postings[i], w.its[i].Key()); err != nil {
		return auditID{}, false, err
	}
	w.at[i], w.valid[i] = id, true
	return id, true, nil
}

// match finds up to want ids between lo and hi that every posting holds,
// in the walk's order, by leapfrogging: each posting in turn seeks the
// candidate id, and one that lands past it makes its id the candidate,
// until all land on one. cut says the step budget ended the walk first,
// at at: every id before at in the walk's order was walked. w.budget
// exceeds the postings' count, so a cut walk has moved.
func (w *auditWalk) match(lo, hi auditID, want int) (ids []auditID, cut bool, at auditID, err error) {
	cand, end, step := lo, hi, auditID.next
	if !w.asc {
		cand, end, step = hi, lo, auditID.prev
	}
	k := len(w.its)
	for len(ids) < want {
		agreed := 0
		for i := 0; agreed < k; i = (i + 1) % k {
			if w.steps >= w.budget {
				return ids, true, cand, nil
			}
			id, ok, err := w.seek(i, cand)
			if err != nil || !ok {
				return ids, false, cand, err
			}
			if id == cand {
				agreed++
			} else {
				cand, agreed = id, 1
			}
		}
		ids = append(ids, cand)
		if cand == end {
			break
		}
		cand = step(cand)
	}
	return ids, false, cand, nil
}
