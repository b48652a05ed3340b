package index

import "testing"

// TestFieldByName: every text field answers to its config name, content
// items' "hierarchy" and its other spellings to the category field, and
// every extraData and extraDataList member to FieldExtra (doc.go
// FieldByName; docs/configuration.md field names).
func TestFieldByName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want TextField
		ok   bool
	}{
		{"title", FieldTitle, true}, {"brand", FieldBrand, true}, {"hierarchies", FieldCategory, true},
		{"hierarchy", FieldCategory, true}, {"category", FieldCategory, true}, {"categories", FieldCategory, true},
		{"keywords", FieldKeywords, true}, {"description", FieldDescription, true},
		{"productNumber", FieldProductNumber, true}, {"variantProductNumbers", FieldProductNumber, true},
		{"extraData", FieldExtra, true}, {"extraData.color", FieldExtra, true},
		{"extraDataList", FieldExtra, true}, {"extraDataList.sizes", FieldExtra, true},
		{"extraData.", FieldExtra, true},
		{"extraDat", 0, false}, {"extraDataX", 0, false}, {"Title", 0, false}, {"", 0, false}, {"url", 0, false},
	} {
		got, ok := FieldByName(tc.name)
		if got != tc.want || ok != tc.ok {
			t.Errorf("FieldByName(%q) = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	for f := range NumTextFields {
		if got, ok := FieldByName(f.String()); !ok || got != f {
			t.Errorf("FieldByName(%v.String()) = %v, %v", f, got, ok)
		}
	}
	if got := NumTextFields.String(); got != "unknown" {
		t.Errorf("NumTextFields.String() = %q, want unknown", got)
	}
}

// TestFieldMask: a mask holds exactly the fields put in it; AllFields
// holds every text field (doc.go FieldMask).
func TestFieldMask(t *testing.T) {
	for f := range NumTextFields {
		m := f.Mask()
		for g := range NumTextFields {
			if m.Has(g) != (f == g) || !AllFields.Has(g) || (AllFields&^m).Has(g) != (f != g) {
				t.Fatalf("mask of %v: Has(%v) = %v", f, g, m.Has(g))
			}
		}
	}
	if FieldMask(0).Has(FieldTitle) || AllFields.Has(NumTextFields) {
		t.Fatal("an empty mask holds a field, or AllFields one past the last")
	}
}
