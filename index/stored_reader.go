package index

import "encoding/binary"

// A StoredReader is one doc's stored JSON decoded only as far as its
// reader asks. A field projection wants the members up to the last one
// it names, found through the doc's member offsets; the bytes after
// them are never decompressed. Product JSON puts its short members
// (productNumber, title, url, price) first, so a field list of those
// decodes a tenth of a doc, where a whole doc decodes all of it.
//
// The JSON is an S2 block against the docs' dictionary, as
// github.com/klauspost/compress/s2 writes it (its Dict.Encode), decoded
// here an operation at a time: a literal run, or a copy from earlier
// output or from the dictionary's end. A block that does not read
// stops decoding where it breaks, so Through gives fewer bytes than
// asked (it never reads outside its slices); s2's own decoder checks
// the same.
type StoredReader struct {
	// Starts are where the JSON's top-level members start
	// (jsonscan.MemberStarts); empty when it is not an object, or when
	// Reset gave bytes without them.
	Starts []uint32

	out  []byte // the JSON: out[:d] decoded so far, len(out) its length
	d    int
	src  []byte // the S2 block, its operations read from s on
	s    int
	off  int    // the last copy's offset, which a repeat copy reuses
	dict []byte // nil: out is the JSON as stored, all of it read
	wide []byte // out and moveSlack bytes more, which move may write
	buf  []byte // what out decodes into when r is ReadStored's, reused
}

// ReadStored points r at doc's stored JSON, its member offsets read and
// nothing decoded yet; r stays valid while s is.
func (s *Segment) ReadStored(r *StoredReader, doc uint32) { s.stored.read(r, doc) }

// Reset points r at json, held as it is, with no member offsets.
func (r *StoredReader) Reset(json []byte) {
	r.Starts, r.out, r.d, r.dict = r.Starts[:0], json, len(json), nil
}

// Len is the JSON's length in bytes.
func (r *StoredReader) Len() int { return len(r.out) }

// Retained is the bytes r keeps for reuse.
func (r *StoredReader) Retained() int { return cap(r.buf) + 4*cap(r.Starts) }

// Through is the JSON decoded through at least its first n bytes: all of
// it when it has fewer, and fewer than asked only when its block does
// not read (a damaged entry). It is valid until r is pointed elsewhere.
func (r *StoredReader) Through(n int) []byte {
	if n > r.d && r.dict != nil {
		r.decode(min(n, len(r.out)))
	}
	return r.out[:r.d]
}

// read points r at doc's entry (ReadStored).
func (sd *storedDocs) read(r *StoredReader, doc uint32) {
	r.Starts = r.Starts[:0]
	e, err := decodeEntry(sd.doc(doc))
	if err != nil {
		r.Reset([]byte("{}")) // checked at load; cannot happen
		return
	}
	r.Starts = appendMemberStarts(r.Starts, &e)
	if sd.dict == nil || len(e.payload) == 0 {
		r.out, r.d, r.dict = e.payload, len(e.payload), nil
		return
	}
	n, k, ok := blockLen(e.payload)
	if ok && len(r.buf) < n+moveSlack {
		r.buf = make([]byte, n+moveSlack)
	}
	if !ok || !sd.open(r, e.payload, k, r.buf[:n+moveSlack]) {
		r.Reset([]byte("{}")) // checked at load; cannot happen
	}
}

// blockLen is the length an S2 block decodes to, and where its
// operations start after that length; ok is false when it does not
// read.
func blockLen(block []byte) (n, k int, ok bool) {
	v, k := binary.Uvarint(block)
	if k <= 0 || v > 1<<31 {
		return 0, 0, false
	}
	return int(v), k, true
}

// open points r at block, its operations from k on, against sd's
// dictionary, to be decoded into wide: the JSON's length and moveSlack
// bytes more. It reports false when the dictionary does not read.
func (sd *storedDocs) open(r *StoredReader, block []byte, k int, wide []byte) bool {
	repeat, kd := binary.Uvarint(sd.dictData)
	if kd <= 0 || repeat > uint64(len(sd.dictData)-kd) {
		return false
	}
	r.dict, r.wide = sd.dictData[kd:], wide
	r.out, r.d, r.src, r.s, r.off = wide[:len(wide)-moveSlack], 0, block, k, len(r.dict)-int(repeat)
	return true
}

// The S2 operations' tags, the low two bits of their first byte.
const (
	s2Literal = 0
	s2Copy1   = 1
	s2Copy2   = 2
	s2Copy4   = 3
)

// s2MaxDictOffset is the output length past which a copy may no longer
// reach into the dictionary (s2.MaxDictSrcOffset).
const s2MaxDictOffset = 65535

// decode decodes operations until r.d reaches limit or the block ends;
// at a damaged operation it stops for good (r.src set to nil).
func (r *StoredReader) decode(limit int) {
	src, s, d, off, dst, dict := r.src, r.s, r.d, r.off, r.out, r.dict
	wide := r.wide
	for d < limit && s < len(src) {
		var length int
		tag := src[s]
		if tag&3 == s2Literal {
			x := int(tag >> 2)
			switch {
			case x < 60:
				s++
			case s+x-58 > len(src): // x-59 more bytes of length
				s = -1
			case x == 60:
				x, s = int(src[s+1]), s+2
			case x == 61:
				x, s = int(src[s+1])|int(src[s+2])<<8, s+3
			case x == 62:
				x, s = int(src[s+1])|int(src[s+2])<<8|int(src[s+3])<<16, s+4
			default:
				x, s = int(src[s+1])|int(src[s+2])<<8|int(src[s+3])<<16|int(src[s+4])<<24, s+5
			}
			length = x + 1
			if s < 0 || length > len(dst)-d || length > len(src)-s {
				src = nil
				break
			}
			move(wide, d, src, s, length)
			d += length
			s += length
			continue
		}
		switch tag & 3 {
		case s2Copy1:
			if s+2 > len(src) {
				s = -1
				break
			}
			length = int(tag>>2) & 7
			o := int(tag&0xe0)<<3 | int(src[s+1])
			s += 2
			if o != 0 {
				off = o
			} else { // a repeat: the last offset, the length maybe in more bytes
				switch length {
				case 5:
					if s+1 > len(src) {
						s = -1
						break
					}
					length, s = int(src[s])+4, s+1
				case 6:
					if s+2 > len(src) {
						s = -1
						break
					}
					length, s = int(src[s])|int(src[s+1])<<8+(1<<8), s+2
				case 7:
					if s+3 > len(src) {
						s = -1
						break
					}
					length, s = int(src[s])|int(src[s+1])<<8|int(src[s+2])<<16+(1<<16), s+3
				}
			}
			length += 4
		case s2Copy2:
			if s+3 > len(src) {
				s = -1
				break
			}
			length, off, s = 1+int(tag>>2), int(src[s+1])|int(src[s+2])<<8, s+3
		default: // s2Copy4
			if s+5 > len(src) {
				s = -1
				break
			}
			length, off, s = 1+int(tag>>2), int(src[s+1])|int(src[s+2])<<8|int(src[s+3])<<16|int(src[s+4])<<24, s+5
		}
		if s < 0 || off <= 0 || length > len(dst)-d {
			src = nil
			break
		}
		if d < off { // from the dictionary's end
			from := len(dict) - (off - d)
			if d > s2MaxDictOffset || from < 0 || from+length > len(dict) {
				src = nil
				break
			}
			move(wide, d, dict, from, length)
			d += length
			continue
		}
		if off >= length { // no overlap
			move(wide, d, wide, d-off, length)
			d += length
			continue
		}
		for i := range length { // overlapping: forwards, a byte at a time
			dst[d+i] = dst[d-off+i]
		}
		d += length
	}
	r.src, r.s, r.d, r.off = src, s, d, off
}

// moveSlack is how many bytes past a doc's JSON its decode buffer has,
// for move to write 16 bytes where fewer are asked.
const moveSlack = 16

// move copies n bytes of src from from to dst at at, as 16 bytes at once
// when n is at most 16 and both have the room (most of a JSON doc's
// operations copy a few bytes, where a call to copy costs more than
// the bytes). The bytes past n it writes are garbage, written over by
// the operations after. src may be dst, n bytes or more before at.
func move(dst []byte, at int, src []byte, from, n int) {
	if n <= 16 && at+16 <= len(dst) && from+16 <= len(src) {
		*(*[16]byte)(dst[at:]) = *(*[16]byte)(src[from:])
		return
	}
	copy(dst[at:at+n], src[from:from+n])
}
