package config

import (
	"errors"
	"fmt"
	"slices"
)

// PersonalizationField boosts, for a visitor whose tracked behaviour
// gives a profile, the products that match the profile on one field. A
// search configuration's personalization ranks its searches and the
// pages that name it (docs/decisions.md, "Personalization").
type PersonalizationField struct {
	// Field is one of product.pi.budgetZone, product.pi.productCluster,
	// product.pi.brandAffinity, product.pi.categoryAffinity,
	// product.pi.colorAffinity and product.pi.sizeAffinity.
	Field string `json:"field"`
	// BoostValue is the field's strength, 1 to 10: a product that
	// matches the visitor's profile fully on the field has its score
	// multiplied by 1 + 0.02 × BoostValue.
	BoostValue int `json:"boostValue"`
}

// The personalization fields, as the spec names them.
const (
	FieldBudgetZone       = "product.pi.budgetZone"       // prices near those the visitor viewed and bought
	FieldProductCluster   = "product.pi.productCluster"   // products viewed or bought beside the visitor's
	FieldBrandAffinity    = "product.pi.brandAffinity"    // the brands the visitor viewed and bought
	FieldCategoryAffinity = "product.pi.categoryAffinity" // their categories (hierarchies)
	FieldColorAffinity    = "product.pi.colorAffinity"    // their colours (extraData.color)
	FieldSizeAffinity     = "product.pi.sizeAffinity"     // their sizes (extraData.size)
)

// PersonalizationNames are the fields a personalization may name, the
// spec's availableFields, in the order answers list them.
var PersonalizationNames = []string{FieldBudgetZone, FieldProductCluster, FieldBrandAffinity,
	FieldCategoryAffinity, FieldColorAffinity, FieldSizeAffinity}

// MaxBoostValue is the largest BoostValue; 0, in a mutation's input,
// removes the field.
const MaxBoostValue = 10

// PersonalWeightPerPoint is what each point of a BoostValue adds to a
// fully matching product's factor: a field at 10 multiplies its score
// by 1.2, all six at 10 by 2.2.
const PersonalWeightPerPoint = 0.02

// Errors of a personalization, the spec's conditions: errors.Is tells
// them apart, the message names the member.
var (
	ErrPersonalField = errors.New("Invalid field name")  //lint:ignore ST1005 the spec's text
	ErrPersonalBoost = errors.New("Invalid boost value") //lint:ignore ST1005 the spec's text
)

// CheckPersonalization checks a stored personalization: each field one
// of PersonalizationNames, named once, with a BoostValue of 1 to
// MaxBoostValue. Errors wrap ErrPersonalField or ErrPersonalBoost.
func CheckPersonalization(fields []PersonalizationField) error {
	for i, f := range fields {
		if !slices.Contains(PersonalizationNames, f.Field) {
			return fmt.Errorf("personalization[%d].field: %w: %q is not one of %v", i, ErrPersonalField, f.Field, PersonalizationNames)
		}
		for _, g := range fields[:i] {
			if g.Field == f.Field {
				return fmt.Errorf("personalization[%d].field: %w: %q is named twice", i, ErrPersonalField, f.Field)
			}
		}
		if f.BoostValue < 1 || f.BoostValue > MaxBoostValue {
			return fmt.Errorf("personalization[%d].boostValue: %w: want an integer from 1 to %d, got %d", i, ErrPersonalBoost, MaxBoostValue, f.BoostValue)
		}
	}
	return nil
}
