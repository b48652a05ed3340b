package engine

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/aisle-search/aisle/config"
)

// A base filter (a page's, and a page request's params.filters) is an
// object whose entries a product meets all of (docs/decisions.md, Pages):
//
//	{"brand": "Acme"}                    the value, as the filter string brand:Acme
//	{"brand": ["Acme", "Zeta"]}          any of the values ({"$in": [...]} too)
//	{"price": {"$gte": 10, "$lte": 40}}  a range, inclusive, either end optional
//	{"hierarchies": "Garden$Tools$"}     a category and everything below it
//	{"$or": [{...}, {...}]}              any of the objects
//	{"$and": [{...}, {...}]}             all of the objects, as the root's entries
//
// Values mean what they mean in a filter string of the field's type.
// Groups nest up to maxFilterDepth deep, and a base filter holds at most
// MaxFilters values.
type baseFilter struct {
	any  bool         // kids: any of them, else all
	kids []baseFilter // a group's; nil for a condition
	// strs are a condition's filter strings, all of one field: any of
	// them.
	strs []string
	key  string // the filter in a canonical form, for caching
}

// maxFilterDepth bounds how deep groups nest.
const maxFilterDepth = 32

// parseBaseFilter reads a base filter object; errors name the member
// under path ("params.filters").
func parseBaseFilter(obj map[string]any, fields map[string]config.IndexedField, path string) (baseFilter, error) {
	values := 0
	return parseFilterObject(obj, fields, path, 0, &values)
}

func parseFilterObject(obj map[string]any, fields map[string]config.IndexedField, path string, depth int, values *int) (baseFilter, error) {
	if depth > maxFilterDepth {
		return baseFilter{}, Invalid(path, "groups nest at most %d deep", maxFilterDepth)
	}
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names) // a canonical order, for the cache key
	out := baseFilter{}
	for _, name := range names {
		at := path + "." + name
		var kid baseFilter
		var err error
		switch name {
		case "$or", "$and":
			kid, err = parseFilterGroup(obj[name], name == "$or", fields, at, depth, values)
		default:
			if strings.HasPrefix(name, "$") {
				return baseFilter{}, Invalid(at, "unknown operator %s: a group is $or or $and, a field is named plainly", name)
			}
			kid, err = parseCondition(name, obj[name], fields, at, values)
		}
		if err != nil {
			return baseFilter{}, err
		}
		out.kids = append(out.kids, kid)
	}
	if len(out.kids) == 1 {
		return out.kids[0], nil
	}
	out.key = groupKey("&", out.kids)
	return out, nil
}

func parseFilterGroup(v any, anyOf bool, fields map[string]config.IndexedField, path string, depth int, values *int) (baseFilter, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return baseFilter{}, Invalid(path, "must be a list of at least one object")
	}
	out := baseFilter{any: anyOf}
	for i, item := range list {
		obj, ok := item.(map[string]any)
		if !ok {
			return baseFilter{}, Invalid(fmt.Sprintf("%s[%d]", path, i), "must be an object of conditions")
		}
		kid, err := parseFilterObject(obj, fields, fmt.Sprintf("%s[%d]", path, i), depth+1, values)
		if err != nil {
			return baseFilter{}, err
		}
		out.kids = append(out.kids, kid)
	}
	op := "&"
	if anyOf {
		op = "|"
	}
	out.key = groupKey(op, out.kids)
	return out, nil
}

func groupKey(op string, kids []baseFilter) string {
	keys := make([]string, len(kids))
	for i := range kids {
		keys[i] = kids[i].key
	}
	return op + "(" + strings.Join(keys, "\x00") + ")"
}

// parseCondition reads one field's condition: a value, a list of
// values, or an object of operators.
func parseCondition(field string, v any, fields map[string]config.IndexedField, path string, values *int) (baseFilter, error) {
	f, ok := fields[field]
	if !ok {
		return baseFilter{}, Invalid(path, "field %q is not an indexed field", field)
	}
	var vals []string
	switch v := v.(type) {
	case []any:
		for i, x := range v {
			s, err := scalarValue(x, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return baseFilter{}, err
			}
			vals = append(vals, s)
		}
		if len(vals) == 0 {
			return baseFilter{}, Invalid(path, "an empty list allows no product: give at least one value")
		}
	case map[string]any:
		var err error
		if vals, err = operatorValues(f, v, path); err != nil {
			return baseFilter{}, err
		}
	default:
		s, err := scalarValue(v, path)
		if err != nil {
			return baseFilter{}, err
		}
		vals = []string{s}
	}
	if *values += len(vals); *values > MaxFilters {
		return baseFilter{}, Invalid(path, "a base filter holds at most %d values", MaxFilters)
	}
	out := baseFilter{}
	typeOf := func(name string) (config.FieldType, bool) { return f.Type, name == field }
	for _, val := range vals {
		s := field + ":" + val
		if _, err := ParseFilter(s, typeOf); err != nil {
			return baseFilter{}, Invalid(path, "%s", AsError(err).Message)
		}
		out.strs = append(out.strs, s)
	}
	out.key = strings.Join(out.strs, "\x00")
	return out, nil
}

// operatorValues reads {"$gte": a, "$lte": b}, {"$in": [...]} or
// {"$eq": v} as filter string values.
func operatorValues(f config.IndexedField, ops map[string]any, path string) ([]string, error) {
	var lo, hi string
	var vals []string
	for op, v := range ops {
		at := path + "." + op
		switch op {
		case "$gte", "$lte":
			if f.Type != config.TypeNumber && f.Type != config.TypeDate {
				return nil, Invalid(at, "%s is a %s field: ranges are for number and date fields", f.Name, f.Type)
			}
			s, err := scalarValue(v, at)
			if err != nil {
				return nil, err
			}
			if op == "$gte" {
				lo = s
			} else {
				hi = s
			}
		case "$eq":
			s, err := scalarValue(v, at)
			if err != nil {
				return nil, err
			}
			vals = append(vals, s)
		case "$in":
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return nil, Invalid(at, "must be a list of at least one value")
			}
			for i, x := range list {
				s, err := scalarValue(x, fmt.Sprintf("%s[%d]", at, i))
				if err != nil {
					return nil, err
				}
				vals = append(vals, s)
			}
		default:
			return nil, Invalid(at, "unknown operator: want $gte, $lte, $in or $eq")
		}
	}
	if lo != "" || hi != "" {
		if len(vals) > 0 {
			return nil, Invalid(path, "give a range ($gte, $lte) or values ($in, $eq), not both")
		}
		return []string{lo + "," + hi}, nil
	}
	if len(vals) == 0 {
		return nil, Invalid(path, "an empty object allows no product: give $gte, $lte, $in or $eq")
	}
	slices.Sort(vals)
	return vals, nil
}

// scalarValue is a JSON string, number or boolean as filter string text.
func scalarValue(v any, path string) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "", Invalid(path, "not a finite number")
		}
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case int:
		return strconv.Itoa(v), nil // a configuration built in Go
	case int64:
		return strconv.FormatInt(v, 10), nil
	case bool:
		return strconv.FormatBool(v), nil
	case nil:
		return "", Invalid(path, "null is not a value: give a string, number or boolean")
	default:
		return "", Invalid(path, "must be a string, number or boolean")
	}
}

// baseDocs are the products f allows on g's products: a new bitmap.
func (g *Generation) baseDocs(f *baseFilter) (*roaring.Bitmap, error) {
	seg := g.Products
	if f.strs != nil {
		ffs, err := compileFilters(seg, g.fields, f.strs)
		if err != nil {
			return nil, err
		}
		bm := seg.All().Clone()
		applyFilters(bm, ffs, -1, seg.Slots())
		return bm, nil
	}
	if len(f.kids) == 0 {
		return seg.All().Clone(), nil
	}
	var out *roaring.Bitmap
	for i := range f.kids {
		d, err := g.baseDocs(&f.kids[i])
		if err != nil {
			return nil, err
		}
		switch {
		case out == nil:
			out = d
		case f.any:
			out.Or(d)
		default:
			out.And(d)
		}
	}
	return out, nil
}
