package index

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/s2"
)

// checkReader reads json through rd in steps of random size, each step
// a prefix of json at least as long as asked, then all of it.
func checkReader(t *testing.T, rd *StoredReader, json []byte, r *rand.Rand) {
	t.Helper()
	if rd.Len() != len(json) {
		t.Fatalf("reader of %s: length %d", json, rd.Len())
	}
	for n := 0; n <= len(json)+1; n += 1 + r.IntN(40) {
		got := rd.Through(n)
		if len(got) < min(n, len(json)) || !bytes.Equal(got, json[:len(got)]) {
			t.Fatalf("reader of %s through %d: %q", json, n, got)
		}
	}
	if got := rd.Through(len(json)); !bytes.Equal(got, json) {
		t.Fatalf("reader of %s: %q", json, got)
	}
}

// readerDocs is docs of one entry, block, its payload as compressed
// against dict (nil: stored as is).
func readerDocs(dict *s2.Dict, block []byte) storedDocs {
	sd := packDocs([][]byte{appendEntry(nil, nil, []uint32{1, 9}, block)})
	if dict != nil {
		sd.dict, sd.dictData = dict, dict.Bytes()
	}
	return sd
}

// readerDict is a dictionary made from product-like JSON.
func readerDict(t testing.TB) *s2.Dict {
	sample := bytes.Repeat([]byte(`{"productNumber":"AI-000001","title":"Stahlmann White Pliers 20V Max","url":"https://demo.aisle.shop/p/stahlmann-white-pliers","price":10.99,"brand":"Stahlmann"}`), 40)
	d := s2.MakeDict(sample, sample[:16])
	if d == nil {
		t.Fatal("no dictionary")
	}
	return d
}

// TestStoredReader: a doc compressed against a dictionary reads back a
// piece at a time as s2 decodes it whole, with repeats, copies from the
// dictionary, overlapping copies and long literals among its
// operations, and decodes whole the same; one stored as it is reads at
// once; a damaged block gives fewer bytes than asked, and {} whole.
func TestStoredReader(t *testing.T) {
	dict := readerDict(t)
	r := rand.New(rand.NewPCG(1, 2))
	var long []byte
	for range 300 { // a literal run of more than 256 bytes
		long = append(long, byte('a'+r.IntN(26)))
	}
	docs := [][]byte{
		[]byte(`{}`),
		[]byte(`{"productNumber":"AI-000001","title":"Stahlmann White Pliers 20V Max","price":10.99}`),
		[]byte(`{"productNumber":"ZZ-9","title":"` + string(bytes.Repeat([]byte("ab"), 200)) + `","brand":"Stahlmann"}`),
		[]byte(`{"description":"` + string(long) + `","title":"` + string(long) + `","x":"` + string(bytes.Repeat([]byte("z"), 70000)) + `"}`),
	}
	for _, doc := range docs {
		block := dict.Encode(nil, doc)
		if back, err := dict.Decode(nil, block); err != nil || !bytes.Equal(back, doc) {
			t.Fatalf("s2 does not decode its own block: %v", err)
		}
		sd := readerDocs(dict, block)
		var rd StoredReader
		sd.read(&rd, 0)
		if len(rd.Starts) != 2 || rd.Starts[1] != 9 {
			t.Fatalf("member offsets %v, want [1 9]", rd.Starts)
		}
		checkReader(t, &rd, doc, r)
		plain := readerDocs(nil, doc)
		plain.read(&rd, 0)
		if got := rd.Through(1); !bytes.Equal(got, doc) {
			t.Fatalf("a doc stored as it is reads %q at once, want %q", got, doc)
		}
	}
	// Damaged: cut short, a literal's length past the block, a copy
	// before the dictionary's start.
	doc := docs[1]
	block := dict.Encode(nil, doc)
	for _, bad := range [][]byte{block[:len(block)-3], append(block[:2:2], 0xf8, 0xff, 0xff, 0xff, 0x7f), append(block[:2:2], 0x03, 0xff, 0xff, 0xff, 0x7f)} {
		sd := readerDocs(dict, bad)
		var rd StoredReader
		sd.read(&rd, 0)
		if got := rd.Through(rd.Len()); len(got) >= rd.Len() {
			t.Fatalf("damaged block %x reads %d of %d bytes", bad, len(got), rd.Len())
		}
		if got := sd.appendDoc(nil, 0); string(got) != "{}" {
			t.Fatalf("damaged block %x decodes whole to %q, want {}", bad, got)
		}
	}
}

// FuzzStoredReader: any bytes, compressed, read back a piece at a time
// and whole; and any bytes as a block read without a panic, as s2 reads
// them when it can, whole as through a reader or {}.
func FuzzStoredReader(f *testing.F) {
	f.Add([]byte(`{"productNumber":"AI-000001","title":"Pliers"}`), uint64(7))
	f.Add([]byte{0x1c, 0xf8, 0x01, 0x02, 0x05, 0x00}, uint64(1))
	dict := readerDict(f)
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 3))
		sd := readerDocs(dict, dict.Encode(nil, data))
		var rd StoredReader
		sd.read(&rd, 0)
		checkReader(t, &rd, data, r)
		if whole := sd.appendDoc([]byte("x"), 0); !bytes.Equal(whole[1:], data) {
			t.Fatalf("%q decodes whole to %q", data, whole[1:])
		}
		// data as a block.
		sd = readerDocs(dict, data)
		sd.read(&rd, 0)
		got := rd.Through(rd.Len())
		whole := sd.appendDoc([]byte("x"), 0)[1:]
		if want, err := dict.Decode(nil, data); err == nil && (!bytes.Equal(got, want) || !bytes.Equal(whole, want)) {
			t.Fatalf("block %x reads %q and %q whole, s2 %q", data, got, whole, want)
		}
		if !bytes.Equal(whole, got) && string(whole) != "{}" {
			t.Fatalf("block %x reads %q whole, %q through a reader", data, whole, got)
		}
	})
}
