package catalog

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-json"
)

// csvColumn is one compiled mapping entry: where its text comes from and
// how it is stored.
type csvColumn struct {
	field string
	col   int    // index in the record, or -1 for a default only
	def   string // used when the cell is empty
	set   func(p *Product, v string) error
}

func readCSV(br *bufio.Reader, name string, m *CSVMapping, fn func(*Product) error) error {
	cr, header, cols, err := csvColumns(br, name, m, false)
	if err != nil {
		return err
	}
	return eachCSVRecord(cr, name, header, cols, nil, func(p *Product, line, rec int, cellErr *cellError) error {
		if cellErr != nil {
			return fmt.Errorf("%s:%d: record %d: %w", name, cellErr.line, rec, cellErr)
		}
		if err := fn(p); err != nil {
			return fmt.Errorf("%s:%d: record %d: %w", name, line, rec, err)
		}
		return nil
	})
}

// CSVObjects reads a CSV feed under mapping m and calls fn with each
// record as a JSON object holding only the members its cells (or the
// mapping's defaults) set, labelled "name:line" as the import's errors
// are: what a partial update or an allowErrors batch takes. A record
// whose cell does not convert comes with its error and no object, so
// the caller decides whether it stops the batch; a header the mapping
// does not fit, or a record that is not CSV, stops the read. For a
// partial update (partial) the mapping need map only productNumber.
func CSVObjects(r io.Reader, name string, m *CSVMapping, partial bool, fn func(label string, obj []byte, err error) error) error {
	cr, header, cols, err := csvColumns(bufio.NewReader(r), name, m, partial)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	return eachCSVRecord(cr, name, header, cols, set, func(p *Product, line, rec int, cellErr *cellError) error {
		label := fmt.Sprintf("%s:%d", name, line)
		if cellErr != nil {
			return fn(label, nil, fmt.Errorf("record %d: %w", rec, cellErr))
		}
		obj, err := productMembers(p, set)
		if err != nil {
			return err
		}
		return fn(label, obj, nil)
	})
}

// eachCSVRecord reads the records after the header and calls fn with
// each one's product, filled from its cells and the defaults, the line
// it starts on, its number and the cell that did not convert (nil when
// all did). With set not nil, it holds the top-level members the
// record set when fn is called (cleared for each record). A record that
// is not CSV stops the read.
func eachCSVRecord(cr *csv.Reader, name string, header []string, cols []csvColumn, set map[string]bool, fn func(p *Product, line, rec int, cellErr *cellError) error) error {
	for rec := 1; ; rec++ {
		row, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvRecordError(name, rec, err, len(header))
		}
		clear(set)
		p := new(Product)
		cellErr := fillCSV(p, cr, row, header, cols, set)
		line, _ := cr.FieldPos(0)
		if err := fn(p, line, rec, cellErr); err != nil {
			return err
		}
	}
}

// productMembers is p's JSON with only the top-level members named in
// set (a mapped field "extraData.color" sets member extraData).
func productMembers(p *Product, set map[string]bool) ([]byte, error) {
	full, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(full, &all); err != nil {
		return nil, err
	}
	for k := range all {
		if !set[k] {
			delete(all, k)
		}
	}
	return json.Marshal(all)
}

// csvColumns reads the header and matches it with the mapping: the
// reader positioned at the first record, the header's names, and the
// columns to fill each product from; partial as validateFor takes it.
func csvColumns(br *bufio.Reader, name string, m *CSVMapping, partial bool) (*csv.Reader, []string, []csvColumn, error) {
	if err := m.validateFor(partial); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, nil, nil, fmt.Errorf("%s: empty file: expected a header row naming the columns", name)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: header: %w", name, csvError(err, 0))
	}
	header = slices.Clone(header) // the reader reuses its record
	index := make(map[string]int, len(header))
	dup := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		header[i] = h
		if _, seen := index[h]; seen {
			dup[h] = true
			continue
		}
		index[h] = i
	}
	var cols []csvColumn
	var missing []string
	for _, f := range slices.Sorted(maps.Keys(m.Columns)) {
		h := strings.TrimSpace(m.Columns[f])
		i, ok := index[h]
		switch {
		case !ok:
			missing = append(missing, fmt.Sprintf("%q (for %s)", h, f))
			continue
		case dup[h]:
			return nil, nil, nil, fmt.Errorf("%s: %s: column %q (for %s) appears more than once in the header", name, m.prefix(), h, f)
		}
		cols = append(cols, csvColumn{field: f, col: i, def: strings.TrimSpace(m.Defaults[f]), set: fieldSetter(f, m)})
	}
	if len(missing) > 0 {
		return nil, nil, nil, fmt.Errorf("%s: %s: not in the header: %s; the header has %s", name, m.prefix(), strings.Join(missing, ", "), quoteAll(header))
	}
	for _, f := range slices.Sorted(maps.Keys(m.Defaults)) {
		if _, mapped := m.Columns[f]; !mapped {
			if v := strings.TrimSpace(m.Defaults[f]); v != "" {
				cols = append(cols, csvColumn{field: f, col: -1, def: v, set: fieldSetter(f, m)})
			}
		}
	}
	return cr, header, cols, nil
}

// csvRecordError words a record that is not CSV.
func csvRecordError(name string, rec int, err error, columns int) error {
	line := 0
	if pe, ok := errors.AsType[*csv.ParseError](err); ok {
		line = pe.Line
	}
	return fmt.Errorf("%s:%d: record %d: %w", name, line, rec, csvError(err, columns))
}

// cellError is a cell (or a mapping default) whose text does not convert
// to its field.
type cellError struct {
	line   int    // where the cell is
	column string // its header name; "" for a default
	field  string
	err    error
}

func (e *cellError) Error() string {
	if e.column == "" {
		return fmt.Sprintf("default for field %q: %v", e.field, e.err)
	}
	return fmt.Sprintf("column %q, field %q: %v", e.column, e.field, e.err)
}

func (e *cellError) Unwrap() error { return e.err }

// fillCSV sets p's fields from a record's cells and the defaults, and
// records in set (when not nil) the top-level members it set.
func fillCSV(p *Product, cr *csv.Reader, row, header []string, cols []csvColumn, set map[string]bool) *cellError {
	for _, c := range cols {
		v := c.def
		if c.col >= 0 {
			if cell := strings.TrimSpace(row[c.col]); cell != "" {
				v = cell
			}
		}
		if v == "" {
			continue
		}
		if err := c.set(p, v); err != nil {
			if c.col < 0 {
				line, _ := cr.FieldPos(0)
				return &cellError{line: line, field: c.field, err: err}
			}
			line, _ := cr.FieldPos(c.col)
			return &cellError{line: line, column: header[c.col], field: c.field, err: err}
		}
		if set != nil {
			member, _, _ := strings.Cut(c.field, ".")
			set[member] = true
		}
	}
	return nil
}

// csvError words encoding/csv's errors without repeating the line, which
// the caller puts in front.
func csvError(err error, columns int) error {
	pe, ok := errors.AsType[*csv.ParseError](err)
	if !ok {
		return err
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		return fmt.Errorf("wrong number of columns: the header has %d", columns)
	}
	return fmt.Errorf("column %d: %w", pe.Column, pe.Err)
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// fieldSetter returns the function that stores a non-empty, trimmed cell
// in field (one validField accepts); its errors name the value.
func fieldSetter(field string, m *CSVMapping) func(p *Product, v string) error {
	str := func(dst func(p *Product) *string) func(*Product, string) error {
		return func(p *Product, v string) error { *dst(p) = v; return nil }
	}
	num := func(dst func(p *Product) *float64) func(*Product, string) error {
		return func(p *Product, v string) error {
			f, err := parseNumber(v)
			*dst(p) = f
			return err
		}
	}
	boolean := func(dst func(p *Product) *bool) func(*Product, string) error {
		return func(p *Product, v string) (err error) {
			*dst(p), err = parseBool(v)
			return err
		}
	}
	switch field {
	case "productNumber":
		return str(func(p *Product) *string { return &p.ProductNumber })
	case "title":
		return str(func(p *Product) *string { return &p.Title })
	case "url":
		return str(func(p *Product) *string { return &p.URL })
	case "imgUrl":
		return str(func(p *Product) *string { return &p.ImgURL })
	case "currency":
		return str(func(p *Product) *string { return &p.Currency })
	case "priceFormatted":
		return str(func(p *Product) *string { return &p.PriceFormatted })
	case "description":
		return str(func(p *Product) *string { return &p.Description })
	case "keywords":
		return str(func(p *Product) *string { return &p.Keywords })
	case "brand":
		return str(func(p *Product) *string { return &p.Brand })
	case "groupingKey":
		return str(func(p *Product) *string { return &p.GroupingKey })
	case "price":
		return num(func(p *Product) *float64 { return &p.Price })
	case "previousPrice":
		return num(func(p *Product) *float64 { return &p.PreviousPrice })
	case "inStock":
		return boolean(func(p *Product) *bool { return &p.InStock })
	case "isOnSale":
		return boolean(func(p *Product) *bool { return &p.IsOnSale })
	case "created":
		return func(p *Product, v string) (err error) {
			p.Created, err = parseTime(v)
			return err
		}
	case "variantProductNumbers":
		return func(p *Product, v string) error {
			p.VariantProductNumbers = splitList(v)
			return nil
		}
	case "hierarchies":
		sep, dropLast := m.HierarchySeparator, m.HierarchyDropLast
		return func(p *Product, v string) error {
			if path := splitPath(v, sep, dropLast); len(path) > 0 {
				p.Hierarchies = append(p.Hierarchies, path)
			}
			return nil
		}
	}
	if k, ok := strings.CutPrefix(field, "extraData."); ok {
		return func(p *Product, v string) error {
			if p.ExtraData == nil {
				p.ExtraData = map[string]string{}
			}
			p.ExtraData[k] = v
			return nil
		}
	}
	if k, ok := strings.CutPrefix(field, "extraDataNumber."); ok {
		lenient := m.LenientNumbers
		return func(p *Product, v string) error {
			f, err := parseNumber(v)
			if err != nil {
				if lenient {
					return nil
				}
				return err
			}
			if p.ExtraDataNumber == nil {
				p.ExtraDataNumber = map[string]float64{}
			}
			p.ExtraDataNumber[k] = f
			return nil
		}
	}
	if k, ok := strings.CutPrefix(field, "extraDataList."); ok {
		return func(p *Product, v string) error {
			if list := splitList(v); len(list) > 0 {
				if p.ExtraDataList == nil {
					p.ExtraDataList = map[string][]string{}
				}
				p.ExtraDataList[k] = list
			}
			return nil
		}
	}
	return func(*Product, string) error { return fmt.Errorf("%q is not a product field", field) }
}

// splitPath splits a hierarchy cell into its non-empty levels, dropping
// the last one when asked but keeping at least one.
func splitPath(v, sep string, dropLast bool) []string {
	levels := []string{v}
	if sep != "" {
		levels = strings.Split(v, sep)
	}
	kept := levels[:0]
	for _, l := range levels {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	if dropLast && len(kept) > 1 {
		kept = kept[:len(kept)-1]
	}
	return kept
}

func splitList(v string) []string {
	var out []string
	for s := range strings.SplitSeq(v, "|") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func parseNumber(v string) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a number", v)
	}
	return f, nil
}

func parseBool(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "1", "yes":
		return true, nil
	case "false", "0", "no":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean (true/false, yes/no, 1/0)", v)
}

func parseTime(v string) (time.Time, error) {
	for _, l := range []string{time.RFC3339Nano, time.DateTime, time.DateOnly} {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date (2006-01-02, 2006-01-02 15:04:05 or RFC 3339)", v)
}
