package gqltype

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/config"
)

// TestDecodeErrorsNamePaths: an input value Decode refuses is a
// *DecodeError whose Path is the GraphQL path of the bad member and whose
// Message says what is wrong, and the destination is left as it was.
func TestDecodeErrorsNamePaths(t *testing.T) {
	r := NewConfigRegistry()
	facets := func(f ...any) map[string]any { return map[string]any{"facets": f} }
	for _, tc := range []struct {
		name      string
		arg       any
		path, msg string
	}{
		{"a string for an Int", map[string]any{"id": "1"}, "input.id", "want an integer, got a string"},
		{"a fraction for an Int", map[string]any{"id": 1.5}, "input.id", "want an integer, got 1.5"},
		{"an Int past 32 bits", map[string]any{"maxFacetValues": 3e9}, "input.maxFacetValues", "3e+09 is out of range of Int (32 bits)"},
		{"a Go int past 32 bits", map[string]any{"id": 1 << 40}, "input.id", "1099511627776 is out of range of Int (32 bits)"},
		{"a number for a String", facets(map[string]any{"field": 7.0}), "input.facets[0].field", "want a string, got a number"},
		{"a string for a Boolean", map[string]any{"typedTypos": "yes"}, "input.typedTypos", "want a boolean, got a string"},
		{"a string for a Float", map[string]any{"k1": "1.2"}, "input.k1", "want a number, got a string"},
		{"an object for a list", map[string]any{"facets": map[string]any{}}, "input.facets", "want a list, got an object"},
		{"a list for an object", map[string]any{"initialContent": []any{}}, "input.initialContent", "want an object (InitialContentInput), got a list"},
		{"a null list element", facets(map[string]any{"field": "brand"}, nil), "input.facets[1]", "a list element may not be null"},
		{"an unknown member", facets(map[string]any{"field": "brand", "colour": "red"}), "input.facets[0].colour",
			"not a member of FacetInput (field, type, title, filteringText, negatedFilteringText)"},
		{"a JSON name where GraphQL renames it", map[string]any{"searchConfigs": []any{}}, "input.searchConfigs", "not a member of"},
		{"a bad enum", facets(map[string]any{"type": "TREE"}), "input.facets[0].type", `"TREE" is not a FacetType: want one of BOOLEAN, LIST, RANGE`},
		{"an entry key twice", map[string]any{"devices": []any{
			map[string]any{"key": "MOBILE", "value": map[string]any{}},
			map[string]any{"key": "MOBILE", "value": map[string]any{}}}}, "input.devices[1].key", `"MOBILE" is given twice`},
		{"an entry without a key", map[string]any{"devices": []any{map[string]any{"value": map[string]any{}}}}, "input.devices[0].key", "is required"},
		{"an entry without a value", map[string]any{"devices": []any{map[string]any{"key": "MOBILE"}}}, "input.devices[0].value", "is required"},
		{"an entry's unknown member", map[string]any{"devices": []any{map[string]any{"key": "MOBILE", "value": map[string]any{}, "device": "x"}}},
			"input.devices[0].device", "not a member of DeviceEntryInput (key, value)"},
		{"a bad member inside an entry", map[string]any{"devices": []any{map[string]any{"key": "MOBILE", "value": map[string]any{"maxFacetValues": true}}}},
			"input.devices[0].value.maxFacetValues", "want an integer, got a boolean"},
		{"a bad member after good ones", map[string]any{"id": 5.0, "k1": 2.0, "status": 1.0}, "input.status", "want a string, got a number"},
		{"not an object", "version", "input", "want an object (SearchConfigurationVersionInput), got a string"},
		{"a long string quoted short", facets(map[string]any{"type": strings.Repeat("é", 100)}), "input.facets[0].type", `"` + strings.Repeat("é", 32) + `"... is not a FacetType`},
	} {
		before := config.SearchVersion{ID: 9, Status: "draft"}
		v := before
		err := r.Decode(tc.arg, &v, "input")
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: error %v, want a *DecodeError", tc.name, err)
			continue
		}
		if de.Path != tc.path || !strings.HasPrefix(de.Message, tc.msg) {
			t.Errorf("%s: path %q message %q, want path %q message starting %q", tc.name, de.Path, de.Message, tc.path, tc.msg)
		}
		if !reflect.DeepEqual(v, before) {
			t.Errorf("%s: the destination changed to %+v", tc.name, v)
		}
	}
}

// TestDecodeErrorsInCampaignsAndFilters: the members of other types than
// a version: a time not in RFC 3339, a filter value that is no JSON.
func TestDecodeErrorsInCampaignsAndFilters(t *testing.T) {
	r := NewConfigRegistry()
	for _, tc := range []struct {
		name      string
		arg       any
		path, msg string
	}{
		{"a date without a time", map[string]any{"campaigns": []any{map[string]any{"start": "2026-03-01"}}},
			"site.campaigns[0].start", `"2026-03-01" is not a time in RFC 3339`},
		{"filters that are a list", map[string]any{"recommendationBoxes": []any{map[string]any{"sources": []any{map[string]any{"filters": []any{}}}}}},
			"site.recommendationBoxes[0].sources[0].filters", "want an object, got a list"},
		{"a Go value in filters", map[string]any{"pages": []any{map[string]any{"versions": []any{map[string]any{"filters": map[string]any{"a": []any{struct{}{}}}}}}}},
			"site.pages[0].versions[0].filters.a[0]", "want a JSON value, got a Go struct {}"},
	} {
		var w config.Website
		err := r.Decode(tc.arg, &w, "site")
		var de *DecodeError
		if !errors.As(err, &de) || de.Path != tc.path || !strings.HasPrefix(de.Message, tc.msg) {
			t.Errorf("%s: error %v, want %s: %s...", tc.name, err, tc.path, tc.msg)
		}
	}
}

// TestDecodeAccepts: what Decode takes beside graphql-go's coerced
// values: JSON's numbers for Ints, an enum's GraphQL name, Go integers
// in JSON members (made float64, as JSON reads them); and an empty list,
// entry list or object as nil, as the configuration's JSON reads back a
// member it left out.
func TestDecodeAccepts(t *testing.T) {
	r := NewConfigRegistry()
	var v config.SearchVersion
	err := r.Decode(map[string]any{
		"id": 3.0, "maxFacetValues": int64(7), "k1": 2, "facets": []any{map[string]any{"type": "LIST"}, map[string]any{"type": "RANGE", "title": nil}},
		"synonyms": []any{}, "devices": []any{}, "initialContent": map[string]any{},
	}, &v, "input")
	want := config.SearchVersion{ID: 3, MaxFacetValues: 7, K1: new(2.0),
		Facets: []config.Facet{{Type: config.FacetList}, {Type: config.FacetRange}}, InitialContent: &config.InitialContent{}}
	if err != nil || !reflect.DeepEqual(v, want) {
		t.Errorf("Decode: %+v, %v; want %+v", v, err, want)
	}
	var f config.FieldType
	if err := r.Decode("KEYWORD", &f, "type"); err != nil || f != config.TypeKeyword {
		t.Errorf("the GraphQL name KEYWORD: %q, %v", f, err)
	}
	var p config.PageVersion
	if err := r.Decode(map[string]any{"filters": map[string]any{"n": []any{1, int64(2), float32(0.5), nil, map[string]any{}}}}, &p, "input"); err != nil ||
		!reflect.DeepEqual(p.Filters, map[string]any{"n": []any{1.0, 2.0, 0.5, nil, map[string]any{}}}) {
		t.Errorf("filters: %#v, %v", p.Filters, err)
	}
	if err := r.Decode(map[string]any{"filters": map[string]any{}}, &p, "input"); err != nil || p.Filters != nil {
		t.Errorf("empty filters: %#v, %v", p.Filters, err)
	}
}

// TestDecodeRefusesAnUnmappedDestination: a destination that is not a
// pointer, or of a type with no mapping, is an error wrapping
// errors.ErrUnsupported, not a panic.
func TestDecodeRefusesAnUnmappedDestination(t *testing.T) {
	r := NewRegistry()
	var ch struct{ C chan int }
	for _, dst := range []any{config.Facet{}, (*config.Facet)(nil), nil, &ch} {
		if err := r.Decode(map[string]any{}, dst, "input"); !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("Decode into %T: %v, want errors.ErrUnsupported", dst, err)
		}
	}
}
