package gqltype

import (
	"reflect"

	"github.com/aisle-search/aisle/config"
)

// NewConfigRegistry is a Registry set up for package config's types, the
// admin schema's: the search configuration types named as the console
// names them (config.File is "Configuration", config.SearchConfig
// "SearchConfiguration", config.SearchVersion
// "SearchConfigurationVersion", config.Box "RecommendationBox",
// Website.Search "searchConfigurations", Website.Boxes
// "recommendationBoxes"),
// and config.FieldType and config.FacetType enums of their constants,
// described by their comments.
func NewConfigRegistry() *Registry {
	r := NewRegistry()
	r.RenameType(reflect.TypeFor[config.File](), "Configuration")
	r.RenameType(reflect.TypeFor[config.SearchConfig](), "SearchConfiguration")
	r.RenameType(reflect.TypeFor[config.SearchVersion](), "SearchConfigurationVersion")
	r.RenameType(reflect.TypeFor[config.Box](), "RecommendationBox")
	r.RenameType(reflect.TypeFor[config.BoxSource](), "RecommendationSource")
	r.RenameField(reflect.TypeFor[config.Website](), "Search", "searchConfigurations")
	r.RenameField(reflect.TypeFor[config.Website](), "Boxes", "recommendationBoxes")
	for _, t := range []reflect.Type{reflect.TypeFor[config.FieldType](), reflect.TypeFor[config.FacetType]()} {
		r.Enum(t, t.Name(), descriptions[docKey(t)], enumValues[docKey(t)])
	}
	return r
}
