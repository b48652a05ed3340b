package catalog

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-json"
)

// CSVMapping says which CSV column feeds which product field, so any shop
// export can be imported without reshaping it first.
type CSVMapping struct {
	Name    string            `json:"name"`
	Columns map[string]string `json:"columns"` // product field → CSV header
	// HierarchySeparator splits the "hierarchies" column into levels.
	HierarchySeparator string `json:"hierarchySeparator,omitempty"`
	// HierarchyDropLast drops the last level (when it is the product's own
	// name), keeping at least one.
	HierarchyDropLast bool `json:"hierarchyDropLast,omitempty"`
	// LenientNumbers reads a non-numeric extraDataNumber value as absent.
	LenientNumbers bool `json:"lenientNumbers,omitempty"`
	// Defaults are constants for fields without a column.
	Defaults map[string]string `json:"defaults,omitempty"`
}

var plainFields = []string{"productNumber", "title", "url", "imgUrl", "currency", "price", "previousPrice", "priceFormatted",
	"description", "keywords", "inStock", "isOnSale", "brand", "groupingKey", "created", "hierarchies", "variantProductNumbers"}

func validField(f string) bool {
	if slices.Contains(plainFields, f) {
		return true
	}
	for _, p := range []string{"extraData.", "extraDataNumber.", "extraDataList."} {
		if k, ok := strings.CutPrefix(f, p); ok && k != "" && !strings.Contains(k, ".") {
			return true
		}
	}
	return false
}

// ParseCSVMapping reads a mapping document, rejecting unknown members and
// unknown product fields.
func ParseCSVMapping(data []byte) (*CSVMapping, error) {
	var m CSVMapping
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("mapping: %w", describeJSON(err))
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

func (m *CSVMapping) validate() error {
	if len(m.Columns) == 0 {
		return errors.New("mapping: columns is empty")
	}
	for _, set := range []map[string]string{m.Columns, m.Defaults} {
		for f := range set {
			if !validField(f) {
				return fmt.Errorf("mapping: %q is not a product field (%s, extraData.X, extraDataNumber.X, extraDataList.X)", f, strings.Join(plainFields, ", "))
			}
		}
	}
	if m.Columns["productNumber"] == "" || m.Columns["title"] == "" {
		return errors.New("mapping: columns must map productNumber and title")
	}
	return nil
}

var builtins = map[string]*CSVMapping{
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
	"homedepot": {
		Name:     "homedepot",
		Columns:  map[string]string{"productNumber": "product_uid", "title": "product_title"},
		Defaults: map[string]string{"currency": "USD", "inStock": "true"},
	},
}

func builtinNames() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// BuiltinMapping returns a mapping shipped with Aisle for a known public
// catalog.
func BuiltinMapping(name string) (*CSVMapping, error) {
	m, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("no built-in mapping %q (built in: %s)", name, strings.Join(builtinNames(), ", "))
	}
	return m, nil
}

// csvSetter writes one CSV cell into a product.
type csvSetter struct {
	field string
	col   int // -1 for a default
	def   string
}

func readCSV(r io.Reader, name string, m *CSVMapping, fn func(*Product) error) error {
	if err := m.validate(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("%s: read header: %w", name, err)
	}
	header = slices.Clone(header) // the reader reuses its record
	index := map[string]int{}
	for i, h := range header {
		index[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	var setters []csvSetter
	fields := make([]string, 0, len(m.Columns))
	for f := range m.Columns {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		i, ok := index[m.Columns[f]]
		if !ok {
			return fmt.Errorf("%s: mapping %s: column %q (for %s) is not in the header", name, m.Name, m.Columns[f], f)
		}
		setters = append(setters, csvSetter{field: f, col: i})
	}
	for f, v := range m.Defaults {
		if _, mapped := m.Columns[f]; !mapped {
			setters = append(setters, csvSetter{field: f, col: -1, def: v})
		}
	}
	var p Product
	for rec := 1; ; rec++ {
		row, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: record %d: %w", name, rec, err)
		}
		p = Product{}
		for _, s := range setters {
			v := s.def
			if s.col >= 0 {
				if s.col >= len(row) {
					continue
				}
				v = row[s.col]
			}
			if err := setField(&p, s.field, strings.TrimSpace(v), m); err != nil {
				col := "default"
				if s.col >= 0 {
					col = "column " + strconv.Quote(header[s.col])
				}
				return fmt.Errorf("%s: record %d: %s: %w", name, rec, col, err)
			}
		}
		if err := fn(&p); err != nil {
			return fmt.Errorf("%s: record %d: %w", name, rec, err)
		}
	}
}

func setField(p *Product, field, v string, m *CSVMapping) error {
	if v == "" {
		return nil
	}
	num := func() (float64, error) {
		f, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("field %q: %q is not a number", field, v)
		}
		return f, nil
	}
	var err error
	switch field {
	case "productNumber":
		p.ProductNumber = v
	case "title":
		p.Title = v
	case "url":
		p.URL = v
	case "imgUrl":
		p.ImgURL = v
	case "currency":
		p.Currency = v
	case "priceFormatted":
		p.PriceFormatted = v
	case "description":
		p.Description = v
	case "keywords":
		p.Keywords = v
	case "brand":
		p.Brand = v
	case "groupingKey":
		p.GroupingKey = v
	case "price":
		p.Price, err = num()
	case "previousPrice":
		p.PreviousPrice, err = num()
	case "inStock":
		p.InStock, err = parseBool(field, v)
	case "isOnSale":
		p.IsOnSale, err = parseBool(field, v)
	case "created":
		p.Created, err = parseTime(field, v)
	case "variantProductNumbers":
		p.VariantProductNumbers = splitList(v)
	case "hierarchies":
		levels := []string{v}
		if m.HierarchySeparator != "" {
			levels = strings.Split(v, m.HierarchySeparator)
		}
		kept := levels[:0]
		for _, l := range levels {
			if l = strings.TrimSpace(strings.ReplaceAll(l, "$", "")); l != "" {
				kept = append(kept, l)
			}
		}
		if m.HierarchyDropLast && len(kept) > 1 {
			kept = kept[:len(kept)-1]
		}
		if len(kept) > 0 {
			p.Hierarchies = append(p.Hierarchies, slices.Clone(kept))
		}
	default:
		if k, ok := strings.CutPrefix(field, "extraData."); ok {
			if p.ExtraData == nil {
				p.ExtraData = map[string]string{}
			}
			p.ExtraData[k] = v
		} else if k, ok := strings.CutPrefix(field, "extraDataNumber."); ok {
			f, nerr := num()
			if nerr != nil {
				if m.LenientNumbers {
					return nil
				}
				return nerr
			}
			if p.ExtraDataNumber == nil {
				p.ExtraDataNumber = map[string]float64{}
			}
			p.ExtraDataNumber[k] = f
		} else if k, ok := strings.CutPrefix(field, "extraDataList."); ok {
			if p.ExtraDataList == nil {
				p.ExtraDataList = map[string][]string{}
			}
			p.ExtraDataList[k] = splitList(v)
		}
	}
	return err
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, "|") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func parseBool(field, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "1", "yes", "y":
		return true, nil
	case "false", "0", "no", "n":
		return false, nil
	}
	return false, fmt.Errorf("field %q: %q is not a boolean (true/false, yes/no, 1/0)", field, v)
}

func parseTime(field, v string) (time.Time, error) {
	for _, l := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("field %q: %q is not a date (2006-01-02, 2006-01-02 15:04:05 or RFC 3339)", field, v)
}
