package catalog

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-json"
)

// CSVMapping says which CSV column feeds which product field, so any shop
// export can be imported without reshaping it first.
type CSVMapping struct {
	// Name identifies the mapping in messages.
	Name string `json:"name"`
	// Columns maps a product field to the CSV header of its column. The
	// fields are productNumber, title, url, imgUrl, currency, price,
	// previousPrice, priceFormatted, description, keywords, inStock,
	// isOnSale, brand, groupingKey, created, variantProductNumbers and
	// extraDataList.X (lists split on "|"), hierarchies (one column holding
	// one path), extraData.X and extraDataNumber.X.
	Columns map[string]string `json:"columns"`
	// HierarchySeparator splits the hierarchies column into levels, e.g.
	// " >> "; empty means the column is a single level.
	HierarchySeparator string `json:"hierarchySeparator,omitempty"`
	// HierarchyDropLast drops the last level when it is the product's own
	// name (as in Flipkart's export), keeping at least the first level.
	HierarchyDropLast bool `json:"hierarchyDropLast,omitempty"`
	// LenientNumbers reads a non-numeric extraDataNumber value (such as
	// Flipkart's "No rating available") as absent instead of an error.
	LenientNumbers bool `json:"lenientNumbers,omitempty"`
	// Defaults are constants for fields without a column, e.g. currency
	// "INR"; for a field with a column, they fill its empty cells.
	Defaults map[string]string `json:"defaults,omitempty"`
}

var mappingFields = jsonNames(reflect.TypeFor[CSVMapping]())

// plainFields are the product fields a CSV column can feed besides the
// extraData* maps.
var plainFields = []string{"productNumber", "title", "url", "imgUrl", "currency", "price", "previousPrice", "priceFormatted",
	"description", "keywords", "inStock", "isOnSale", "brand", "groupingKey", "created", "hierarchies", "variantProductNumbers"}

var mapFields = []string{"extraData.", "extraDataNumber.", "extraDataList."}

func validField(f string) bool {
	if slices.Contains(plainFields, f) {
		return true
	}
	for _, p := range mapFields {
		if k, ok := strings.CutPrefix(f, p); ok && k != "" && !strings.Contains(k, ".") {
			return true
		}
	}
	return false
}

// ParseCSVMapping reads a mapping document such as
//
//	{"name": "shop", "columns": {"productNumber": "sku", "title": "name"},
//	 "hierarchySeparator": " > ", "hierarchyDropLast": false,
//	 "lenientNumbers": false, "defaults": {"currency": "EUR"}}
//
// so a shop's CSV export can be described in a file passed to --mapping.
// Unknown members, unknown product fields, missing productNumber or title
// columns and default values that do not parse are errors naming them.
func ParseCSVMapping(data []byte) (*CSVMapping, error) { return ParseCSVMappingFor(data, false) }

// ParseCSVMappingFor is ParseCSVMapping for whole products or, partial,
// for partial updates, whose mapping need map only productNumber (a price
// feed of two columns).
func ParseCSVMappingFor(data []byte, partial bool) (*CSVMapping, error) {
	var m CSVMapping
	if err := json.UnmarshalWithOption(data, &m, strict); err != nil {
		return nil, fmt.Errorf("mapping: %w", describeJSON(err, mappingFields, false))
	}
	if err := m.validateFor(partial); err != nil {
		return nil, err
	}
	return &m, nil
}

func (m *CSVMapping) prefix() string {
	if m.Name == "" {
		return "mapping"
	}
	return fmt.Sprintf("mapping %q", m.Name)
}

// validate checks the mapping before any record is read, so its mistakes
// are reported once rather than at the first row.
func (m *CSVMapping) validate() error { return m.validateFor(false) }

// validateFor is validate for a whole product or, partial, for a partial
// update, which needs only productNumber mapped.
func (m *CSVMapping) validateFor(partial bool) error {
	if len(m.Columns) == 0 {
		return fmt.Errorf("%s: columns is empty: map at least productNumber and title to CSV headers", m.prefix())
	}
	for _, f := range slices.Sorted(maps.Keys(m.Columns)) {
		if !validField(f) {
			return fmt.Errorf("%s: columns: %s", m.prefix(), unknownFieldMessage(f))
		}
		if strings.TrimSpace(m.Columns[f]) == "" {
			return fmt.Errorf("%s: columns: %q maps to an empty column name", m.prefix(), f)
		}
	}
	if _, ok := m.Columns["productNumber"]; partial && !ok {
		return fmt.Errorf("%s: columns must map productNumber (a partial update names each product by it)", m.prefix())
	}
	for _, f := range []string{"productNumber", "title"} {
		if _, ok := m.Columns[f]; !partial && !ok {
			return fmt.Errorf("%s: columns must map productNumber and title (%s is missing)", m.prefix(), f)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(m.Defaults)) {
		if !validField(f) {
			return fmt.Errorf("%s: defaults: %s", m.prefix(), unknownFieldMessage(f))
		}
		if v := strings.TrimSpace(m.Defaults[f]); v != "" {
			if err := fieldSetter(f, m)(new(Product), v); err != nil {
				return fmt.Errorf("%s: defaults: field %q: %w", m.prefix(), f, err)
			}
		}
	}
	return nil
}

func unknownFieldMessage(f string) string {
	for _, p := range mapFields {
		if k, ok := strings.CutPrefix(f, p); ok {
			return fmt.Sprintf("%q: the key after %q must be non-empty and without '.', got %q", f, p, k)
		}
	}
	msg := fmt.Sprintf("%q is not a product field", f)
	if near := nearest(f, plainFields); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return msg + " (fields: " + strings.Join(plainFields, ", ") + ", extraData.X, extraDataNumber.X, extraDataList.X)"
}

var builtins = map[string]*CSVMapping{
	// Flipkart's e-commerce sample: uniq_id is the key (pid repeats), the
	// category path ends with the product name, and product_rating is
	// "No rating available" for most rows.
	"flipkart": {
		Name: "flipkart",
		Columns: map[string]string{
			"productNumber": "uniq_id", "title": "product_name", "brand": "brand",
			"price": "discounted_price", "previousPrice": "retail_price", "hierarchies": "category_path",
			"extraData.pid": "pid", "extraDataNumber.rating": "product_rating", "extraData.fkAdvantage": "is_FK_Advantage_product",
		},
		HierarchySeparator: " >> ",
		HierarchyDropLast:  true,
		LenientNumbers:     true,
		Defaults:           map[string]string{"currency": "INR", "inStock": "true"},
	},
	// Home Depot's search relevance products: an id and a title.
	"homedepot": {
		Name:     "homedepot",
		Columns:  map[string]string{"productNumber": "product_uid", "title": "product_title"},
		Defaults: map[string]string{"currency": "USD", "inStock": "true"},
	},
}

// BuiltinMappings names the mappings BuiltinMapping knows, sorted.
func BuiltinMappings() []string {
	return slices.Sorted(maps.Keys(builtins))
}

// BuiltinMapping returns a mapping shipped with Aisle for a public catalog
// ("flipkart", "homedepot"), so `aisle import --mapping flipkart` needs no
// mapping file. The result is a copy the caller may change.
func BuiltinMapping(name string) (*CSVMapping, error) {
	m, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("no built-in mapping %q (built in: %s)", name, strings.Join(BuiltinMappings(), ", "))
	}
	c := *m
	c.Columns = maps.Clone(m.Columns)
	c.Defaults = maps.Clone(m.Defaults)
	return &c, nil
}
