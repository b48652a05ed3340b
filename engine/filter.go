package engine

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/index"
)

// Filter is a parsed filter string `{field}:{value}`; ranges keep their
// bounds, open ends as ±Inf.
type Filter struct {
	Field    string
	Value    string
	IsRange  bool
	Min, Max float64
}

// ParseFilter splits a filter string and, for number and date fields,
// parses the value as a range `min,max` (inclusive, either end optional)
// or a single value. typeOf reports a field's indexed type.
func ParseFilter(s string, typeOf func(string) (config.FieldType, bool)) (Filter, error) {
	field, value, ok := strings.Cut(s, ":")
	if !ok || field == "" {
		return Filter{}, Invalid("filters", "%q is not of the form field:value", s)
	}
	t, ok := typeOf(field)
	if !ok {
		return Filter{}, Invalid("filters", "field %q is not an indexed field", field)
	}
	f := Filter{Field: field, Value: value}
	switch t {
	case config.TypeNumber, config.TypeDate:
		lo, hi, err := parseRange(value, t)
		if err != nil {
			return Filter{}, Invalid("filters", "%q: %s", s, err.Error())
		}
		f.IsRange, f.Min, f.Max = true, lo, hi
	case config.TypeBoolean:
		switch strings.ToLower(value) {
		case "true", "false":
			f.Value = strings.ToLower(value)
		default:
			return Filter{}, Invalid("filters", "%q: %s is a boolean field, value must be true or false", s, field)
		}
	case config.TypeHierarchy:
		if value == "" {
			return Filter{}, Invalid("filters", "%q: empty hierarchy value", s)
		}
		if !strings.HasSuffix(value, "$") {
			f.Value = value + "$"
		}
	case config.TypeText:
		return Filter{}, Invalid("filters", "field %q is a text field and cannot be filtered on", field)
	}
	return f, nil
}

type rangeError string

func (e rangeError) Error() string { return string(e) }

func parseRange(v string, t config.FieldType) (lo, hi float64, err error) {
	lo, hi = math.Inf(-1), math.Inf(1)
	a, b, isRange := strings.Cut(v, ",")
	if !isRange {
		b = a
	}
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if a == "" && b == "" {
		return 0, 0, rangeError("range needs a minimum, a maximum or both")
	}
	if a != "" {
		if lo, err = parseBound(a, t); err != nil {
			return 0, 0, err
		}
	}
	if b != "" {
		if hi, err = parseBound(b, t); err != nil {
			return 0, 0, err
		}
	}
	if lo > hi {
		return 0, 0, rangeError("range minimum is above its maximum")
	}
	return lo, hi, nil
}

var dateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"}

func parseBound(s string, t config.FieldType) (float64, error) {
	if t == config.TypeDate {
		for _, l := range dateLayouts {
			if tm, err := time.Parse(l, s); err == nil {
				return float64(tm.Unix()), nil
			}
		}
		if v, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
			return v, nil
		}
		return 0, rangeError("date " + strconv.Quote(s) + " is not ISO 8601 (2024-05-01 or 2024-05-01T10:00:00Z) nor unix seconds")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, rangeError(strconv.Quote(s) + " is not a number")
	}
	return v, nil
}

// hierarchyValue is a category path as a hierarchy field's value, each
// name followed by '$' ("Garden$Tools$"); "" for no names.
func hierarchyValue(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, "$") + "$"
}

// fieldFilter is every filter of one field: their values are ORed. Range
// filters stay lazy: restrict checks a small set against the column
// instead of building the range's bitmap, which can hold most of the
// catalog.
type fieldFilter struct {
	field   string
	filters []Filter
	bm      *roaring.Bitmap // keyword values; nil while only ranges
	ranges  *index.NumericField
}

// lazyRangeShare: a set under 1/lazyRangeShare of the catalog is checked
// doc by doc against the column; a larger one gets the range's bitmap.
const lazyRangeShare = 8

// restrict narrows set, in place, to the docs this field's filters allow.
func (ff *fieldFilter) restrict(set *roaring.Bitmap, n int) {
	if ff.bm == nil && ff.ranges != nil && set.GetCardinality() < uint64(n/lazyRangeShare) {
		var checks [4]index.RangeCheck
		cs := checks[:0]
		for _, r := range ff.intervals() {
			cs = append(cs, ff.ranges.Check(r[0], r[1]))
		}
		keep := roaring.New()
		var buf, out [256]uint32
		it := set.ManyIterator()
		for {
			k := it.NextMany(buf[:])
			if k == 0 {
				break
			}
			m := 0
			for _, d := range buf[:k] {
				for i := range cs {
					if cs[i].Contains(d) {
						out[m] = d
						m++
						break
					}
				}
			}
			keep.AddMany(out[:m]) // ascending: roaring appends
		}
		set.And(keep)
		return
	}
	set.And(ff.bitmap())
}

// bitmap materialises the field's filters as one bitmap.
func (ff *fieldFilter) bitmap() *roaring.Bitmap {
	if ff.bm == nil {
		ff.bm = roaring.New()
		if ff.ranges != nil {
			for _, r := range ff.intervals() {
				ff.ranges.Range(r[0], r[1], ff.bm)
			}
		}
	}
	return ff.bm
}

// intervals are the field's ranges with those that overlap merged, in
// ascending order: however many ranges a request names, together they
// read each of the column's values at most once.
func (ff *fieldFilter) intervals() [][2]float64 {
	var out [][2]float64
	for _, f := range ff.filters {
		if f.IsRange && f.Min <= f.Max {
			out = append(out, [2]float64{f.Min, f.Max})
		}
	}
	slices.SortFunc(out, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	merged := out[:0]
	for _, r := range out {
		if k := len(merged) - 1; k >= 0 && r[0] <= merged[k][1] {
			merged[k][1] = max(merged[k][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// compileFilters parses filter strings and groups them by field.
func compileFilters(seg *index.Segment, fields map[string]config.IndexedField, strs []string) ([]fieldFilter, error) {
	typeOf := func(name string) (config.FieldType, bool) {
		f, ok := fields[name]
		return f.Type, ok
	}
	var out []fieldFilter
	var fold []byte
	for _, s := range strs {
		f, err := ParseFilter(s, typeOf)
		if err != nil {
			return nil, err
		}
		i := 0
		for i < len(out) && out[i].field != f.Field {
			i++
		}
		if i == len(out) {
			out = append(out, fieldFilter{field: f.Field})
		}
		ff := &out[i]
		ff.filters = append(ff.filters, f)
		if f.IsRange {
			ff.ranges = seg.Numeric(f.Field)
			if ff.ranges == nil {
				ff.bm = roaring.New() // no product has the field: nothing passes
			}
			continue
		}
		if ff.bm == nil {
			ff.bm = roaring.New()
		}
		if kf := seg.Keyword(f.Field); kf != nil {
			fold = analysis.Fold(fold[:0], f.Value)
			if id, ok := kf.Lookup(string(fold)); ok {
				ff.bm.Or(kf.Bitmaps[id])
			}
		}
	}
	return out, nil
}

// applyFilters narrows set by every filter but skip (-1 for none), the
// keyword ones first so lazy ranges see the smallest set.
func applyFilters(set *roaring.Bitmap, filters []fieldFilter, skip, n int) {
	for i := range filters {
		if i != skip && filters[i].ranges == nil {
			filters[i].restrict(set, n)
		}
	}
	for i := range filters {
		if i != skip && filters[i].ranges != nil {
			filters[i].restrict(set, n)
		}
	}
}

// sortSpec is a parsed sorting string.
type sortSpec struct {
	field string
	desc  bool
}

// ParseSorting parses `{field} {order}` with order asc or desc (asc when
// omitted).
func ParseSorting(s string) (field string, desc bool, err error) {
	parts := strings.Fields(s)
	switch {
	case len(parts) == 1:
		return parts[0], false, nil
	case len(parts) == 2 && strings.EqualFold(parts[1], "asc"):
		return parts[0], false, nil
	case len(parts) == 2 && strings.EqualFold(parts[1], "desc"):
		return parts[0], true, nil
	}
	return "", false, Invalid("sorting", "%q is not of the form \"field asc\" or \"field desc\"", s)
}

func compileSorting(fields map[string]config.IndexedField, strs []string) ([]sortSpec, error) {
	out := make([]sortSpec, 0, len(strs))
	for _, s := range strs {
		f, desc, err := ParseSorting(s)
		if err != nil {
			return nil, err
		}
		if fd, ok := fields[f]; !ok || !fd.Sortable {
			return nil, Invalid("sorting", "field %q is not an indexed sortable field", f)
		}
		out = append(out, sortSpec{field: f, desc: desc})
	}
	return out, nil
}
