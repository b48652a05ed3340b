package gql_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

// introspectionQuery is the standard introspection query, as GraphiQL
// sends it (graphql-js getIntrospectionQuery with its defaults).
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`

// The introspection result, as far as the checks read it.
type (
	schemaIntro struct {
		QueryType    *struct{ Name string } `json:"queryType"`
		MutationType *struct{ Name string } `json:"mutationType"`
		Types        []typeIntro            `json:"types"`
	}
	typeIntro struct {
		Kind        string       `json:"kind"`
		Name        string       `json:"name"`
		Description *string      `json:"description"`
		Fields      []fieldIntro `json:"fields"`
		InputFields []inputIntro `json:"inputFields"`
		EnumValues  []enumIntro  `json:"enumValues"`
	}
	enumIntro struct {
		Name        string  `json:"name"`
		Description *string `json:"description"`
	}
	fieldIntro struct {
		Name        string       `json:"name"`
		Description *string      `json:"description"`
		Args        []inputIntro `json:"args"`
		Type        typeRef      `json:"type"`
	}
	inputIntro struct {
		Name        string  `json:"name"`
		Description *string `json:"description"`
		Type        typeRef `json:"type"`
	}
	typeRef struct {
		Kind   string   `json:"kind"`
		Name   *string  `json:"name"`
		OfType *typeRef `json:"ofType"`
	}
)

// String is the type as GraphQL writes it: [String]!, DateTime!.
func (r typeRef) String() string {
	switch {
	case r.Kind == "NON_NULL" && r.OfType != nil:
		return r.OfType.String() + "!"
	case r.Kind == "LIST" && r.OfType != nil:
		return "[" + r.OfType.String() + "]"
	case r.Name != nil:
		return *r.Name
	}
	return "?"
}

// specType is a type as the spec names it: its kind, its fields or
// input fields with their types, the arguments of its fields, and its
// enum values. The schema must hold each; it may hold more (the spec
// says AuditResourceType may grow, and docs/decisions.md adds
// CREATED_AT_ASC and Aisle's resource types).
type specType struct {
	kind, name string
	fields     [][2]string            // name, type
	args       map[string][][2]string // field: its arguments' names and types
	values     []string
}

// auditSpec is the spec's "Audit log types (GraphQL)" and "5. Audit
// log", with docs/decisions.md's CREATED_AT_ASC.
var auditSpec = []specType{
	{kind: "OBJECT", name: "AuditLog", fields: [][2]string{
		{"id", "ID!"}, {"sourceId", "String!"}, {"sequenceKey", "String!"}, {"websiteUuid", "String"},
		{"companyId", "String!"}, {"keypoint", "Boolean!"}, {"endpoint", "Boolean!"}, {"changedFields", "[String]!"},
		{"resourceTitle", "String!"}, {"resourceType", "AuditResourceType!"}, {"auditLogSession", "AuditLogSession"},
		{"createdAt", "DateTime!"},
	}},
	{kind: "OBJECT", name: "AuditLogSession", fields: [][2]string{
		{"sessionId", "String!"}, {"authenticatedEntityName", "String"}, {"sessionEvents", "[String]"},
	}},
	{kind: "SCALAR", name: "DateTime"},
	{kind: "ENUM", name: "AuditResourceType", values: []string{
		"EVENT", "WEBSITE", "FEED_CONFIG", "PAGES_DESIGN", "PAGES_CONFIG", "RECOM_DESIGN", "RECOM_CONFIG",
		"SEARCH_CONFIG", "TRIGGER_DESIGN", "TRIGGER_CONFIG", "NEWSLETTER_DESIGN", "NEWSLETTER_CONFIG",
	}},
	{kind: "INPUT_OBJECT", name: "AuditLogFilterInput", fields: [][2]string{
		{"websiteUuid", "String"}, {"companyId", "String"}, {"sourceId", "String"}, {"sequenceKey", "String"},
		{"keypoint", "String"}, {"endpoint", "String"}, {"resourceType", "String"},
		{"createdAtBefore", "String"}, {"createdAtAfter", "String"},
	}},
	{kind: "ENUM", name: "AuditLogSort", values: []string{"CREATED_AT_DESC", "CREATED_AT_ASC"}},
	{kind: "ENUM", name: "AuditLogFilterArgumentSort", values: []string{"CREATED_AT_DESC", "CREATED_AT_ASC"}},
	{kind: "OBJECT", name: "AuditLogConnection", fields: [][2]string{{"edges", "[AuditLogEdge!]!"}, {"pageInfo", "PageInfo!"}}},
	{kind: "OBJECT", name: "AuditLogEdge", fields: [][2]string{{"node", "AuditLog!"}, {"cursor", "String!"}}},
	{kind: "OBJECT", name: "PageInfo", fields: [][2]string{{"endCursor", "String"}, {"hasNextPage", "Boolean!"}}},
	{kind: "OBJECT", name: "Query", fields: [][2]string{{"auditLogs", "AuditLogConnection!"}}, args: map[string][][2]string{
		"auditLogs": {{"filter", "AuditLogFilterInput"}, {"sort", "AuditLogSort"}, {"first", "Int"}, {"after", "String"}},
	}},
}

// personalizationMutation is the spec's personalization mutation.
const personalizationMutation = "updateSearchAlgorithmPersonalization"

// personalizationSpec is the spec's "Search personalization types
// (GraphQL)" and "4. Search personalization".
var personalizationSpec = []specType{
	{kind: "INPUT_OBJECT", name: "SearchPersonalizationInput", fields: [][2]string{
		{"algorithmId", "ID!"}, {"personalizedFields", "[PersonalizationFieldInput!]!"},
	}},
	{kind: "INPUT_OBJECT", name: "PersonalizationFieldInput", fields: [][2]string{{"field", "String!"}, {"boostValue", "Int!"}}},
	{kind: "OBJECT", name: "SearchPersonalization", fields: [][2]string{
		{"allowedFields", "[String!]!"}, {"availableFields", "[String!]!"}, {"personalizedFields", "[PersonalizationField!]!"},
	}},
	{kind: "OBJECT", name: "PersonalizationField", fields: [][2]string{{"field", "String!"}, {"boostValue", "Int!"}}},
	{kind: "OBJECT", name: "Mutation", fields: [][2]string{{personalizationMutation, "SearchPersonalization!"}}, args: map[string][][2]string{
		personalizationMutation: {{"personalization", "SearchPersonalizationInput!"}},
	}},
}

// introspect runs the standard introspection query on the server as the
// operator and returns the whole answer's body and its __schema.
func (s *shop) introspect(t *testing.T) (raw string, sch schemaIntro) {
	t.Helper()
	a := s.do(t, operator, introspectionQuery, nil)
	d := a.ok(t)
	b, _ := json.Marshal(d["__schema"])
	if err := json.Unmarshal(b, &sch); err != nil {
		t.Fatal(err)
	}
	return a.Raw, sch
}

// TestSchemaMatchesSpec: the admin schema, introspected over HTTP as
// GraphiQL does, has every type, field, argument and enum value the
// spec names for the audit log and personalization, each field and
// argument of the spec's exact type; every type, field, argument, input field and enum value of
// the schema has a description; enum values are UPPER_CASE. The
// checker itself is shown to catch a broken schema.
func TestSchemaMatchesSpec(t *testing.T) {
	s := twoShops(t)
	_, sch := s.introspect(t)
	for _, p := range schemaProblems(sch) {
		t.Error(p)
	}

	// The checker finds each kind of fault: each breaks a copy of the
	// schema and must be reported.
	for _, c := range []struct {
		name, want string
		brk        func(*schemaIntro)
	}{
		{"enum value renamed", "AuditLogSort: no value CREATED_AT_DESC", func(s *schemaIntro) {
			e := ty(s, "AuditLogSort")
			e.EnumValues[slices.IndexFunc(e.EnumValues, func(v enumIntro) bool { return v.Name == "CREATED_AT_DESC" })].Name = "NEWEST"
		}},
		{"field made nullable", "AuditLog.createdAt is DateTime, the spec has DateTime!", func(s *schemaIntro) {
			f := field(ty(s, "AuditLog"), "createdAt")
			f.Type = *f.Type.OfType
		}},
		{"argument removed", "Query.auditLogs: no argument after", func(s *schemaIntro) {
			f := field(ty(s, "Query"), "auditLogs")
			f.Args = slices.DeleteFunc(f.Args, func(a inputIntro) bool { return a.Name == "after" })
		}},
		{"type removed", "no type AuditLogFilterArgumentSort", func(s *schemaIntro) {
			s.Types = slices.DeleteFunc(s.Types, func(t typeIntro) bool { return t.Name == "AuditLogFilterArgumentSort" })
		}},
		{"description empty", "AuditLogFilterInput.createdAtAfter has no description", func(s *schemaIntro) {
			for i, f := range ty(s, "AuditLogFilterInput").InputFields {
				if f.Name == "createdAtAfter" {
					ty(s, "AuditLogFilterInput").InputFields[i].Description = new(string)
				}
			}
		}},
		{"enum value not upper case", "AuditResourceType.apiKey is not UPPER_CASE", func(s *schemaIntro) {
			e := ty(s, "AuditResourceType")
			e.EnumValues = append(e.EnumValues, e.EnumValues[0])
			e.EnumValues[len(e.EnumValues)-1].Name = "apiKey"
		}},
		{"personalization mutation removed", "Mutation: no field " + personalizationMutation, func(s *schemaIntro) {
			m := ty(s, s.MutationType.Name)
			m.Fields = slices.DeleteFunc(m.Fields, func(f fieldIntro) bool { return f.Name == personalizationMutation })
		}},
		{"input field made nullable", "PersonalizationFieldInput.boostValue is Int, the spec has Int!", func(s *schemaIntro) {
			in := ty(s, "PersonalizationFieldInput")
			for i, f := range in.InputFields {
				if f.Name == "boostValue" {
					in.InputFields[i].Type = *f.Type.OfType
				}
			}
		}},
	} {
		broken := clone(t, sch)
		c.brk(&broken)
		if got := schemaProblems(broken); !slices.Contains(got, c.want) {
			t.Errorf("%s: the checker did not report %q; it reported %q", c.name, c.want, got)
		}
	}
}

// schemaProblems is what of sch disagrees with the spec's tables and
// the rules of descriptions and enum value names, one line each.
func schemaProblems(sch schemaIntro) []string {
	var out []string
	types := map[string]*typeIntro{}
	for i := range sch.Types {
		types[sch.Types[i].Name] = &sch.Types[i]
	}
	want := slices.Concat(auditSpec, personalizationSpec)
	for _, w := range want {
		name := w.name
		switch w.name {
		case "Query":
			if sch.QueryType != nil {
				name = sch.QueryType.Name
			}
		case "Mutation":
			if sch.MutationType != nil {
				name = sch.MutationType.Name
			}
		}
		got := types[name]
		if got == nil {
			out = append(out, "no type "+w.name)
			continue
		}
		if got.Kind != w.kind {
			out = append(out, fmt.Sprintf("%s is a %s, the spec has a %s", w.name, got.Kind, w.kind))
		}
		for _, wf := range w.fields {
			var typ *typeRef
			if f := field(got, wf[0]); f != nil {
				typ = &f.Type
			}
			for _, f := range got.InputFields {
				if f.Name == wf[0] {
					typ = &f.Type
				}
			}
			switch {
			case typ == nil:
				out = append(out, fmt.Sprintf("%s: no field %s", w.name, wf[0]))
			case typ.String() != wf[1]:
				out = append(out, fmt.Sprintf("%s.%s is %s, the spec has %s", w.name, wf[0], typ, wf[1]))
			}
		}
		for fname, args := range w.args {
			f := field(got, fname)
			if f == nil {
				continue // reported above
			}
			for _, wa := range args {
				i := slices.IndexFunc(f.Args, func(a inputIntro) bool { return a.Name == wa[0] })
				switch {
				case i < 0:
					out = append(out, fmt.Sprintf("%s.%s: no argument %s", w.name, fname, wa[0]))
				case f.Args[i].Type.String() != wa[1]:
					out = append(out, fmt.Sprintf("%s.%s(%s) is %s, the spec has %s", w.name, fname, wa[0], f.Args[i].Type, wa[1]))
				}
			}
		}
		for _, v := range w.values {
			if !slices.ContainsFunc(got.EnumValues, func(e enumIntro) bool { return e.Name == v }) {
				out = append(out, fmt.Sprintf("%s: no value %s", w.name, v))
			}
		}
	}
	return append(out, describedProblems(sch)...)
}

// builtinScalars are GraphQL's own scalars, described by the library.
var builtinScalars = []string{"String", "Int", "Float", "Boolean", "ID"}

var upperCase = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)

// describedProblems lists each type of the schema's own (not __* nor a
// built-in scalar), field, argument, input field and enum value without
// a description, and each enum value not UPPER_CASE.
func describedProblems(sch schemaIntro) []string {
	var out []string
	none := func(d *string) bool { return d == nil || strings.TrimSpace(*d) == "" }
	for _, t := range sch.Types {
		if strings.HasPrefix(t.Name, "__") || slices.Contains(builtinScalars, t.Name) {
			continue
		}
		if none(t.Description) {
			out = append(out, t.Name+" has no description")
		}
		for _, f := range t.Fields {
			if none(f.Description) {
				out = append(out, t.Name+"."+f.Name+" has no description")
			}
			for _, a := range f.Args {
				if none(a.Description) {
					out = append(out, t.Name+"."+f.Name+"("+a.Name+") has no description")
				}
			}
		}
		for _, f := range t.InputFields {
			if none(f.Description) {
				out = append(out, t.Name+"."+f.Name+" has no description")
			}
		}
		for _, v := range t.EnumValues {
			if none(v.Description) {
				out = append(out, t.Name+"."+v.Name+" has no description")
			}
			if !upperCase.MatchString(v.Name) {
				out = append(out, t.Name+"."+v.Name+" is not UPPER_CASE")
			}
		}
	}
	return out
}

// ty is the type named name of s, which must exist.
func ty(s *schemaIntro, name string) *typeIntro {
	for i := range s.Types {
		if s.Types[i].Name == name {
			return &s.Types[i]
		}
	}
	panic("no type " + name)
}

// field is t's field named name, or nil.
func field(t *typeIntro, name string) *fieldIntro {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return &t.Fields[i]
		}
	}
	return nil
}

// clone is a deep copy of sch.
func clone(t *testing.T, sch schemaIntro) schemaIntro {
	t.Helper()
	b, _ := json.Marshal(sch)
	var out schemaIntro
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSpecOperationsRun: the spec's operations that
// TestGraphQLJSValidates validates (testdata/spec/*.graphql) also run on
// the server without error, the next page from the first's endCursor.
func TestSpecOperationsRun(t *testing.T) {
	s := twoShops(t)
	op := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "spec", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	s.do(t, operator, `mutation { createSearchConfigurationDraft(key: "shop") { id } }`, nil).ok(t)
	d := s.do(t, operator, op("audit-page.graphql"), map[string]any{"companyId": "acme", "first": 1}).ok(t)
	c := d["auditLogs"].(map[string]any)
	pi := c["pageInfo"].(map[string]any)
	if len(c["edges"].([]any)) != 1 || pi["endCursor"] == nil || pi["hasNextPage"] != true {
		t.Fatalf("first page: %v", c)
	}
	d = s.do(t, operator, op("audit-next-page.graphql"), map[string]any{"filter": map[string]any{"companyId": "acme"}, "cursor": pi["endCursor"], "first": 1}).ok(t)
	if next := d["auditLogs"].(map[string]any)["edges"].([]any); len(next) != 1 {
		t.Fatalf("next page: %v", d)
	}
	d = s.do(t, operator, op("personalization.graphql"), map[string]any{"personalization": map[string]any{"algorithmId": "shop",
		"personalizedFields": []any{map[string]any{"field": "product.pi.brandAffinity", "boostValue": 4}}}}).ok(t)
	if got := d["updateSearchAlgorithmPersonalization"].(map[string]any)["personalizedFields"].([]any); len(got) != 1 {
		t.Fatalf("personalization: %v", d)
	}
	d = s.do(t, operator, op("audit-fragments.graphql"), map[string]any{"filter": map[string]any{"websiteUuid": siteA}}).ok(t)
	if len(d["newest"].(map[string]any)["edges"].([]any)) == 0 || len(d["oldest"].(map[string]any)["edges"].([]any)) != 1 {
		t.Fatalf("fragments: %v", d)
	}
}
