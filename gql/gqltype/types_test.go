package gqltype

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphql-go/graphql"
)

type level string

type item struct {
	ID int16 `json:"id"`
}

// sample holds every kind the mapping covers; it has no doc comments in
// descriptions_gen.go, so its descriptions come from names.
type sample struct {
	Name    string          `json:"name"`
	Count   int32           `json:"count,omitempty"`
	Ratio   *float64        `json:"ratio"`
	Small   float32         `json:"small,omitzero"`
	On      bool            `json:"on"`
	Level   level           `json:"level"`
	Levels  []level         `json:"levels"`
	Tags    []string        `json:"tags"`
	Items   []item          `json:"items"`
	Ptrs    []*item         `json:"ptrs"`
	ByKey   map[string]item `json:"byKey"`
	Counts  map[string]int  `json:"counts"`
	Extra   map[string]any  `json:"extra"`
	Any     any             `json:"any"`
	When    time.Time       `json:"when"`
	Until   *time.Time      `json:"until"`
	Next    *sample         `json:"next"`
	Skipped string          `json:"-"`
	NoTag   bool
	Renamed string `json:"renamed"`
	//lint:ignore U1000 unexported on purpose: the mapping leaves it out
	hidden   string
	Children map[string][]int `json:"children"`
}

func sampleRegistry() *Registry {
	r := NewRegistry()
	r.Enum(reflect.TypeFor[level](), "Level", "How high.", map[string]string{"low": "Low.", "veryHigh": "Very high.", "MID": ""})
	r.RenameField(reflect.TypeFor[sample](), "Renamed", "alias")
	return r
}

// TestMappingRules: each Go kind's GraphQL type on output and on input,
// by the package's rules: names from json tags (RenameField's first),
// non-pointers non-null on output and nullable on input, [T!]! lists,
// entries for maps, JSON for interface{} and map[string]any, String for
// times, and the enum registered.
func TestMappingRules(t *testing.T) {
	r := sampleRegistry()
	out := r.Output(reflect.TypeFor[sample]())
	in := r.Input(reflect.TypeFor[sample]())
	if out.String() != "sample!" || in.String() != "sampleInput" {
		t.Fatalf("sample: output %s input %s", out, in)
	}
	if got := r.Output(reflect.TypeFor[*sample]()).String(); got != "sample" {
		t.Errorf("*sample: output %s, want sample", got)
	}
	if got := r.Output(reflect.TypeFor[[]sample]()).String(); got != "[sample!]!" {
		t.Errorf("[]sample: output %s", got)
	}
	obj := graphql.GetNamed(out).(*graphql.Object)
	inObj := in.(*graphql.InputObject)
	for _, tc := range []struct{ field, out, in string }{
		{"name", "String!", "String"},
		{"count", "Int!", "Int"},
		{"ratio", "Float", "Float"},
		{"small", "Float!", "Float"},
		{"on", "Boolean!", "Boolean"},
		{"level", "Level!", "Level"},
		{"levels", "[Level!]!", "[Level!]"},
		{"tags", "[String!]!", "[String!]"},
		{"items", "[item!]!", "[itemInput!]"},
		{"ptrs", "[item]!", "[itemInput]"},
		{"byKey", "[itemEntry!]!", "[itemEntryInput!]"},
		{"counts", "[IntEntry!]!", "[IntEntryInput!]"},
		{"children", "[IntListEntry!]!", "[IntListEntryInput!]"},
		{"extra", "JSON!", "JSON"},
		{"any", "JSON", "JSON"},
		{"when", "String!", "String"},
		{"until", "String", "String"},
		{"next", "sample", "sampleInput"},
		{"NoTag", "Boolean!", "Boolean"},
		{"alias", "String!", "String"},
	} {
		f, ok := obj.Fields()[tc.field]
		fi, ok2 := inObj.Fields()[tc.field]
		if !ok || !ok2 {
			t.Errorf("%s: missing (output %v, input %v)", tc.field, ok, ok2)
			continue
		}
		if f.Type.String() != tc.out || fi.Type.String() != tc.in {
			t.Errorf("%s: output %s input %s, want %s and %s", tc.field, f.Type, fi.Type, tc.out, tc.in)
		}
	}
	if n, want := len(obj.Fields()), 20; n != want || len(inObj.Fields()) != want {
		t.Errorf("%d output and %d input fields, want %d: Skipped, hidden and Renamed's JSON name left out", n, len(inObj.Fields()), want)
	}
	entry := graphql.GetNamed(obj.Fields()["byKey"].Type).(*graphql.Object)
	if k, v := entry.Fields()["key"].Type.String(), entry.Fields()["value"].Type.String(); k != "String!" || v != "item!" {
		t.Errorf("itemEntry: key %s value %s", k, v)
	}
	entryIn := graphql.GetNamed(inObj.Fields()["byKey"].Type).(*graphql.InputObject)
	if k, v := entryIn.Fields()["key"].Type.String(), entryIn.Fields()["value"].Type.String(); k != "String!" || v != "itemInput!" {
		t.Errorf("itemEntryInput: key %s value %s", k, v)
	}
}

// TestFallbackDescriptions: a type, field or enum value with no doc
// comment is described from its name, and listed by Undocumented.
func TestFallbackDescriptions(t *testing.T) {
	r := sampleRegistry()
	obj := graphql.GetNamed(r.Output(reflect.TypeFor[sample]())).(*graphql.Object)
	if d := obj.Description(); d != "A sample." {
		t.Errorf("sample: %q", d)
	}
	if d := obj.Fields()["byKey"].Description; d != "The by key of this sample." {
		t.Errorf("sample.byKey: %q", d)
	}
	u := r.Undocumented()
	for _, key := range []string{"gqltype.sample", "gqltype.sample.ByKey", "gqltype.item.ID", "gqltype.level=MID"} {
		if !slices.Contains(u, key) {
			t.Errorf("Undocumented %v lacks %s", u, key)
		}
	}
	if slices.Contains(u, "gqltype.level=low") || slices.Contains(u, "gqltype.level") {
		t.Errorf("Undocumented %v lists a described enum value or the enum", u)
	}
}

// TestEnumNames: an enum's value names are the UPPER_CASE forms of its
// Go values.
func TestEnumNames(t *testing.T) {
	for v, want := range map[string]string{
		"keyword": "KEYWORD", "BOOLEAN": "BOOLEAN", "mostBought": "MOST_BOUGHT", "most-bought": "MOST_BOUGHT",
		"MOST_BOUGHT": "MOST_BOUGHT", "APIKey": "API_KEY", "v2Beta": "V2_BETA", "a b": "A_B",
	} {
		if got := enumName(v); got != want {
			t.Errorf("enumName(%q) = %q, want %q", v, got, want)
		}
	}
}

// TestResolvers: the output resolvers read a Go value of the struct or
// a pointer to it: enums as their names, a nil slice or map as an empty
// list, entries in key order, a nil pointer as null, times in RFC 3339,
// a struct's own fields through its object.
func TestResolvers(t *testing.T) {
	r := sampleRegistry()
	ratio := 0.5
	when := time.Date(2026, 3, 1, 0, 0, 0, 250_000_000, time.FixedZone("", 7200))
	v := sample{Name: "a", Count: 3, Ratio: &ratio, Level: "veryHigh", Levels: []level{"low", "MID"},
		Items: []item{{ID: 1}}, Ptrs: []*item{nil, {ID: 2}}, ByKey: map[string]item{"b": {ID: 4}, "a": {ID: 3}},
		Extra: map[string]any{"x": []any{1.0}}, Any: "s", When: when, Next: &sample{Name: "next"}, Renamed: "r",
		Children: map[string][]int{"c": {1, 2}}}
	for _, root := range []any{v, &v} {
		schema, err := graphql.NewSchema(graphql.SchemaConfig{Query: graphql.NewObject(graphql.ObjectConfig{Name: "Query", Fields: graphql.Fields{
			"sample": &graphql.Field{Type: r.Output(reflect.TypeFor[sample]()), Resolve: func(graphql.ResolveParams) (any, error) { return root, nil }},
		}})})
		if err != nil {
			t.Fatal(err)
		}
		res := graphql.Do(graphql.Params{Schema: schema, RequestString: `{ sample { name count ratio small on level levels tags
			items { id } ptrs { id } byKey { key value { id } } counts { key } extra any when until
			next { name next { name } tags } alias children { key value } } }`})
		if len(res.Errors) > 0 {
			t.Fatalf("%T: %v", root, res.Errors)
		}
		got, _ := json.Marshal(res.Data)
		want := `{"sample":{"alias":"r","any":"s","byKey":[{"key":"a","value":{"id":3}},{"key":"b","value":{"id":4}}],` +
			`"children":[{"key":"c","value":[1,2]}],"count":3,"counts":[],"extra":{"x":[1]},"items":[{"id":1}],` +
			`"level":"VERY_HIGH","levels":["LOW","MID"],"name":"a","next":{"name":"next","next":null,"tags":[]},"on":false,` +
			`"ptrs":[null,{"id":2}],"ratio":0.5,"small":0,"tags":[],"until":null,"when":"2026-03-01T00:00:00.25+02:00"}}`
		if string(got) != want {
			t.Errorf("%T:\n got %s\nwant %s", root, got, want)
		}
	}
}

// TestResolverRefusesAnotherSource: a field's resolver given a source of
// another Go type answers an error naming both, not a panic.
func TestResolverRefusesAnotherSource(t *testing.T) {
	r := sampleRegistry()
	obj := graphql.GetNamed(r.Output(reflect.TypeFor[sample]())).(*graphql.Object)
	for _, src := range []any{item{}, "x", nil} {
		_, err := obj.Fields()["name"].Resolve(graphql.ResolveParams{Source: src})
		if err == nil || !strings.Contains(err.Error(), "resolves from a gqltype.sample") {
			t.Errorf("source %T: %v", src, err)
		}
	}
}

// TestMisusePanics: configuring a type already built, two Go types with
// one GraphQL name, and a Go type the mapping does not cover panic when
// the schema is built, naming the problem.
func TestMisusePanics(t *testing.T) {
	type other struct {
		X int `json:"x"`
	}
	for _, tc := range []struct {
		name, want string
		do         func(r *Registry)
	}{
		{"rename after building", "configured after", func(r *Registry) {
			r.Output(reflect.TypeFor[item]())
			r.RenameType(reflect.TypeFor[item](), "Item")
		}},
		{"enum after building", "configured after", func(r *Registry) {
			r.Output(reflect.TypeFor[sample]())
			r.Enum(reflect.TypeFor[level](), "Level2", "", map[string]string{"a": ""})
		}},
		{"one name for two types", "both map to the GraphQL type item", func(r *Registry) {
			r.RenameType(reflect.TypeFor[other](), "item")
			r.Output(reflect.TypeFor[item]())
			r.Output(reflect.TypeFor[other]())
		}},
		{"a channel", "no GraphQL mapping", func(r *Registry) { r.Output(reflect.TypeFor[struct{ C chan int }]()) }},
		{"an unknown field", "has no field", func(r *Registry) { r.RenameField(reflect.TypeFor[item](), "Nope", "nope") }},
		{"two values with one name", "are both MOST_BOUGHT", func(r *Registry) {
			r.Enum(reflect.TypeFor[level](), "Level", "", map[string]string{"mostBought": "", "most-bought": ""})
		}},
		{"a value with no name", "has no GraphQL name", func(r *Registry) {
			r.Enum(reflect.TypeFor[level](), "Level", "", map[string]string{"2nd": ""})
		}},
	} {
		func() {
			defer func() {
				p := recover()
				if msg, _ := p.(string); p == nil || !strings.Contains(msg+errString(p), tc.want) {
					t.Errorf("%s: panic %v, want one saying %q", tc.name, p, tc.want)
				}
			}()
			tc.do(NewRegistry())
		}()
	}
}

func errString(p any) string {
	if err, ok := p.(error); ok {
		return err.Error()
	}
	return ""
}
