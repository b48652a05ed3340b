package gql

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/gql/gqltype"
	"github.com/aisle-search/aisle/live"
)

// The spec's personalization errors: each message starts with the
// spec's text.
const (
	msgInvalidAlgorithm = "Invalid algorithm ID"
	msgInvalidField     = "Invalid field name"
	msgInvalidBoost     = "Invalid boost value"
)

// personalizationFields adds the spec's mutation
// updateSearchAlgorithmPersonalization and the query
// searchAlgorithmPersonalization, which reads what it set. An algorithm
// is a search configuration, its id the configuration's key; both need
// the admin scope on its website.
func personalizationFields(reg *gqltype.Registry, q, m graphql.Fields) {
	fieldOut := reg.Output(reflect.TypeFor[config.PersonalizationField]()) // as the configuration holds it
	out := graphql.NewObject(graphql.ObjectConfig{
		Name:        "SearchPersonalization",
		Description: "A search algorithm's personalization: how strongly products that match a known visitor's profile are lifted in its searches, and in the pages that name it.",
		Fields: graphql.Fields{
			"allowedFields": &graphql.Field{Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.String))),
				Description: "The available fields the website's data supports: budgetZone with an indexed number price, productCluster always, brandAffinity, categoryAffinity, colorAffinity and sizeAffinity when an indexed brand, hierarchies, extraData.color or extraData.size holds values. A field set but not allowed is kept and has no effect until it is."},
			"availableFields": &graphql.Field{Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.String))), Description: "Every field a personalization may name."},
			"personalizedFields": &graphql.Field{Type: graphql.NewNonNull(graphql.NewList(fieldOut)),
				Description: "The fields set and their boost values, as stored."},
		},
	})
	fieldIn := graphql.NewInputObject(graphql.InputObjectConfig{
		Name:        "PersonalizationFieldInput",
		Description: "A personalization field and its boost value.",
		Fields: graphql.InputObjectConfigFieldMap{
			"field":      &graphql.InputObjectFieldConfig{Type: graphql.NewNonNull(graphql.String), Description: "One of availableFields."},
			"boostValue": &graphql.InputObjectFieldConfig{Type: graphql.NewNonNull(graphql.Int), Description: "0 to 10; 0 removes the field."},
		},
	})
	in := graphql.NewInputObject(graphql.InputObjectConfig{
		Name:        "SearchPersonalizationInput",
		Description: "A search algorithm's personalization, whole.",
		Fields: graphql.InputObjectConfigFieldMap{
			"algorithmId": &graphql.InputObjectFieldConfig{Type: graphql.NewNonNull(graphql.ID), Description: "The search configuration's id: its key."},
			"personalizedFields": &graphql.InputObjectFieldConfig{Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(fieldIn))),
				Description: "The fields and their boost values: they replace the stored ones; an empty list removes every boost."},
		},
	})
	m["updateSearchAlgorithmPersonalization"] = &graphql.Field{
		Type:        graphql.NewNonNull(out),
		Description: "Sets a search algorithm's personalized fields to the list given (a boost value of 0 leaves the field out; an empty list removes every boost). Errors: Invalid algorithm ID, Invalid field name, Invalid boost value, Unauthorized.",
		Args:        graphql.FieldConfigArgument{"personalization": &graphql.ArgumentConfig{Type: graphql.NewNonNull(in), Description: "The algorithm and its fields."}},
		Resolve: mutation("updateSearchAlgorithmPersonalization", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			arg, _ := p.Args["personalization"].(map[string]any)
			id, _ := arg["algorithmId"].(string)
			fields, err := personalizationInput(arg["personalizedFields"])
			if err != nil {
				return nil, err
			}
			var uuid string
			var stored []config.PersonalizationField
			_, err = w.UpdateConfig(func(f *config.File) error {
				site, s, err := c.algorithm(f, id)
				if err != nil {
					return err
				}
				s.Personalization, uuid = fields, site.UUID
				stored = slices.Clone(fields)
				return nil
			})
			if err != nil {
				return nil, err
			}
			return c.personalization(uuid, stored), nil
		}),
	}
	q["searchAlgorithmPersonalization"] = &graphql.Field{
		Type:        graphql.NewNonNull(out),
		Description: "A search algorithm's personalization, as updateSearchAlgorithmPersonalization set it. Errors: Invalid algorithm ID, Unauthorized.",
		Args:        graphql.FieldConfigArgument{"algorithmId": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.ID), Description: "The search configuration's id: its key."}},
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			id, _ := p.Args["algorithmId"].(string)
			for _, g := range c.s.opt.Engine.Websites() {
				if s, ok := searchConfigs.in(g.Website, id); ok {
					if err := c.allow(access.ScopeAdmin, g.Website.UUID); err != nil {
						return nil, err
					}
					return c.personalization(g.Website.UUID, s.Personalization), nil
				}
			}
			return nil, invalidAlgorithm(id)
		}),
	}
}

// algorithm is search configuration id of f and its website, after
// checking the caller administers the website.
func (c *call) algorithm(f *config.File, id string) (*config.Website, *config.SearchConfig, error) {
	w, s, err := searchConfigs.locate(f, id)
	if err != nil {
		return nil, nil, invalidAlgorithm(id)
	}
	if err := c.allow(access.ScopeAdmin, w.UUID); err != nil {
		return nil, nil, err
	}
	return w, s, nil
}

// invalidAlgorithm is the error for an algorithm id no search
// configuration has.
func invalidAlgorithm(id string) error {
	return &Error{Code: CodeNotFound, Field: "algorithmId", Message: fmt.Sprintf("%s: no search configuration %q", msgInvalidAlgorithm, id)}
}

// personalization is the answer for website uuid's stored fields.
func (c *call) personalization(uuid string, stored []config.PersonalizationField) map[string]any {
	allowed := []string{}
	if g, ok := c.s.opt.Engine.Website(uuid); ok {
		allowed = g.AllowedPersonalization()
	}
	if stored == nil {
		stored = []config.PersonalizationField{}
	}
	return map[string]any{"allowedFields": allowed, "availableFields": config.PersonalizationNames, "personalizedFields": stored}
}

// personalizationInput is the personalizedFields argument as stored:
// fields with a boost value of 0 left out, in the order given. Its
// errors are the spec's, naming the member.
func personalizationInput(v any) ([]config.PersonalizationField, error) {
	list, _ := v.([]any)
	var out []config.PersonalizationField
	for i, e := range list {
		m, _ := e.(map[string]any)
		name, _ := m["field"].(string)
		boost, _ := m["boostValue"].(int)
		field := fmt.Sprintf("personalization.personalizedFields[%d]", i)
		if !slices.Contains(config.PersonalizationNames, name) {
			return nil, badInput(field+".field", fmt.Sprintf("%s: %q is not one of availableFields %v", msgInvalidField, name, config.PersonalizationNames))
		}
		for _, prev := range list[:i] {
			if p, _ := prev.(map[string]any); p["field"] == name {
				return nil, badInput(field+".field", fmt.Sprintf("%s: %q is given twice", msgInvalidField, name))
			}
		}
		if boost < 0 || boost > config.MaxBoostValue {
			return nil, badInput(field+".boostValue", fmt.Sprintf("%s: want an integer from 1 to %d (0 removes the field), got %d", msgInvalidBoost, config.MaxBoostValue, boost))
		}
		if boost > 0 {
			out = append(out, config.PersonalizationField{Field: name, BoostValue: boost})
		}
	}
	return out, nil
}
