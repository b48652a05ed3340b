package gqltype

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/expect"
)

// FuzzDecode: any JSON document, decoded by encoding/json, decodes into a
// config.SearchVersion without a panic: refused with a *DecodeError whose
// path starts at the argument, or accepted as a version that, written
// back as an input value by the same rules (argOf), decodes to itself.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"id":1,"status":"live","fields":[{"name":"title","weight":5}]}`))
	f.Add([]byte(`{"devices":[{"key":"MOBILE","value":{"facets":[{"field":"brand","type":"LIST"}]}}]}`))
	f.Add([]byte(`{"facets":[{"type":"KEYWORD"}]}`))
	f.Add([]byte(`[]`))
	r := NewConfigRegistry()
	s := r.mustShape(reflect.TypeFor[config.SearchVersion]())
	f.Fuzz(func(t *testing.T, data []byte) {
		var arg any
		if json.Unmarshal(data, &arg) != nil {
			return
		}
		var v config.SearchVersion
		err := r.Decode(arg, &v, "input")
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || !strings.HasPrefix(de.Path, "input") || de.Message == "" {
				t.Fatalf("error %v: want a *DecodeError with a path from input", err)
			}
			return
		}
		var again config.SearchVersion
		if err := r.Decode(argOf(s, reflect.ValueOf(v)), &again, "input"); err != nil {
			t.Fatalf("the accepted version written back is refused: %v", err)
		}
		if !expect.SameAfterJSON(v, again) {
			t.Fatalf("decoded %+v, written back and decoded %+v", v, again)
		}
	})
}

// TestArgOf: argOf writes a version as graphql-go coerces an input value.
func TestArgOf(t *testing.T) {
	r := NewConfigRegistry()
	when := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	got := argOf(r.mustShape(reflect.TypeFor[config.Campaign]()), reflect.ValueOf(config.Campaign{ID: "c", Start: &when, Positions: []int{1}}))
	want := map[string]any{"id": "c", "name": "", "state": "", "start": "2026-03-01T00:00:00Z", "products": []any{},
		"placements": []any{}, "devices": []any{}, "target": map[string]any{"queries": []any{}, "hierarchies": []any{}, "brands": []any{}},
		"positions": []any{1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("argOf: %#v", got)
	}
}

// argOf is v as an input value of shape s, as graphql-go hands it to a
// resolver: enums as their Go values, Ints as int, maps as key-ordered
// entries, times in RFC 3339, nil pointers and empty enums left out.
func argOf(s *shape, v reflect.Value) any {
	switch s.kind {
	case kindString:
		return v.String()
	case kindEnum:
		if v.String() == "" {
			return nil // not a value of the enum: what an absent member decodes to
		}
		return v.String()
	case kindBool:
		return v.Bool()
	case kindInt:
		return int(v.Int())
	case kindFloat:
		return v.Float()
	case kindTime:
		return v.Interface().(time.Time).Format(time.RFC3339Nano)
	case kindJSON, kindJSONObject:
		return v.Interface()
	case kindPointer:
		if v.IsNil() {
			return nil
		}
		return argOf(s.elem, v.Elem())
	case kindList:
		out := []any{}
		for i := range v.Len() {
			out = append(out, argOf(s.elem, v.Index(i)))
		}
		return out
	case kindEntries:
		out := []any{}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			out = append(out, map[string]any{"key": k.String(), "value": argOf(s.elem, v.MapIndex(k))})
		}
		return out
	}
	m := map[string]any{}
	for _, f := range s.fields {
		if a := argOf(f.shape, v.Field(f.index)); a != nil {
			m[f.name] = a
		}
	}
	return m
}
