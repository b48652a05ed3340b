package gql

import (
	"fmt"
	"math"
	"strconv"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
)

// intMessages are the sentences that start the error for a value that
// is not an integer, by input field ("Type.field"), where the spec names
// one; others start "want an integer".
var intMessages = map[string]string{"PersonalizationFieldInput.boostValue": msgInvalidBoost}

// checkIntegers refuses a variable's value where the operation declares
// an Int (itself, in a list or in an input object's field) that is not
// an integer of 32 bits: graphql-go would truncate 2.5 to 2 and read
// "3" or true as numbers, where GraphQL's Int takes integers only. It
// runs on a validated document, whose variable types the schema has.
func checkIntegers(schema *graphql.Schema, op *ast.OperationDefinition, vars map[string]any) error {
	for _, d := range op.VariableDefinitions {
		if d.Variable == nil || d.Variable.Name == nil {
			continue
		}
		name := d.Variable.Name.Value
		v, ok := vars[name]
		if !ok {
			continue
		}
		if err := checkInt(typeOf(schema, d.Type), v, "$"+name, ""); err != nil {
			return err
		}
	}
	return nil
}

// typeOf is the schema type of a variable's declared type; nil when the
// schema has no such named type (validation reported it).
func typeOf(schema *graphql.Schema, t ast.Type) graphql.Type {
	switch t := t.(type) {
	case *ast.NonNull:
		if inner := typeOf(schema, t.Type); inner != nil {
			return graphql.NewNonNull(inner)
		}
	case *ast.List:
		if inner := typeOf(schema, t.Type); inner != nil {
			return graphql.NewList(inner)
		}
	case *ast.Named:
		if t.Name != nil {
			return schema.Type(t.Name.Value)
		}
	}
	return nil
}

// checkInt checks v against t at path; owner is the "Type.field" v is
// the value of, "" for a variable itself.
func checkInt(t graphql.Type, v any, path, owner string) error {
	if v == nil {
		return nil // null: graphql-go checks nullability
	}
	switch t := t.(type) {
	case *graphql.NonNull:
		return checkInt(t.OfType, v, path, owner)
	case *graphql.List:
		list, ok := v.([]any)
		if !ok {
			return checkInt(t.OfType, v, path, owner) // a single value stands for a list of it
		}
		for i, e := range list {
			if err := checkInt(t.OfType, e, path+"["+strconv.Itoa(i)+"]", owner); err != nil {
				return err
			}
		}
	case *graphql.InputObject:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for name, f := range t.Fields() {
			if fv, ok := m[name]; ok {
				if err := checkInt(f.Type, fv, path+"."+name, t.Name()+"."+name); err != nil {
					return err
				}
			}
		}
	case *graphql.Scalar:
		if t != graphql.Int {
			return nil
		}
		if f, ok := v.(float64); ok && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
			return nil
		}
		msg := "want an integer"
		if m := intMessages[owner]; m != "" {
			msg = m + ": want an integer"
		}
		return badInput(path, fmt.Sprintf("%s (GraphQL Int, 32 bits), got %s", msg, jsonText(v)))
	}
	return nil
}

// jsonText is a variable's value as the request wrote it, in short.
func jsonText(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprintf("a %T", v)
}

// checkVariableTypes refuses a variable definition without a whole
// type, such as `query ($a:) {…}`: graphql-go's parser takes it with a
// nil type, and its validation then panics on it.
func checkVariableTypes(doc *ast.Document) error {
	for _, d := range doc.Definitions {
		op, ok := d.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		for _, v := range op.VariableDefinitions {
			if v == nil || v.Variable == nil || v.Variable.Name == nil || !wholeType(v.Type) {
				name := ""
				if v != nil && v.Variable != nil && v.Variable.Name != nil {
					name = "$" + v.Variable.Name.Value
				}
				return badInput(name, "a variable needs a type, as ($first: Int)")
			}
		}
	}
	return nil
}

// wholeType reports whether t and every type inside it are there.
func wholeType(t ast.Type) bool {
	switch t := t.(type) {
	case *ast.Named:
		return t != nil && t.Name != nil
	case *ast.List:
		return t != nil && wholeType(t.Type)
	case *ast.NonNull:
		return t != nil && wholeType(t.Type)
	}
	return false
}
