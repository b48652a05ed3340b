package behaviour

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
	"slices"
	"time"
)

// A snapshot is a model as bytes, so a start loads it and folds only
// the events logged after it instead of every event (AppendSnapshot,
// DecodeSnapshot). Layout, integers as uvarints unless said:
//
//	"aisle-behaviour-2"
//	key [16]byte  the id hash's key; seq; events
//	products: n, then each: number, counters (6 float32 bits, at varint),
//	          co-viewed and co-bought: n, then (id, count) pairs
//	visitors: n, then each: hash uint64, nViewed, nBought, session bytes,
//	          lastView (Unix seconds), ids: n, then each id
//	links: n, then (key, value) strings; orders, old orders: n, then uint64s
//	crc32 (Castagnoli) of all before it, 4 bytes
//
// Strings are a length and bytes. The ranking cache is not kept.

// snapshotMagic begins every snapshot of this layout.
const snapshotMagic = "aisle-behaviour-2"

// ErrCorruptSnapshot marks a snapshot that does not read back; the
// wrapping error names the check.
var ErrCorruptSnapshot = errors.New("corrupt behaviour snapshot")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Seq is the last change log entry whose events m has folded (Through).
func (m *Model) Seq() uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.seq
}

// Through records that m has folded the events of the log entries up to
// seq, so a snapshot says where a replay resumes.
func (m *Model) Through(seq uint64) {
	m.mu.Lock()
	m.seq = max(m.seq, seq)
	m.mu.Unlock()
}

// AppendSnapshot appends m as a snapshot. Folding waits only while m is
// copied (tens of milliseconds at ten million events), not while the
// copy is encoded.
func (m *Model) AppendSnapshot(dst []byte) []byte {
	return m.copy().appendSnapshot(dst)
}

// copy is a deep copy of what a snapshot encodes of m, taken under its
// read lock (not the ids map: the numbers give it back); it is not to be
// folded into.
func (m *Model) copy() *Model {
	m.mu.RLock()
	defer m.mu.RUnlock()
	c := &Model{numbers: slices.Clone(m.numbers), counts: slices.Clone(m.counts),
		coViewed: make([]neighbours, len(m.coViewed)), coBought: make([]neighbours, len(m.coBought)),
		visitors: slices.Clone(m.visitors), links: maps.Clone(m.links),
		orders: maps.Clone(m.orders), oldOrders: maps.Clone(m.oldOrders), hash: m.hash, events: m.events, seq: m.seq}
	// The lists are copied into one array each, not one allocation a list.
	c.coViewed, c.coBought = copyLists(m.coViewed), copyLists(m.coBought)
	total := 0
	for i := range m.visitors {
		total += len(m.visitors[i].ids)
	}
	all := make([]uint32, 0, total)
	for i := range c.visitors {
		n := len(all)
		all = append(all, m.visitors[i].ids...)
		c.visitors[i].ids = all[n:len(all):len(all)]
	}
	return c
}

// copyLists is a deep copy of neighbour lists, sharing one array.
func copyLists(lists []neighbours) []neighbours {
	total := 0
	for _, ns := range lists {
		total += len(ns)
	}
	all := make(neighbours, 0, total)
	out := make([]neighbours, len(lists))
	for i, ns := range lists {
		if len(ns) == 0 {
			continue
		}
		n := len(all)
		all = append(all, ns...)
		out[i] = all[n:len(all):len(all)]
	}
	return out
}

// appendSnapshot encodes m, which no one folds into meanwhile.
func (m *Model) appendSnapshot(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, snapshotMagic...)
	dst = append(dst, m.hash.key[:]...)
	dst = binary.AppendUvarint(dst, m.seq)
	dst = binary.AppendUvarint(dst, uint64(m.events))
	dst = binary.AppendUvarint(dst, uint64(len(m.numbers)))
	for id, pn := range m.numbers {
		dst = appendString(dst, pn)
		c := &m.counts[id]
		for k := range numKinds {
			for w := range numWindows {
				dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(c.v[k][w]))
			}
		}
		dst = binary.AppendVarint(dst, c.at)
		dst = appendNeighbours(dst, m.coViewed[id])
		dst = appendNeighbours(dst, m.coBought[id])
	}
	dst = binary.AppendUvarint(dst, uint64(len(m.visitors)))
	for i := range m.visitors {
		v := &m.visitors[i]
		dst = binary.LittleEndian.AppendUint64(dst, v.hash)
		dst = append(dst, v.nViewed, v.nBought, v.session)
		dst = binary.AppendUvarint(dst, uint64(v.lastView))
		dst = binary.AppendUvarint(dst, uint64(len(v.ids)))
		for _, id := range v.ids {
			dst = binary.AppendUvarint(dst, uint64(id))
		}
	}
	dst = binary.AppendUvarint(dst, uint64(len(m.links)))
	for k, v := range m.links {
		dst = appendString(appendString(dst, k), v)
	}
	for _, set := range []map[uint64]struct{}{m.orders, m.oldOrders} {
		dst = binary.AppendUvarint(dst, uint64(len(set)))
		for h := range set {
			dst = binary.LittleEndian.AppendUint64(dst, h)
		}
	}
	return append(dst, crcOf(dst[start:])...)
}

func appendString(dst []byte, s string) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(s))), s...)
}

func appendNeighbours(dst []byte, ns neighbours) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(ns)))
	for _, n := range ns {
		dst = binary.AppendUvarint(binary.AppendUvarint(dst, uint64(n.id())), uint64(n.count))
	}
	return dst
}

// DecodeSnapshot is the model a snapshot holds, with MaxStale as New
// sets it. A snapshot that fails a check is ErrCorruptSnapshot, naming
// the check.
func DecodeSnapshot(src []byte) (*Model, error) {
	if len(src) < len(snapshotMagic)+16+4 || string(src[:len(snapshotMagic)]) != snapshotMagic {
		return nil, corruptSnapshotf("no %q header", snapshotMagic)
	}
	body := src[:len(src)-4]
	if got, want := crcOf(body), src[len(src)-4:]; string(got) != string(want) {
		return nil, corruptSnapshotf("checksum %x, want %x", got, want)
	}
	r := &snapReader{b: body[len(snapshotMagic):]}
	var key [16]byte
	copy(key[:], r.bytes(16))
	m := &Model{ids: map[string]uint32{}, links: map[string]string{},
		orders: map[uint64]struct{}{}, hash: newIDHash(key), MaxStale: time.Second}
	m.seq = r.uvarint()
	m.events = int(r.uvarint())
	n := r.count(1)
	m.numbers = make([]string, 0, n)
	m.counts = make([]counters, n)
	m.coViewed, m.coBought = make([]neighbours, n), make([]neighbours, n)
	for id := range n {
		pn := r.string()
		if _, dup := m.ids[pn]; dup && r.err == nil {
			r.err = corruptSnapshotf("product %q twice", pn)
		}
		m.ids[pn] = uint32(id)
		m.numbers = append(m.numbers, pn)
		c := &m.counts[id]
		for k := range numKinds {
			for w := range numWindows {
				c.v[k][w] = math.Float32frombits(binary.LittleEndian.Uint32(r.bytes(4)))
			}
		}
		c.at = r.varint()
		m.coViewed[id] = r.neighbours(n)
		m.coBought[id] = r.neighbours(n)
	}
	nv := r.count(12)
	m.visitors = make([]visitor, nv)
	for i := range nv {
		h := binary.LittleEndian.Uint64(r.bytes(8))
		if _, dup := m.visitorIdx.find(m.visitors, h); dup && r.err == nil {
			r.err = corruptSnapshotf("visitor %d: its hash twice", i)
		}
		v := &m.visitors[i]
		v.hash = h
		m.visitorIdx.add(m.visitors, h, i)
		head := r.bytes(3)
		v.nViewed, v.nBought, v.session = head[0], head[1], head[2]
		if last := r.uvarint(); last <= math.MaxUint32 {
			v.lastView = uint32(last)
		} else if r.err == nil {
			r.err = corruptSnapshotf("visitor %d: last view at %d", i, last)
		}
		if k := r.count(1); k > 0 {
			v.ids = make([]uint32, k)
		}
		for j := range v.ids {
			v.ids[j] = r.id(n)
		}
		if r.err == nil && (int(v.nViewed)+int(v.nBought) > len(v.ids) || v.nViewed > MaxHistory || v.nBought > MaxHistory || v.session > v.nViewed) {
			r.err = corruptSnapshotf("visitor %d: %d viewed, %d bought, session %d in %d ids", i, v.nViewed, v.nBought, v.session, len(v.ids))
		}
	}
	for range r.count(2) {
		k := r.string()
		m.links[k] = r.string()
	}
	for i, set := range []*map[uint64]struct{}{&m.orders, &m.oldOrders} {
		cnt := r.count(8)
		if i == 1 && cnt == 0 {
			break
		}
		*set = make(map[uint64]struct{}, cnt)
		for range cnt {
			(*set)[binary.LittleEndian.Uint64(r.bytes(8))] = struct{}{}
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = corruptSnapshotf("%d bytes after the orders", len(r.b))
	}
	if r.err != nil {
		return nil, r.err
	}
	return m, nil
}

func corruptSnapshotf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorruptSnapshot, fmt.Sprintf(format, args...))
}

// snapReader reads a snapshot's body; the first failure sticks in err
// and later reads return zeros.
type snapReader struct {
	b   []byte
	err error
}

func (r *snapReader) fail(what string) {
	if r.err == nil {
		r.err = corruptSnapshotf("truncated at %s", what)
	}
	r.b = nil
}

func (r *snapReader) bytes(n int) []byte {
	if len(r.b) < n {
		r.fail(fmt.Sprintf("%d bytes", n))
		return make([]byte, n)
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *snapReader) uvarint() uint64 { return readNumber(r, binary.Uvarint) }
func (r *snapReader) varint() int64   { return readNumber(r, binary.Varint) }

// readNumber reads one number with decode (binary.Uvarint, Varint).
func readNumber[T uint64 | int64](r *snapReader, decode func([]byte) (T, int)) T {
	v, n := decode(r.b)
	if n <= 0 {
		r.fail("a number")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count is a list's length, each element at least min bytes: a length
// the rest cannot hold is corrupt (and allocates nothing).
func (r *snapReader) count(min int) int {
	v := r.uvarint()
	if v > uint64(len(r.b)/min) {
		r.fail(fmt.Sprintf("a list of %d", v))
		return 0
	}
	return int(v)
}

func (r *snapReader) string() string { return string(r.bytes(r.count(1))) }

// id is a product id below n.
func (r *snapReader) id(n int) uint32 {
	v := r.uvarint()
	if v >= uint64(n) {
		if r.err == nil {
			r.err = corruptSnapshotf("product id %d of %d", v, n)
		}
		return 0
	}
	return uint32(v)
}

func (r *snapReader) neighbours(n int) neighbours {
	cnt := r.count(2)
	if cnt > capNeighbours && r.err == nil {
		r.err = corruptSnapshotf("%d neighbours, at most %d", cnt, capNeighbours)
	}
	if cnt == 0 || r.err != nil {
		return nil
	}
	ns := make(neighbours, cnt)
	for i := range ns {
		id, count := r.id(n), r.uvarint()
		if count == 0 || count > maxCount {
			if r.err == nil {
				r.err = corruptSnapshotf("neighbour count %d: want 1 to %d", count, maxCount)
			}
			return nil
		}
		ns[i] = newNeighbour(id, uint16(count))
	}
	return ns
}

// crcOf is the 4 checksum bytes a snapshot body ends with.
func crcOf(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(nil, crc32.Checksum(body, castagnoli))
}
