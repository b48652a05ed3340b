package behaviour

import (
	"encoding/binary"
	"hash/maphash"
	"unsafe"
)

// productNumbers interns a model's product numbers and gives each an id,
// in the order they came: each number is a length and its bytes in
// 64 KiB chunks, known by a 4-byte reference, and found through an
// open-addressing table of ids over a hash of the number. About 20 bytes
// and the number's length a product, against a Go map and slice's 56 or
// so. A chunk's bytes never change once written, so the strings handed
// out (number) point into them without a copy; the first chunk starts at
// 1 KiB and doubles into a new array, leaving the old bytes as they were.
type productNumbers struct {
	refs   []uint32 // by id: chunk above offset
	chunks [][]byte
	slots  []uint32 // id + 1; 0 an empty slot
	seed   maphash.Seed
}

const (
	numberChunkBits = 16
	numberChunkSize = 1 << numberChunkBits
)

func newProductNumbers() productNumbers { return productNumbers{seed: maphash.MakeSeed()} }

// len is how many numbers p holds.
func (p *productNumbers) len() int { return len(p.refs) }

// number is the product number of id.
func (p *productNumbers) number(id uint32) string {
	ref := p.refs[id]
	c := p.chunks[ref>>numberChunkBits][ref&(numberChunkSize-1):]
	n, k := binary.Uvarint(c)
	return unsafe.String(unsafe.SliceData(c[k:]), int(n))
}

// find is the id of product number pn.
func (p *productNumbers) find(pn string) (uint32, bool) {
	if len(p.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(p.slots) - 1)
	for i := maphash.String(p.seed, pn) & mask; p.slots[i] != 0; i = (i + 1) & mask {
		if id := p.slots[i] - 1; p.number(id) == pn {
			return id, true
		}
	}
	return 0, false
}

// add gives pn, which find does not know, the next id.
func (p *productNumbers) add(pn string) uint32 {
	need := len(pn) + 1
	for n := len(pn); n >= 0x80; n >>= 7 {
		need++ // a uvarint's byte
	}
	last := len(p.chunks) - 1
	if last == 0 && len(p.chunks[0])+need > cap(p.chunks[0]) && len(p.chunks[0])+need <= numberChunkSize {
		// The first chunk, grown: strings over its old bytes stay good.
		grown := make([]byte, len(p.chunks[0]), min(max(2*cap(p.chunks[0]), len(p.chunks[0])+need), numberChunkSize))
		p.chunks[0] = append(grown[:0], p.chunks[0]...)
	}
	if last < 0 || len(p.chunks[last])+need > cap(p.chunks[last]) {
		size := numberChunkSize
		if last < 0 {
			size = 1024 // the first starts small and doubles
		}
		p.chunks = append(p.chunks, make([]byte, 0, max(size, need)))
		last++
	}
	c := p.chunks[last]
	ref := uint32(last)<<numberChunkBits | uint32(len(c))
	c = binary.AppendUvarint(c, uint64(len(pn)))
	p.chunks[last] = append(c, pn...)
	id := uint32(len(p.refs))
	p.refs = append(p.refs, ref)
	if 4*len(p.refs) > 3*len(p.slots) {
		p.slots = make([]uint32, max(16, 2*len(p.slots)))
		for id := range p.refs {
			p.place(uint32(id))
		}
	} else {
		p.place(id)
	}
	return id
}

func (p *productNumbers) place(id uint32) {
	mask := uint64(len(p.slots) - 1)
	i := maphash.String(p.seed, p.number(id)) & mask
	for p.slots[i] != 0 {
		i = (i + 1) & mask
	}
	p.slots[i] = id + 1
}

// clone is a copy of p to read while p goes on adding: the chunks' bytes
// are shared, since written bytes never change.
func (p *productNumbers) clone() productNumbers {
	return productNumbers{refs: append([]uint32(nil), p.refs...), chunks: append([][]byte(nil), p.chunks...),
		slots: append([]uint32(nil), p.slots...), seed: p.seed}
}

// bytes is the room p takes.
func (p *productNumbers) bytes() int {
	n := 4 * (cap(p.refs) + len(p.slots))
	for _, c := range p.chunks {
		n += cap(c)
	}
	return n
}
