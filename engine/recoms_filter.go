package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
)

// Source filters (docs/decisions.md, Recommendations): an object of
// indexed field name to a condition, every one to hold:
//
//	"brand": "Makita"                      equals (as $eq)
//	"brand": {"$eq": "Makita"}             equals
//	"brand": {"$in": ["Makita", "Bosch"]}  any of them
//	"tags": {"$all": ["a", "b"]}           all of them (list fields)
//	"brand": "$context.brand"              the request context's member
//
// A value "$context.KEY" is the context's member KEY: a string, or a
// list whose every value is taken (as $in, or $all under $all); a
// hierarchy path given as a list of names is one value. Values compare
// as search filters do (`field:value`: numbers and dates as a single
// value or a "min,max" range, booleans true or false, hierarchy paths
// from the top). Unless a filter names inStock, products out of stock
// are left out.

// contextRef prefixes a value taken from the request's context.
const contextRef = "$context."

// sourceFilter is the docs a source may answer under filters, with the
// request's context; nil when nothing restricts them. Its filters hold
// at most MaxFilters values, a context list counting each of its.
func (c *recomCall) sourceFilter(filters map[string]any, ctx map[string]any) (*roaring.Bitmap, error) {
	var allowed *roaring.Bitmap // read only until owned
	owned := false
	and := func(bm *roaring.Bitmap) {
		switch {
		case allowed == nil:
			allowed = bm
		case !owned:
			allowed, owned = roaring.And(allowed, bm), true
		default:
			allowed.And(bm)
		}
	}
	names := make([]string, 0, len(filters))
	for f := range filters {
		names = append(names, f)
	}
	sort.Strings(names) // errors in a stable order
	n := 0
	for _, field := range names {
		op, values, err := filterCondition(field, filters[field], ctx)
		if err != nil {
			return nil, err
		}
		if n += len(values); n > MaxFilters {
			return nil, fmt.Errorf("filters.%s: a source's filters hold at most %d values, with the context's", field, MaxFilters)
		}
		bm, err := c.filterDocs(field, op, values)
		if err != nil {
			return nil, err
		}
		and(bm)
	}
	if _, named := filters["inStock"]; !named {
		if _, indexed := c.g.fields["inStock"]; indexed {
			if c.inStock == nil {
				bm, err := c.filterDocs("inStock", "$eq", []string{"true"})
				if err != nil {
					return nil, err
				}
				c.inStock = bm
			}
			and(c.inStock)
		}
	}
	return allowed, nil
}

// filterCondition reads one field's condition: its operator and values.
func filterCondition(field string, cond any, ctx map[string]any) (op string, values []string, err error) {
	op, v := "$eq", cond
	if obj, ok := cond.(map[string]any); ok {
		if len(obj) != 1 {
			return "", nil, fmt.Errorf("filters.%s: want one operator of $eq, $in and $all", field)
		}
		for k, x := range obj {
			op, v = k, x
		}
	}
	switch op {
	case "$eq":
		if _, isList := v.([]any); isList {
			return "", nil, fmt.Errorf("filters.%s: $eq takes one value; $in or $all take a list", field)
		}
		values, err = filterValues(field, v, ctx)
		if err == nil && len(values) > 1 {
			op = "$in" // a context list: any of its values
		}
	case "$in", "$all":
		list, isList := v.([]any)
		ref, isRef := v.(string)
		switch {
		case isList:
			for _, x := range list {
				vs, err := filterValues(field, x, ctx)
				if err != nil {
					return "", nil, err
				}
				values = append(values, vs...)
			}
		case isRef && strings.HasPrefix(ref, contextRef):
			values, err = filterValues(field, ref, ctx)
		default:
			return "", nil, fmt.Errorf("filters.%s: %s takes a list", field, op)
		}
	default:
		return "", nil, fmt.Errorf("filters.%s: unknown operator %q: want $eq, $in or $all", field, op)
	}
	return op, values, err
}

// filterValues is one condition value as filter values: a string,
// number or boolean, a context reference's values, or, as a member of a
// $in or $all list, a category path written as its names
// (["Garden", "Tools"], the hierarchy value "Garden$Tools$", as real
// clients of the service the spec describes write it). $eq's list stays
// refused before this is called: ["Garden", "Tools"] there could mean
// either.
func filterValues(field string, v any, ctx map[string]any) ([]string, error) {
	switch x := v.(type) {
	case string:
		key, ok := strings.CutPrefix(x, contextRef)
		if !ok {
			return []string{x}, nil
		}
		vals := contextValues(ctx[key])
		if len(vals) == 0 {
			return nil, fmt.Errorf("filters.%s: %q refers to context.%s, which the request does not give", field, x, key)
		}
		return vals, nil
	case float64:
		return []string{strconv.FormatFloat(x, 'f', -1, 64)}, nil
	case bool:
		return []string{strconv.FormatBool(x)}, nil
	case []any: // in a $in or $all list: a category path as its names
		names := make([]string, len(x))
		for i, name := range x {
			s, ok := name.(string)
			if !ok || s == "" {
				return nil, fmt.Errorf("filters.%s: a category path is a list of names, got %v", field, x)
			}
			names[i] = s
		}
		if len(names) > 0 {
			return []string{hierarchyValue(names)}, nil
		}
	}
	return nil, fmt.Errorf("filters.%s: a value must be a string, a number, a boolean or (in a list) a category path's names", field)
}

// contextValues is a context member as filter values: a string, a
// number, a list of them, or a list of lists of names (hierarchy paths,
// each one value "A$B$").
func contextValues(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case float64:
		return []string{strconv.FormatFloat(x, 'f', -1, 64)}
	case bool:
		return []string{strconv.FormatBool(x)}
	case []any:
		var out []string
		for _, e := range x {
			if path, ok := e.([]any); ok {
				names := make([]string, len(path))
				for i, name := range path {
					names[i], _ = name.(string)
				}
				out = append(out, hierarchyValue(names))
				continue
			}
			out = append(out, contextValues(e)...)
		}
		return out
	}
	return nil
}

// filterDocs is the docs whose field matches values under op.
func (c *recomCall) filterDocs(field, op string, values []string) (*roaring.Bitmap, error) {
	key := field + "\x00" + op + "\x00" + strings.Join(values, "\x00")
	if bm, ok := c.g.filters.get(key); ok {
		return bm, nil
	}
	bm, err := c.computeFilterDocs(field, op, values)
	if err == nil {
		c.g.filters.put(key, bm)
	}
	return bm, err
}

// computeFilterDocs is filterDocs without the generation's cache.
func (c *recomCall) computeFilterDocs(field, op string, values []string) (*roaring.Bitmap, error) {
	seg := c.g.Products
	var out *roaring.Bitmap
	for _, v := range values {
		ffs, err := compileFilters(seg, c.g.fields, []string{field + ":" + v})
		if err != nil {
			return nil, fmt.Errorf("filters.%s: %s", field, AsError(err).Message)
		}
		bm := seg.All().Clone()
		applyFilters(bm, ffs, -1, seg.Slots())
		switch {
		case out == nil:
			out = bm
		case op == "$all":
			out.And(bm)
		default:
			out.Or(bm)
		}
	}
	if out == nil {
		out = roaring.New()
	}
	return out, nil
}
