package ranking

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/index"
)

// randomCatalog is n random docs of words from vocab (keys P00000,
// P00002, …: every other, so writes can add between them), built, and
// the same after a WithDocs write that removes the docs removed and adds
// the titles added (keys P00001, P00003, …): holes, a tail arena and doc
// ids out of key order. Titles have 1 to title words, brands up to
// brand, descriptions up to desc. text draws a phrase of lo to hi words
// from r, as the docs' were.
type randomCatalog struct {
	built, live *index.Segment
	text        func(lo, hi int) string
}

func newRandomCatalog(t *testing.T, r *rand.Rand, vocab string, n, title, brand, desc int, removed []uint32, added ...string) randomCatalog {
	t.Helper()
	words := strings.Fields(vocab)
	text := func(lo, hi int) string {
		ws := make([]string, lo+r.IntN(hi-lo+1))
		for i := range ws {
			ws[i] = words[r.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	docs := make([]index.Doc, n)
	b := index.NewBuilder(an)
	for i := range docs {
		d := &docs[i]
		d.Key, d.Stored = fmt.Sprintf("P%05d", i*2), []byte("{}")
		d.Text[index.FieldTitle] = []string{text(1, title)}
		d.Text[index.FieldBrand] = []string{text(0, brand)}
		d.Text[index.FieldDescription] = []string{text(0, desc)}
		if err := b.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	built := b.Build()
	writes := make([]index.Doc, len(added))
	for i, title := range added {
		writes[i].Key, writes[i].Stored = fmt.Sprintf("P%05d", 2*i+1), []byte("{}")
		writes[i].Text[index.FieldTitle] = []string{title}
	}
	live, err := built.WithDocs(an, removed, writes, func(doc uint32) (*index.Doc, error) { return &docs[doc], nil })
	if err != nil {
		t.Fatal(err)
	}
	return randomCatalog{built, live, text}
}
