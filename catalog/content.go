package catalog

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-json"
)

// contentFields are the JSON member names of Content, for suggestions.
var contentFields = jsonNames(reflect.TypeFor[Content]())

// Validate checks a content item before it is stored, naming the field at
// fault; it trims id and title first, so "  " is missing.
func (c *Content) Validate() error {
	c.ID, c.Title = strings.TrimSpace(c.ID), strings.TrimSpace(c.Title)
	switch {
	case !slices.Contains(ContentKinds, c.Kind):
		return fieldError("kind", "must be one of %s, got %q", kindList(), c.Kind)
	case c.ID == "":
		return fieldError("id", "is required")
	case strings.Contains(c.ID, "/"):
		return fieldError("id", "must not contain /, got %q", c.ID)
	case c.Title == "":
		return fieldError("title", "is required")
	}
	for i, level := range c.Hierarchy {
		if strings.TrimSpace(level) == "" {
			return fieldError(fmt.Sprintf("hierarchy[%d]", i), "is empty")
		}
		if strings.Contains(level, "$") {
			return fieldError(fmt.Sprintf("hierarchy[%d]", i), "must not contain $ (the hierarchy filter separator)")
		}
	}
	return nil
}

func kindList() string {
	names := make([]string, len(ContentKinds))
	for i, k := range ContentKinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// DecodeContent reads one content item, a JSON object, checked as a feed
// row is (unknown members with suggestions, types), then validated.
func DecodeContent(raw []byte) (*Content, error) {
	c := new(Content)
	if err := json.UnmarshalWithOption(raw, c, strict); err != nil {
		return nil, describeJSON(err, contentFields, false)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}
