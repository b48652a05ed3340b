package engine

import (
	"slices"
	"strings"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
)

// ProductDoc extracts what the index needs from a product under the
// website's indexed fields. stored is p's JSON when the caller has it
// already (it is encoded otherwise).
func ProductDoc(p *catalog.Product, fields []config.IndexedField, stored []byte, d *index.Doc) error {
	fresh := stored == nil
	if fresh {
		var err error
		if stored, err = json.Marshal(p); err != nil {
			return err
		}
	}
	// Freshly encoded JSON is never reused: the builder may keep it. The
	// doc's slices are reused from its last product.
	text := d.Text
	for f := range text {
		text[f] = text[f][:0]
	}
	*d = index.Doc{Key: p.ProductNumber, AltKeys: altKeys(p.VariantProductNumbers, p.URL), Stored: stored, KeepStored: fresh,
		Text: text, Keywords: d.Keywords[:0], Numbers: d.Numbers[:0], Sort: d.Sort[:0]}
	d.Text[index.FieldTitle] = append(d.Text[index.FieldTitle], p.Title)
	if p.Brand != "" {
		d.Text[index.FieldBrand] = append(d.Text[index.FieldBrand], p.Brand)
	}
	for _, h := range p.Hierarchies {
		d.Text[index.FieldCategory] = append(d.Text[index.FieldCategory], h...)
	}
	if p.Keywords != "" {
		d.Text[index.FieldKeywords] = append(d.Text[index.FieldKeywords], p.Keywords)
	}
	if p.Description != "" {
		d.Text[index.FieldDescription] = append(d.Text[index.FieldDescription], p.Description)
	}
	d.Text[index.FieldProductNumber] = append(append(d.Text[index.FieldProductNumber], p.ProductNumber), p.VariantProductNumbers...)
	for _, k := range sortedKeys(p.ExtraData) {
		d.Text[index.FieldExtra] = append(d.Text[index.FieldExtra], p.ExtraData[k])
	}
	for _, k := range sortedKeys(p.ExtraDataList) {
		d.Text[index.FieldExtra] = append(d.Text[index.FieldExtra], p.ExtraDataList[k]...)
	}
	for _, f := range fields {
		addProductField(p, f, d)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func addProductField(p *catalog.Product, f config.IndexedField, d *index.Doc) {
	kw := func(v string) {
		if v != "" {
			d.Keywords = append(d.Keywords, index.KeywordValue{Field: f.Name, Value: v})
		}
	}
	num := func(v float64) { d.Numbers = append(d.Numbers, index.NumberValue{Field: f.Name, Value: v}) }
	switch f.Type {
	case config.TypeHierarchy:
		var paths [][]string
		if f.Name == "hierarchies" {
			paths = p.Hierarchies
		}
		// Each level's value is a prefix of the whole path's: one string
		// per path.
		var sb strings.Builder
		for _, path := range paths {
			sb.Reset()
			for _, level := range path {
				sb.WriteString(level)
				sb.WriteByte('$')
			}
			full, end := sb.String(), 0
			for _, level := range path {
				end += len(level) + 1
				kw(full[:end])
			}
		}
		return
	case config.TypeBoolean:
		if b, ok := productBool(p, f.Name); ok {
			if b {
				kw("true")
			} else {
				kw("false")
			}
		}
		return
	case config.TypeNumber:
		if v, ok := productNumber(p, f.Name); ok {
			num(v)
		}
		return
	case config.TypeDate:
		if f.Name == "created" && !p.Created.IsZero() {
			num(float64(p.Created.Unix()))
		}
		return
	}
	vals := productStrings(p, f.Name)
	if f.Type == config.TypeText {
		if len(vals) > 0 && f.Sortable {
			d.Sort = append(d.Sort, index.SortValue{Field: f.Name, Value: vals[0]})
		}
		return
	}
	for _, v := range vals {
		kw(v)
	}
}

func productBool(p *catalog.Product, name string) (bool, bool) {
	switch name {
	case "inStock":
		return p.InStock, true
	case "isOnSale":
		return p.IsOnSale, true
	case "priceLowered":
		return p.PriceLowered, true
	}
	if k, ok := strings.CutPrefix(name, "extraData."); ok {
		switch strings.ToLower(p.ExtraData[k]) {
		case "true", "yes", "1":
			return true, true
		case "false", "no", "0":
			return false, true
		}
	}
	return false, false
}

func productNumber(p *catalog.Product, name string) (float64, bool) {
	switch name {
	case "price":
		return p.Price, true
	case "previousPrice":
		return p.PreviousPrice, p.PreviousPrice != 0
	}
	if k, ok := strings.CutPrefix(name, "extraDataNumber."); ok {
		v, ok := p.ExtraDataNumber[k]
		return v, ok
	}
	return 0, false
}

func productStrings(p *catalog.Product, name string) []string {
	one := func(s string) []string {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	switch name {
	case "title":
		return one(p.Title)
	case "brand":
		return one(p.Brand)
	case "currency":
		return one(p.Currency)
	case "productNumber":
		return one(p.ProductNumber)
	case "groupingKey":
		return one(p.GroupingKey)
	case "url":
		return one(p.URL)
	case "variantProductNumbers":
		return p.VariantProductNumbers
	}
	if k, ok := strings.CutPrefix(name, "extraData."); ok {
		return one(p.ExtraData[k])
	}
	if k, ok := strings.CutPrefix(name, "extraDataList."); ok {
		return p.ExtraDataList[k]
	}
	return nil
}

// ContentDoc indexes a category, brand, site page or blog post. Its
// hierarchy is filterable as "hierarchy".
func ContentDoc(c *catalog.Content, d *index.Doc) error {
	stored, err := json.Marshal(contentOut{c.Title, c.Description, c.URL, c.Keywords, c.Hierarchy, c.ImgURL, c.ExtraData})
	if err != nil {
		return err
	}
	*d = index.Doc{Key: c.ID, Stored: stored}
	d.Text[index.FieldTitle] = []string{c.Title}
	d.Text[index.FieldCategory] = c.Hierarchy
	if c.Keywords != "" {
		d.Text[index.FieldKeywords] = []string{c.Keywords}
	}
	if c.Description != "" {
		d.Text[index.FieldDescription] = []string{c.Description}
	}
	var sb strings.Builder
	for _, level := range c.Hierarchy {
		sb.WriteString(level)
		sb.WriteByte('$')
		d.Keywords = append(d.Keywords, index.KeywordValue{Field: "hierarchy", Value: sb.String()})
	}
	return nil
}

// contentOut is a content item as results show it.
type contentOut struct {
	Title       string            `json:"title"`
	Description string            `json:"description,omitempty"`
	URL         string            `json:"url,omitempty"`
	Keywords    string            `json:"keywords,omitempty"`
	Hierarchy   []string          `json:"hierarchy,omitempty"`
	ImgURL      string            `json:"imgUrl,omitempty"`
	ExtraData   map[string]string `json:"extraData,omitempty"`
}

// contentFields are the indexed fields of content items.
var contentFields = map[string]config.IndexedField{
	"hierarchy": {Name: "hierarchy", Type: config.TypeHierarchy},
}
