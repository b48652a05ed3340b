package gqltype

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/internal/expect"
)

// testConfigs are the configurations the round trips carry: this
// package's testdata/configs (every-member.json sets every member of
// every config type), the documented example (docs/configuration.md),
// the demo's, the default one, and the configurations of config's fuzz
// corpus that Parse accepts.
func testConfigs(t *testing.T) map[string]*config.File {
	t.Helper()
	out := map[string]*config.File{}
	files, err := filepath.Glob("testdata/configs/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range expect.Some(t, "testdata/configs", files) {
		f, err := config.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(name)] = f
	}
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(doc), "```json\n")
	example, _, _ := strings.Cut(rest, "```")
	if out["docs/configuration.md"], err = config.Parse([]byte(example)); err != nil {
		t.Fatalf("docs/configuration.md: %v", err)
	}
	d := demo.Config()
	out["demo"] = &d
	out["default"] = config.Default(config.NewUUID())
	seeds, err := filepath.Glob("../../config/testdata/fuzz/FuzzParse/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range seeds {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		_, arg, _ := strings.Cut(string(data), "\n[]byte(")
		doc, err := strconv.Unquote(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(arg), ")")))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f, err := config.Parse([]byte(doc)); err == nil {
			out["config fuzz seed "+filepath.Base(name)] = f
		}
	}
	return out
}

// TestTestConfigsSetEveryMember: the round trips' configurations set
// every field of every type the GraphQL mapping reaches to a value other
// than its zero, somewhere, so a member the mapping loses cannot pass
// unseen: a field added to config needs a value in
// testdata/configs/every-member.json.
func TestTestConfigsSetEveryMember(t *testing.T) {
	r := NewConfigRegistry()
	root := r.mustShape(reflect.TypeFor[config.File]())
	set := map[string]bool{}
	for _, f := range testConfigs(t) {
		markSet(root, reflect.ValueOf(*f), set)
	}
	var missing []string
	n := expect.Counter{What: "config fields", Min: 80}
	for _, s := range r.shapes {
		for _, f := range s.fields {
			n.N++
			if key := s.typ.Name() + "." + f.name; !set[key] {
				missing = append(missing, key)
			}
		}
	}
	n.Check(t)
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("no test configuration sets %v", missing)
	}
}

// markSet records "Type.field" in set for each struct field of v that is
// not its zero value.
func markSet(s *shape, v reflect.Value, set map[string]bool) {
	switch s.kind {
	case kindPointer:
		if !v.IsNil() {
			markSet(s.elem, v.Elem(), set)
		}
	case kindList:
		for i := range v.Len() {
			markSet(s.elem, v.Index(i), set)
		}
	case kindEntries:
		for _, k := range v.MapKeys() {
			markSet(s.elem, v.MapIndex(k), set)
		}
	case kindStruct:
		for _, f := range s.fields {
			fv := v.Field(f.index)
			if !fv.IsZero() {
				set[s.typ.Name()+"."+f.name] = true
			}
			markSet(f.shape, fv, set)
		}
	}
}

// roundTripSchema is a schema that reads a configuration (query
// configuration) and decodes one (mutation setConfiguration, and
// setVersion for one search configuration version), keeping what it
// decoded in *got.
func roundTripSchema(t *testing.T, r *Registry, src *config.File, got *config.File, gotVersion *config.SearchVersion) graphql.Schema {
	t.Helper()
	file, version := reflect.TypeFor[config.File](), reflect.TypeFor[config.SearchVersion]()
	schema, err := graphql.NewSchema(graphql.SchemaConfig{
		Query: graphql.NewObject(graphql.ObjectConfig{Name: "Query", Fields: graphql.Fields{
			"configuration": &graphql.Field{Type: r.Output(file),
				Resolve: func(graphql.ResolveParams) (any, error) { return src, nil }},
		}}),
		Mutation: graphql.NewObject(graphql.ObjectConfig{Name: "Mutation", Fields: graphql.Fields{
			"setConfiguration": &graphql.Field{Type: graphql.Boolean,
				Args: graphql.FieldConfigArgument{"input": &graphql.ArgumentConfig{Type: graphql.NewNonNull(r.Input(file))}},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					return true, r.Decode(p.Args["input"], got, "input")
				}},
			"setVersion": &graphql.Field{Type: graphql.Boolean,
				Args: graphql.FieldConfigArgument{"input": &graphql.ArgumentConfig{Type: graphql.NewNonNull(r.Input(version))}},
				Resolve: func(p graphql.ResolveParams) (any, error) {
					return true, r.Decode(p.Args["input"], gotVersion, "input")
				}},
		}}),
	})
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// TestRoundTripThroughGraphQL: each test configuration, read through a
// query that selects every field (the output types' resolvers on the Go
// values), sent back as the variable of a mutation as a client sends
// JSON (graphql-go's input coercion), and decoded, is the configuration
// it was; and so is each of its search versions sent back as a literal in
// the document (enum names bare, entries, nested objects).
func TestRoundTripThroughGraphQL(t *testing.T) {
	configs := testConfigs(t)
	for _, name := range slices.Sorted(mapKeys(configs)) {
		src := configs[name]
		t.Run(name, func(t *testing.T) {
			r := NewConfigRegistry()
			var got config.File
			var gotVersion config.SearchVersion
			schema := roundTripSchema(t, r, src, &got, &gotVersion)
			query := "{ configuration" + selection(r.Output(reflect.TypeFor[config.File]())) + " }"
			res := graphql.Do(graphql.Params{Schema: schema, RequestString: query})
			if len(res.Errors) > 0 {
				t.Fatalf("query: %v", res.Errors)
			}
			wire, err := json.Marshal(res.Data)
			if err != nil {
				t.Fatal(err)
			}
			var data struct{ Configuration map[string]any }
			if err := json.Unmarshal(wire, &data); err != nil {
				t.Fatal(err)
			}
			res = graphql.Do(graphql.Params{Schema: schema,
				RequestString:  "mutation($input: ConfigurationInput!) { setConfiguration(input: $input) }",
				VariableValues: map[string]any{"input": data.Configuration}})
			if len(res.Errors) > 0 {
				t.Fatalf("mutation: %v", res.Errors)
			}
			if !expect.SameAfterJSON(*src, got) {
				t.Fatalf("decoded\n%s\nwant\n%s", jsonOf(t, got), jsonOf(t, *src))
			}
			n := 0
			versionInput := r.Input(reflect.TypeFor[config.SearchVersion]())
			for i, w := range data.Configuration["websites"].([]any) {
				for j, sc := range w.(map[string]any)["searchConfigurations"].([]any) {
					for k, v := range sc.(map[string]any)["versions"].([]any) {
						n++
						gotVersion = config.SearchVersion{}
						res = graphql.Do(graphql.Params{Schema: schema,
							RequestString: "mutation { setVersion(input: " + literalOf(v, versionInput) + ") }"})
						if len(res.Errors) > 0 {
							t.Fatalf("mutation with a literal: %v", res.Errors)
						}
						if want := src.Websites[i].Search[j].Versions[k]; !expect.SameAfterJSON(want, gotVersion) {
							t.Fatalf("version %d of %s from a literal: decoded\n%s\nwant\n%s", k, src.Websites[i].Search[j].Key, jsonOf(t, gotVersion), jsonOf(t, want))
						}
					}
				}
			}
			if n == 0 && len(src.Websites[0].Search) > 0 {
				t.Fatal("no version was sent as a literal")
			}
		})
	}
}

// selection selects every field of t, recursively.
func selection(t graphql.Type) string {
	o, ok := graphql.GetNamed(t).(*graphql.Object)
	if !ok {
		return ""
	}
	var b strings.Builder
	b.WriteString(" {")
	fields := o.Fields()
	for _, n := range slices.Sorted(mapKeys(fields)) {
		b.WriteString(" " + n + selection(fields[n].Type))
	}
	b.WriteString(" }")
	return b.String()
}

// literalOf writes v, a value as JSON decodes a query's answer, as a
// GraphQL literal of the input type t: enum values bare, null members
// left out (graphql-go has no null literal).
func literalOf(v any, t graphql.Input) string {
	if nn, ok := t.(*graphql.NonNull); ok {
		t = nn.OfType
	}
	switch t := t.(type) {
	case *graphql.List:
		var parts []string
		for _, e := range v.([]any) {
			parts = append(parts, literalOf(e, t.OfType))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *graphql.InputObject:
		m := v.(map[string]any)
		var parts []string
		for _, k := range slices.Sorted(mapKeys(m)) {
			if m[k] != nil {
				parts = append(parts, k+": "+literalOf(m[k], t.Fields()[k].Type))
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *graphql.Enum:
		return v.(string)
	}
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case string:
		b, _ := json.Marshal(v)
		return string(b)
	}
	panic(fmt.Sprintf("literalOf: %T for %s", v, t))
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}
