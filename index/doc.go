// Package index holds a catalog generation's searchable form, a Segment:
// the text postings, the filter and facet bitmaps, the numeric and sort
// columns, and the stored documents, all addressed by dense uint32 doc
// ids. A segment is immutable: a write makes a new one that shares what
// it did not change (WithDocs for documents, WithColumns for prices and
// other column values), and a segment saves to the store's tables and
// loads from them (Save, Load) so a start need not build it again.
package index

// TextField identifies a searchable text source. The set is fixed so that
// per-document field lengths are plain arrays and a posting's field fits a
// byte.
type TextField uint8

// The text fields. Config field names map onto them with FieldByName.
const (
	FieldTitle TextField = iota
	FieldBrand
	FieldCategory
	FieldKeywords
	FieldDescription
	FieldProductNumber
	FieldExtra
	NumTextFields
)

var fieldNames = [NumTextFields]string{"title", "brand", "hierarchies", "keywords", "description", "productNumber", "extraData"}

// String is the config name of the field.
func (f TextField) String() string {
	if f < NumTextFields {
		return fieldNames[f]
	}
	return "unknown"
}

// FieldByName maps a search configuration's field name onto a text field.
// Every extraData and extraDataList member shares FieldExtra; content items'
// "hierarchy" is the category field.
func FieldByName(name string) (TextField, bool) {
	switch name {
	case "hierarchy", "hierarchies", "category", "categories":
		return FieldCategory, true
	case "variantProductNumbers":
		return FieldProductNumber, true
	}
	if hasPrefix(name, "extraData.") || hasPrefix(name, "extraDataList.") || name == "extraDataList" {
		return FieldExtra, true
	}
	for i, n := range fieldNames {
		if n == name {
			return TextField(i), true
		}
	}
	return 0, false
}

// FieldMask is a set of text fields, one bit per TextField: the fields a
// search configuration version searches.
type FieldMask uint8

// AllFields holds every text field.
const AllFields FieldMask = 1<<NumTextFields - 1

// Mask is the set holding only f.
func (f TextField) Mask() FieldMask { return 1 << f }

// Has reports whether f is in m.
func (m FieldMask) Has(f TextField) bool { return m&f.Mask() != 0 }

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// Doc is what the builder indexes: the stored JSON returned to clients and
// the values each index structure needs, already extracted, so the builder
// knows nothing of products or content items.
type Doc struct {
	Key     string   // external id: productNumber, or a content item's id
	AltKeys []string // other ids that find this doc exactly (variant numbers)
	Stored  []byte   // JSON object returned in results
	// KeepStored says Stored stays valid and unchanged while the builder
	// lives, so the builder keeps it instead of copying it.
	KeepStored bool
	Text       [NumTextFields][]string
	Keywords   []KeywordValue
	Numbers    []NumberValue
	Sort       []SortValue // text sort keys (e.g. the folded title)
}

// KeywordValue is one filterable value of a keyword, boolean or hierarchy
// field. Hierarchy paths arrive as one value per prefix.
type KeywordValue struct {
	Field string
	Value string
}

// NumberValue is one numeric or date field value (dates as unix seconds).
type NumberValue struct {
	Field string
	Value float64
}

// SortValue is a text field's sort key.
type SortValue struct {
	Field string
	Value string
}
