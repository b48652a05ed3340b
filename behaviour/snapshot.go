package behaviour

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
)

// A snapshot is a model as bytes, so a start loads it and folds only
// the events logged after it instead of every event (AppendSnapshot,
// DecodeSnapshot). Layout, integers as uvarints unless said:
//
//	"aisle-behaviour-7"
//	key [16]byte  the id hash's key; seq; events
//	products: n, then each: number, counters (6 float32 bits, at in Unix seconds),
//	          co-viewed and co-bought: n, then (id, count) pairs
//	visitors: n, then each: hash uint64, nViewed, nBought, session bytes,
//	          lastView (Unix seconds), last active (activeStep steps),
//	          ids: n, then each id
//	links, older then newer (linkTable): n, then (name hash, visitor
//	       hash) as two uint64; orders, old orders: n, then uint64s
//	campaigns: n, then each: id string, impressions, clicks
//	analytics (analytics_snapshot.go)
//	crc32 (Castagnoli) of all before it, 4 bytes
//
// Strings are a length and bytes. The ranking cache and the budget (a
// setting of the model that reads it) are not kept.

// snapshotMagic begins every snapshot of this layout.
const snapshotMagic = "aisle-behaviour-7"

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
// read lock; it is not to be folded into.
func (m *Model) copy() *Model {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return &Model{budget: m.budget, numbers: m.numbers.clone(), products: m.products.clone(), lists: m.lists.clone(),
		visitors: m.visitors.clone(), histories: m.histories.clone(), links: m.links.clone(),
		orders: m.orders.clone(), oldOrders: m.oldOrders.clone(), campaigns: maps.Clone(m.campaigns), stats: m.stats.clone(), hash: m.hash, events: m.events, seq: m.seq}
}

// appendSnapshot encodes m, which no one folds into meanwhile.
func (m *Model) appendSnapshot(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, snapshotMagic...)
	dst = append(dst, m.hash.key[:]...)
	dst = binary.AppendUvarint(dst, m.seq)
	dst = binary.AppendUvarint(dst, uint64(m.events))
	dst = binary.AppendUvarint(dst, uint64(m.numbers.len()))
	for id := range m.numbers.len() {
		dst = appendString(dst, m.numbers.number(uint32(id)))
		c := &m.products.at(id).counters
		for k := range numKinds {
			for w := range numWindows {
				dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(c.v[k][w]))
			}
		}
		dst = binary.AppendUvarint(dst, uint64(c.at))
		dst = appendNeighbours(dst, m.neighboursOf(uint32(id), false))
		dst = appendNeighbours(dst, m.neighboursOf(uint32(id), true))
	}
	dst = binary.AppendUvarint(dst, uint64(m.visitors.len()))
	for i := range m.visitors.len() {
		v := m.visitors.at(i)
		dst = binary.LittleEndian.AppendUint64(dst, v.hash)
		dst = append(dst, v.nViewed, v.nBought, v.session)
		dst = binary.AppendUvarint(dst, uint64(v.lastView))
		dst = binary.AppendUvarint(dst, uint64(v.lastActive()))
		ids := v.all(&m.histories)
		dst = binary.AppendUvarint(dst, uint64(ids.len()))
		for i := range ids.len() {
			dst = binary.AppendUvarint(dst, uint64(ids.at(i)))
		}
	}
	for _, g := range m.links.generations() {
		dst = binary.AppendUvarint(dst, uint64(len(g)))
		for k, v := range g {
			dst = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(dst, k), v)
		}
	}
	for _, set := range []*orderSet{&m.orders, &m.oldOrders} {
		dst = binary.AppendUvarint(dst, uint64(set.n))
		set.each(func(h uint64) { dst = binary.LittleEndian.AppendUint64(dst, h) })
	}
	dst = binary.AppendUvarint(dst, uint64(len(m.campaigns)))
	for id, c := range m.campaigns {
		dst = appendString(dst, id)
		dst = binary.AppendUvarint(binary.AppendUvarint(dst, c.Impressions), c.Clicks)
	}
	dst = appendStats(dst, &m.stats)
	return append(dst, crcOf(dst[start:])...)
}

func appendString(dst []byte, s string) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(s))), s...)
}

func appendNeighbours(dst []byte, ns []neighbour) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(ns)))
	for _, n := range ns {
		dst = binary.AppendUvarint(binary.AppendUvarint(dst, uint64(n.id())), uint64(n.count()))
	}
	return dst
}

// DecodeSnapshot is the model a snapshot holds, with MaxStale as New
// sets it, within budget b: when the snapshot holds more visitors (it
// was saved under a larger budget), the least lately active are
// evicted, and of its links the least lately written dropped. A
// snapshot that fails a check is ErrCorruptSnapshot, naming the check.
func DecodeSnapshot(src []byte, b Budget) (*Model, error) {
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
	m := NewBudget(b)
	m.hash = newIDHash(key)
	m.seq = r.uvarint()
	m.events = int(r.uvarint())
	n := r.count(1)
	if n > maxProducts && r.err == nil {
		r.err = corruptSnapshotf("%d products, at most %d", n, maxProducts)
	}
	for range n {
		m.products.add()
	}
	var viewed, bought []neighbour
	for id := range n {
		pn := r.string()
		if _, dup := m.numbers.find(pn); dup && r.err == nil {
			r.err = corruptSnapshotf("product %q twice", pn)
		}
		m.numbers.add(pn)
		p := m.products.at(id)
		for k := range numKinds {
			for w := range numWindows {
				p.v[k][w] = math.Float32frombits(binary.LittleEndian.Uint32(r.bytes(4)))
			}
		}
		if at := r.uvarint(); at <= math.MaxUint32 {
			p.at = uint32(at)
		} else if r.err == nil {
			r.err = corruptSnapshotf("product %q counted at %d", pn, at)
		}
		viewed, bought = r.neighbours(viewed[:0], n, false), r.neighbours(bought[:0], n, true)
		if len(viewed)+len(bought) > 0 {
			p.nViewed, p.nBought = uint8(len(viewed)), uint8(len(bought))
			p.class = m.lists.class(len(viewed) + len(bought))
			p.ref = m.lists.alloc(p.class)
			copy(m.lists.block(p.ref, p.class)[copy(m.lists.block(p.ref, p.class), viewed):], bought)
		}
	}
	nv := r.count(12)

	for i := range nv {
		h := binary.LittleEndian.Uint64(r.bytes(8))
		if _, dup := m.visitorIdx.find(&m.visitors, h); dup && r.err == nil {
			r.err = corruptSnapshotf("visitor %d: its hash twice", i)
		}
		v := m.visitors.add()
		v.hash = h
		m.visitorIdx.add(&m.visitors, h, i)
		head := r.bytes(3)
		v.nViewed, v.nBought, v.session = head[0], head[1], head[2]
		if last := r.uvarint(); last <= math.MaxUint32 {
			v.lastView = uint32(last)
		} else if r.err == nil {
			r.err = corruptSnapshotf("visitor %d: last view at %d", i, last)
		}
		if a := r.uvarint(); a <= maxActive {
			v.setActive(uint32(a))
		} else if r.err == nil {
			r.err = corruptSnapshotf("visitor %d: last active at %d", i, a)
		}
		k := r.count(1)
		if r.err == nil && (int(v.nViewed)+int(v.nBought) > k || k-int(v.nViewed)-int(v.nBought) > maxCart ||
			v.nViewed > MaxHistory || v.nBought > MaxHistory || v.session > v.nViewed) {
			r.err = corruptSnapshotf("visitor %d: %d viewed, %d bought, session %d in %d ids", i, v.nViewed, v.nBought, v.session, k)
		}
		if r.err != nil {
			break
		}
		v.nCart = uint8(k - int(v.nViewed) - int(v.nBought))
		v.class = m.histories.class(k * idBytes)
		v.ref = m.histories.alloc(v.class)
		ids := v.all(&m.histories)
		for j := range k {
			ids.set(j, r.id(n))
		}
	}
	fits := true // each generation within half the budget: kept as it was
	for g := range 2 {
		n := r.count(16)
		fits = fits && 2*n <= m.links.max
		for range n {
			k := binary.LittleEndian.Uint64(r.bytes(8))
			if !m.links.load(g == 0, k, binary.LittleEndian.Uint64(r.bytes(8)), fits) && r.err == nil {
				r.err = corruptSnapshotf("link %x twice", k)
			}
		}
	}
	for _, set := range []*orderSet{&m.orders, &m.oldOrders} {
		for range r.count(8) {
			h := binary.LittleEndian.Uint64(r.bytes(8))
			if m.orders.has(h) || m.oldOrders.has(h) {
				if r.err == nil {
					r.err = corruptSnapshotf("order %x twice", h)
				}
				break
			}
			set.add(h)
		}
	}
	if n := r.count(3); n > 0 {
		if n > maxCampaigns && r.err == nil {
			r.err = corruptSnapshotf("%d campaigns, at most %d", n, maxCampaigns)
		}
		m.campaigns = make(map[string]CampaignStats, min(n, maxCampaigns))
		for range n {
			id := r.string()
			m.campaigns[id] = CampaignStats{Impressions: r.uvarint(), Clicks: r.uvarint()}
		}
	}
	if r.err == nil {
		m.stats = r.stats(m.numbers.len())
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = corruptSnapshotf("%d bytes after the analytics", len(r.b))
	}
	if r.err != nil {
		return nil, r.err
	}
	if m.visitors.len() > m.budget.Visitors {
		m.evict(m.visitors.len() - m.budget.Visitors)
		m.compact()
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

// uvarint reads one number.
func (r *snapReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
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

// neighbours appends a list of neighbours of products below n to ns,
// co-bought ones when bought.
func (r *snapReader) neighbours(ns []neighbour, n int, bought bool) []neighbour {
	cnt := r.count(2)
	if cnt > capOf(bought) && r.err == nil {
		r.err = corruptSnapshotf("%d neighbours, at most %d", cnt, capOf(bought))
	}
	if r.err != nil {
		return ns
	}
	for range cnt {
		id, count := r.id(n), r.uvarint()
		if count == 0 || count > maxCount {
			if r.err == nil {
				r.err = corruptSnapshotf("neighbour count %d: want 1 to %d", count, maxCount)
			}
			return ns
		}
		ns = append(ns, newNeighbour(id, uint32(count)))
	}
	return ns
}

// crcOf is the 4 checksum bytes a snapshot body ends with.
func crcOf(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(nil, crc32.Checksum(body, castagnoli))
}
