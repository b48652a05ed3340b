package store

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/aisle-search/aisle/internal/diskfault"
)

// testClock is a clock a test sets.
type testClock struct{ now time.Time }

func (c *testClock) Now() time.Time { return c.now }

// t0 is when a test's clock starts.
var t0 = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

// openClocked opens a store in dir whose clock is c.
func openClocked(t testing.TB, dir string, c *testClock) *Store {
	t.Helper()
	st, err := OpenWith(dir, Options{Clock: c.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// auditBatch is a batch of audit entries alone, one per source id.
func auditBatch(sources ...string) *Batch {
	b := &Batch{}
	for _, s := range sources {
		b.Audit(AuditEntry{SourceID: s, CompanyID: "acme", ResourceType: "SEARCH_CONFIG", ChangedFields: []string{"boost"}})
	}
	return b
}

// TestAuditIDs: an id reads back from its text, its key and its cursor;
// ids, their text and their keys sort alike; next and prev step over
// the index's edge; anything else is refused.
func TestAuditIDs(t *testing.T) {
	ids := []auditID{{0, 0}, {0, 1}, {0, 0xffff}, {1, 0}, {255, 7}, {256, 0}, {1 << 40, 3}, {math.MaxUint64, 0}, maxAuditID}
	for i, id := range ids {
		if got, ok := parseAuditID(id.String()); !ok || got != id {
			t.Errorf("parseAuditID(%q) = %v %v", id, got, ok)
		}
		if got, err := decodeAuditKey(appendAuditKey(nil, id)); err != nil || got != id {
			t.Errorf("decodeAuditKey(appendAuditKey(%s)) = %v %v", id, got, err)
		}
		if got, err := decodeAuditCursor(encodeAuditCursor(id)); err != nil || got != id {
			t.Errorf("decodeAuditCursor(encodeAuditCursor(%s)) = %v %v", id, got, err)
		}
		if i == 0 {
			continue
		}
		prev := ids[i-1]
		if prev.compare(id) >= 0 || prev.String() >= id.String() || bytes.Compare(appendAuditKey(nil, prev), appendAuditKey(nil, id)) >= 0 {
			t.Errorf("%s does not sort after %s as an id, its text and its key", id, prev)
		}
	}
	if (auditID{0, 0xffff}).next() != (auditID{1, 0}) || (auditID{1, 0}).prev() != (auditID{0, 0xffff}) || (auditID{3, 4}).next().prev() != (auditID{3, 4}) {
		t.Error("next and prev do not step over n's edge")
	}
	for _, s := range []string{"", "0000000000000001", "0000000000000001-000", "0000000000000001_0000", "000000000000000A-0000", "0000000000000001-000g", "+000000000000001-0000", "0000000000000001-00000"} {
		if id, ok := parseAuditID(s); ok {
			t.Errorf("parseAuditID(%q) = %s, want refused", s, id)
		}
	}
}

// TestAuditKeysRefuseMalformed: an audit key, time key or posting key of
// the wrong shape is a corruption error; postings of two values are
// apart, one value a prefix of the other or not.
func TestAuditKeysRefuseMalformed(t *testing.T) {
	id := auditID{42, 3}
	for _, k := range [][]byte{nil, []byte(prefixAudit), appendAuditKey(nil, id)[:len(prefixAudit)+9], append(appendAuditKey(nil, id), 0), appendLogKey(nil, 42)} {
		if _, err := decodeAuditKey(k); !errors.Is(err, ErrCorrupt) {
			t.Errorf("decodeAuditKey(%q) = %v, want a corruption error", k, err)
		}
	}
	tk := appendAuditTimeKey(nil, 7, id)
	if at, got, err := decodeAuditTimeKey(tk); err != nil || at != 7 || got != id {
		t.Errorf("decodeAuditTimeKey = %d %v %v", at, got, err)
	}
	for _, k := range [][]byte{nil, []byte(prefixAuditTime), tk[:len(tk)-1], append(slices.Clone(tk), 0), appendAuditKey(nil, id)} {
		if _, _, err := decodeAuditTimeKey(k); !errors.Is(err, ErrCorrupt) {
			t.Errorf("decodeAuditTimeKey(%q) = %v, want a corruption error", k, err)
		}
	}
	a, ab := appendAuditPosting(nil, 's', "a"), appendAuditPosting(nil, 's', "ab")
	if got, err := decodeAuditPosting(a, id.append(slices.Clone(a))); err != nil || got != id {
		t.Errorf("decodeAuditPosting = %v %v", got, err)
	}
	for _, k := range [][]byte{id.append(slices.Clone(ab)), slices.Clone(a), id.append(appendAuditPosting(nil, 'c', "a"))} {
		if _, err := decodeAuditPosting(a, k); !errors.Is(err, ErrCorrupt) {
			t.Errorf("decodeAuditPosting(%q, %q) = %v, want a corruption error", a, k, err)
		}
	}
	if bytes.HasPrefix(ab, a) || bytes.HasPrefix(a, ab) {
		t.Errorf("the postings of \"a\" (%q) and \"ab\" (%q) overlap", a, ab)
	}
}

// TestAuditTimesSortAsTimes: time keys sort by time, before 1970 too,
// then by id; auditTimeRange says which times they hold.
func TestAuditTimesSortAsTimes(t *testing.T) {
	times := []time.Time{time.Unix(0, math.MinInt64), time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), time.Unix(0, -1), time.Unix(0, 0), t0, time.Unix(0, math.MaxInt64)}
	var last []byte
	for _, at := range times {
		if r := auditTimeRange(at); r != 0 {
			t.Errorf("auditTimeRange(%s) = %d, want 0", at, r)
		}
		for _, id := range []auditID{{1, 0}, {1, 1}} {
			k := appendAuditTimeKey(nil, auditTime(at), id)
			if bytes.Compare(last, k) >= 0 {
				t.Errorf("the time key of %s, %s does not sort after the one before", at, id)
			}
			last = k
		}
	}
	if auditTimeRange(time.Unix(0, math.MinInt64).Add(-1)) != -1 || auditTimeRange(time.Unix(0, math.MaxInt64).Add(1)) != 1 {
		t.Error("auditTimeRange takes a time out of range")
	}
}

// TestAuditStamps: the store gives each audit entry its id (its log
// entry, its place in it) and, when it has none, the clock's time; a
// time earlier than the last entry's is raised to it, after a reopen
// too, so times never fall in id order. The log entry counts them,
// EntryAudit reads them back, and the caller's batch is left as it was.
func TestAuditStamps(t *testing.T) {
	dir := t.TempDir()
	clock := &testClock{now: t0}
	st := openClocked(t, dir, clock)
	defer func() { st.Close() }()
	given := t0.Add(-time.Hour)
	b := &Batch{}
	b.Audit(AuditEntry{SourceID: "a"}, AuditEntry{SourceID: "b", CreatedAt: t0.Add(time.Minute)}, AuditEntry{SourceID: "c"})
	if seq, err := st.Append(b, true); err != nil || seq != 1 {
		t.Fatalf("append: %d %v", seq, err)
	}
	if b.audit[0].ID != "" || !b.audit[0].CreatedAt.IsZero() {
		t.Errorf("the batch was changed: %+v", b.audit[0])
	}
	if _, err := st.Append(putProduct(t, "P1"), true); err != nil {
		t.Fatal(err)
	}
	clock.now = t0.Add(2 * time.Minute)
	b = &Batch{}
	b.Audit(AuditEntry{SourceID: "d", CreatedAt: given}, AuditEntry{SourceID: "e"})
	if _, err := st.Append(b, true); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	clock.now = t0 // the clock went back
	st = openClocked(t, dir, clock)
	if _, err := st.Append(auditBatch("f"), true); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id string
		at time.Time
	}{
		{"0000000000000001-0000", t0},
		{"0000000000000001-0001", t0.Add(time.Minute)},
		{"0000000000000001-0002", t0.Add(time.Minute)}, // the clock is earlier than the entry before
		{"0000000000000003-0000", t0.Add(time.Minute)}, // given, and earlier
		{"0000000000000003-0001", t0.Add(2 * time.Minute)},
		{"0000000000000004-0000", t0.Add(2 * time.Minute)}, // after a reopen
	}
	var got []AuditEntry
	var counts []int
	if err := st.Entries(0, func(e *Entry) error {
		counts = append(counts, e.AuditCount)
		a, err := st.EntryAudit(e)
		got = append(got, a...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(counts, []int{3, 0, 2, 1}) {
		t.Errorf("the log entries count %v audit entries, want [3 0 2 1]", counts)
	}
	if len(got) != len(want) {
		t.Fatalf("%d audit entries read back, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].ID != w.id || !got[i].CreatedAt.Equal(w.at) || got[i].SourceID != string(rune('a'+i)) {
			t.Errorf("audit entry %d: %s at %s of %q, want %s at %s of %q", i, got[i].ID, got[i].CreatedAt, got[i].SourceID, w.id, w.at, string(rune('a'+i)))
		}
	}
}

// TestAuditBatchLimits: a batch of more than MaxAuditPerEntry audit
// entries, or with a time out of the time keys' range, is refused
// (ErrInvalidBatch) and writes nothing; MaxAuditPerEntry are written.
func TestAuditBatchLimits(t *testing.T) {
	st := openClocked(t, t.TempDir(), &testClock{now: t0})
	defer st.Close()
	big := &Batch{}
	big.Audit(make([]AuditEntry, MaxAuditPerEntry+1)...)
	far := &Batch{}
	far.Audit(AuditEntry{CreatedAt: time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)})
	for name, b := range map[string]*Batch{"too many": big, "year 2300": far} {
		if _, err := st.Apply(b, true); !errors.Is(err, ErrInvalidBatch) {
			t.Errorf("%s: %v, want ErrInvalidBatch", name, err)
		}
	}
	if st.Seq() != 0 {
		t.Fatalf("refused batches wrote entry %d", st.Seq())
	}
	big.audit = big.audit[:MaxAuditPerEntry]
	if _, err := st.Apply(big, false); err != nil {
		t.Fatal(err)
	}
	p, err := st.AuditLogs(AuditQuery{First: 1})
	if err != nil || len(p.Entries) != 1 || p.Entries[0].ID != "0000000000000001-ffff" {
		t.Errorf("the newest of %d entries: %+v, %v", MaxAuditPerEntry, p.Entries, err)
	}
}

// TestAuditAndChangeAreOneBatch: audit entries, the API keys and the
// products of one batch are one pebble batch with its log entry: a
// write the disk refuses leaves none of them, in memory, once the disk
// takes writes again, or after a reopen, and the next write takes the
// refused one's place: its id, and a time that is not the refused
// one's.
func TestAuditAndChangeAreOneBatch(t *testing.T) {
	for _, fault := range []diskfault.Fault{diskfault.Full, diskfault.FailingSync} {
		t.Run(fault.Name, func(t *testing.T) {
			dir := t.TempDir()
			faults := diskfault.New(fault)
			clock := &testClock{now: t0}
			open := func() *Store {
				st, err := OpenWith(dir, Options{FS: diskfault.FS(faults), Clock: clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), retryEvery: time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
			st := open()
			defer func() { st.Close() }()
			write := func(pn, key string, at time.Time) error {
				b := putProduct(t, pn)
				b.Audit(AuditEntry{SourceID: pn, WebsiteUUID: testSite, ResourceType: "FEED_CONFIG", CreatedAt: at})
				if err := b.PutKey(testKey(key, testSite)); err != nil {
					t.Fatal(err)
				}
				_, err := st.Apply(b, true)
				return err
			}
			if err := write("P1", "k1", time.Time{}); err != nil {
				t.Fatal(err)
			}
			faults.On()
			clock.now = t0.Add(time.Hour)
			if err := write("P2", "k2", t0.Add(24*time.Hour)); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("a write on a %s: %v, want ErrUnavailable", fault.Name, err)
			}
			check := func(when string, pns ...string) {
				t.Helper()
				checkAcknowledged(t, st, when, uint64(len(pns)), pns...)
				var audited, keys []string
				p, err := st.AuditLogs(AuditQuery{First: 10, Ascending: true})
				if err != nil {
					t.Fatalf("%s: %v", when, err)
				}
				for _, e := range p.Entries {
					audited = append(audited, e.SourceID)
				}
				ks, err := st.Keys()
				if err != nil {
					t.Fatalf("%s: %v", when, err)
				}
				for _, k := range ks {
					keys = append(keys, "P"+k.ID[1:])
				}
				if !slices.Equal(audited, pns) || !slices.Equal(keys, pns) {
					t.Errorf("%s: audit entries of %q and keys of %q, want %q", when, audited, keys, pns)
				}
			}
			check("while refused", "P1")
			faults.Off()
			waitWrites(t, st)
			check("recovered", "P1")
			if err := write("P3", "k3", time.Time{}); err != nil {
				t.Fatal(err)
			}
			p, err := st.AuditLogs(AuditQuery{First: 1})
			if err != nil || len(p.Entries) != 1 || p.Entries[0].ID != "0000000000000002-0000" || !p.Entries[0].CreatedAt.Equal(t0.Add(time.Hour)) {
				t.Errorf("the write after: %+v, %v; want entry 2's at %s", p.Entries, err, t0.Add(time.Hour))
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			st = open()
			check("reopened", "P1", "P3")
		})
	}
}
