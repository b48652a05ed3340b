package index

import (
	"fmt"
	"maps"
	"testing"
)

// TestMemberNamesNotKnown: names not known (a segment saved before they
// were kept, or docs with too many names) say every name may be there,
// and stay not known through writes; a write that changes no count
// keeps the names as they were.
func TestMemberNamesNotKnown(t *testing.T) {
	var unknown *MemberNames
	if !unknown.Has("anything") || unknown.Counts() != nil || memberNamesOf(nil) != nil {
		t.Fatal("names not known must have every name")
	}
	var d nameDelta
	var b nameBatch
	b.addDoc([]byte(`{"a":1}`), []uint32{1}, 1)
	d.flush(&b)
	if unknown.apply(&d) != nil {
		t.Fatal("a write made names not known known")
	}
	m := d.built()
	if !m.Has("a") || m.Has("b") || !maps.Equal(m.Counts(), map[string]int{"a": 1}) {
		t.Fatalf("built: %v", m.Counts())
	}
	var same nameDelta
	var sb nameBatch
	sb.addDoc([]byte(`{"a":2}`), []uint32{1}, 1)
	sb.addDoc([]byte(`{"a":1}`), []uint32{1}, -1)
	same.flush(&sb)
	if m.apply(&same) != m {
		t.Fatal("a doc replaced by one of the same names made new names")
	}
	var many nameDelta
	var mb nameBatch
	for i := range maxMemberNames + 1 {
		doc := fmt.Appendf(nil, `{"k%d":1}`, i)
		mb.addDoc(doc, []uint32{1}, 1)
	}
	many.flush(&mb)
	if many.built() != nil || m.apply(&many) != nil {
		t.Fatal("more names than maxMemberNames kept")
	}
}
