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
// Values mean what they mean in a filter string of the field's type; an
// empty object allows every product. Groups nest up to maxFilterDepth
// deep, and a base filter holds at most MaxFilters values and
// maxFilterNodes nodes.
type baseFilter struct {
	any  bool         // kids: any of them, else all
	kids []baseFilter // a group's, two or more; nil for a condition
	// strs are a condition's filter strings, all of field: any of them.
	strs  []string
	field string
	key   string // the filter in a canonical form, for caching
}

// The bounds of a base filter against abuse: no shop's listing comes
// near them. maxFilterNodes counts each JSON value of the filter, every
// object, list, string, number, boolean and null, as one node (object
// keys are not values); 100 conditions of a value each under $or are
// 202.
const (
	maxFilterDepth = 32  // how deep groups nest
	maxFilterNodes = 500 // how many nodes a base filter holds
)

// allowsAll reports whether f allows every product: it names nothing,
// as an empty object does, or only groups that allow all.
func (f *baseFilter) allowsAll() bool { return f.strs == nil && len(f.kids) == 0 }

// tooManyNodes is the error of a base filter past maxFilterNodes.
func tooManyNodes(path string) error {
	return Invalid(path, "a base filter holds at most %d nodes (each object, list and value is one)", maxFilterNodes)
}

// filterNodes is how many nodes v holds, each object, list and value
// one, counted no further than just past limit.
func filterNodes(v any, limit int) int {
	n := 1
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			if n > limit {
				break
			}
			n += filterNodes(x, limit-n)
		}
	case []any:
		for _, x := range v {
			if n > limit {
				break
			}
			n += filterNodes(x, limit-n)
		}
	}
	return n
}

// jsonNodes is how many values JSON text b holds, each object, list,
// string, number, true, false and null one (an object's keys are not
// values), counted no further than just past limit, in one pass that
// allocates nothing. b need not be valid JSON: what is counted of
// invalid text bounds the work done on it, and the decoder judges it.
func jsonNodes(b []byte, limit int) int {
	n := 0
	for i := 0; i < len(b) && n <= limit; i++ {
		switch b[i] {
		case '{', '[':
			n++
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			j := i + 1
			for j < len(b) && isJSONSpace(b[j]) {
				j++
			}
			if j == len(b) || b[j] != ':' { // a value, not a key
				n++
			}
		case '}', ']', ',', ':', ' ', '\t', '\n', '\r':
		default: // a number, true, false or null: to its end
			n++
			for i+1 < len(b) && !isJSONDelimiter(b[i+1]) {
				i++
			}
		}
	}
	return n
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isJSONDelimiter(c byte) bool {
	return isJSONSpace(c) || c == ',' || c == ':' || c == '{' || c == '}' || c == '[' || c == ']' || c == '"'
}

// parseBaseFilter reads a base filter object; errors name the member
// under path ("params.filters"). Its nodes are counted before anything
// else is read of it.
func parseBaseFilter(obj map[string]any, fields map[string]config.IndexedField, path string) (baseFilter, error) {
	if filterNodes(obj, maxFilterNodes) > maxFilterNodes {
		return baseFilter{}, tooManyNodes(path)
	}
	values := 0
	return parseFilterObject(obj, fields, path, 0, &values)
}

// parseFilterObject reads an object of conditions and groups: all of
// them. Entries that allow all are left out: an object of none allows
// all, one of one is that one.
func parseFilterObject(obj map[string]any, fields map[string]config.IndexedField, path string, depth int, values *int) (baseFilter, error) {
	if depth > maxFilterDepth {
		return baseFilter{}, Invalid(path, "groups nest at most %d deep", maxFilterDepth)
	}
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names) // a canonical order, for the cache key
	var kids []baseFilter
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
		kids = append(kids, kid)
	}
	return group(false, kids), nil
}

// group is a group of kids, any or all of them, as the fewest nodes: a
// group of all that allow all, or of any where one does, allows all; a
// kid that allows all is left out of a group of all; conditions of one
// field in a group of any are one condition (so their ranges merge, and
// a hundred of them cost what one does); a group of one is that one.
func group(anyOf bool, kids []baseFilter) baseFilter {
	out := baseFilter{any: anyOf}
	for _, k := range kids {
		switch {
		case anyOf && k.allowsAll():
			return baseFilter{}
		case k.allowsAll():
		case anyOf && k.strs != nil:
			i := slices.IndexFunc(out.kids, func(o baseFilter) bool { return o.strs != nil && o.field == k.field })
			if i < 0 {
				out.kids = append(out.kids, k)
				continue
			}
			c := &out.kids[i]
			c.strs = append(slices.Clip(c.strs), k.strs...)
			c.key = strings.Join(c.strs, "\x00")
		default:
			out.kids = append(out.kids, k)
		}
	}
	switch len(out.kids) {
	case 0:
		return baseFilter{}
	case 1:
		return out.kids[0]
	}
	op := "&"
	if anyOf {
		op = "|"
	}
	out.key = groupKey(op, out.kids)
	return out
}

// parseFilterGroup reads a group's list of objects: any or all of them.
func parseFilterGroup(v any, anyOf bool, fields map[string]config.IndexedField, path string, depth int, values *int) (baseFilter, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return baseFilter{}, Invalid(path, "must be a list of at least one object")
	}
	kids := make([]baseFilter, 0, len(list))
	for i, item := range list {
		obj, ok := item.(map[string]any)
		if !ok {
			return baseFilter{}, Invalid(fmt.Sprintf("%s[%d]", path, i), "must be an object of conditions")
		}
		kid, err := parseFilterObject(obj, fields, fmt.Sprintf("%s[%d]", path, i), depth+1, values)
		if err != nil {
			return baseFilter{}, err
		}
		kids = append(kids, kid)
	}
	return group(anyOf, kids), nil
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
	out := baseFilter{field: field}
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

// baseDocs are the products f allows on g's products, read only: the
// segment's set of all products itself when f allows all, so a filter
// that names nothing costs nothing, and no node copies that set.
func (g *Generation) baseDocs(f *baseFilter) (*roaring.Bitmap, error) {
	seg := g.Products
	if f.allowsAll() {
		return seg.All(), nil
	}
	if f.strs != nil {
		ffs, err := compileFilters(seg, g.fields, f.strs)
		if err != nil {
			return nil, err
		}
		out := seg.All()
		for i := range ffs {
			out = roaring.And(out, ffs[i].bitmap())
		}
		return out, nil
	}
	sets := make([]*roaring.Bitmap, len(f.kids))
	for i := range f.kids {
		d, err := g.baseDocs(&f.kids[i])
		if err != nil {
			return nil, err
		}
		sets[i] = d
	}
	if f.any {
		return roaring.FastOr(sets...), nil
	}
	return roaring.FastAnd(sets...), nil
}
