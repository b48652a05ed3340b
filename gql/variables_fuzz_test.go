package gql

import (
	"testing"

	"github.com/goccy/go-json"
	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/parser"
)

// FuzzCheckIntegers: any document the schema validates, with any JSON
// variables, is checked without a panic; a refusal is a BAD_USER_INPUT
// naming a variable; an acceptance leaves no Int variable that is not a
// 32-bit integer where graphql-go would truncate one (checked for the
// personalization mutation's boost values).
func FuzzCheckIntegers(f *testing.F) {
	schema, err := (&Server{}).build()
	if err != nil {
		f.Fatal(err)
	}
	mutation := `mutation ($p: SearchPersonalizationInput!) { updateSearchAlgorithmPersonalization(personalization: $p) { allowedFields } }`
	f.Add(mutation, `{"p": {"algorithmId": "a", "personalizedFields": [{"field": "f", "boostValue": 2.5}]}}`)
	f.Add(mutation, `{"p": {"algorithmId": "a", "personalizedFields": {"field": "f", "boostValue": "3"}}}`)
	f.Add(`query ($n: Int) { auditLogs(first: $n) { edges { cursor } } }`, `{"n": 1e10}`)
	f.Add(`query ($n: [Int!]) { auditLogs(first: 1) { edges { cursor } } }`, `{"n": [1, 2, true]}`)
	f.Fuzz(func(t *testing.T, query, vars string) {
		doc, err := parser.Parse(parser.ParseParams{Source: query})
		if err != nil {
			return
		}
		if checkVariableTypes(doc) != nil || !graphql.ValidateDocument(&schema, doc, nil).IsValid {
			return
		}
		op, err := operation(doc, "")
		if err != nil {
			return
		}
		var v map[string]any
		if json.Unmarshal([]byte(vars), &v) != nil {
			return
		}
		err = checkIntegers(&schema, op, v)
		if err != nil {
			e, ok := err.(*Error)
			if !ok || e.Code != CodeBadInput || len(e.Field) == 0 || e.Field[0] != '$' {
				t.Fatalf("refusal %#v", err)
			}
			return
		}
		if p, ok := v["p"].(map[string]any); ok && op.VariableDefinitions != nil && len(op.VariableDefinitions) == 1 && op.VariableDefinitions[0].Variable.Name.Value == "p" {
			if list, ok := p["personalizedFields"].([]any); ok && typeOf(&schema, op.VariableDefinitions[0].Type) != nil && typeOf(&schema, op.VariableDefinitions[0].Type).Name() == "SearchPersonalizationInput!" {
				for _, e := range list {
					if m, ok := e.(map[string]any); ok {
						if b, ok := m["boostValue"].(float64); ok && b != float64(int32(b)) {
							t.Fatalf("accepted boostValue %v", b)
						}
					}
				}
			}
		}
	})
}
