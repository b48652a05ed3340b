package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Box is a managed recommendation box: what POST /serve/recoms answers
// for a request that names its key. Keys are unique across the server,
// so a request may name a box without its website.
type Box struct {
	// Key names the box in recommendation requests: 1 to 100 letters,
	// digits or hyphens, unique across the server.
	Key string `json:"key"`
	// Name is the box's display name; its template sees it as .Name.
	Name string `json:"name,omitempty"`
	// Sources fill the box in order, each up to its limit, as an
	// unmanaged request's do (docs/decisions.md, Recommendations).
	Sources []BoxSource `json:"sources"`
	// Count is how many products the box shows.
	Count int `json:"count"`
	// Fields are the members of each product in a json answer; default
	// all. A request's fields replace them.
	Fields []string `json:"fields,omitempty"`
	// Format is the answer when the request gives none: json (the
	// default) or html, rendered with Template.
	Format string `json:"format,omitempty"`
	// Template is an html/template for format html; empty: the built-in
	// one (render.DefaultRecoms).
	Template string `json:"template,omitempty"`
	// Style and JavaScript go around the rendered html (render.Wrap).
	Style      string `json:"style,omitempty"`
	JavaScript string `json:"javascript,omitempty"`
	// HideAdditionalVariants shows one product per groupingKey; default
	// true.
	HideAdditionalVariants *bool `json:"hideAdditionalVariants,omitempty"`
}

// BoxSource is one source of a box.
type BoxSource struct {
	// Type is one of RecomSources: TOP, MOST_BOUGHT, MOST_VIEWED,
	// ALTERNATIVES, BOUGHT_TOGETHER, RETARGETED or RECENTLY_BOUGHT.
	Type string `json:"type"`
	// Limit is how many products the source gives at most, the next
	// source going on; 0: as many as the box still needs.
	Limit int `json:"limit,omitempty"`
	// Filters keep the source's products that match every one: field
	// name to a value or a condition ($eq, the default, $in, $all), at
	// most 100 values.
	Filters map[string]any `json:"filters,omitempty"`
}

// RecomSources are the source types, in the spec's order.
var RecomSources = []string{"TOP", "MOST_BOUGHT", "MOST_VIEWED", "ALTERNATIVES", "BOUGHT_TOGETHER", "RETARGETED", "RECENTLY_BOUGHT"}

// boxKeyRE is a box key: as a trackingKey, letters, digits and hyphens,
// at most 100.
var boxKeyRE = regexp.MustCompile(`^[0-9a-zA-Z-]{1,100}$`)

// validate checks a box's own members (its template is compiled by the
// engine, which knows the template functions).
func (b *Box) validate() error {
	switch {
	case !boxKeyRE.MatchString(b.Key):
		return fmt.Errorf("key %q: want 1 to 100 letters, digits or hyphens", b.Key)
	case b.Format != "" && b.Format != "json" && b.Format != "html":
		return fmt.Errorf("format %q: want json or html", b.Format)
	}
	return CheckSources(b.Count, b.Sources)
}

// MaxRecomCount bounds a box's count and an unmanaged request's: a box
// shows a row or two of products, and the work of a request grows with
// its count (docs/decisions.md, Recommendations).
const MaxRecomCount = 100

// MaxRecomSources bounds a box's sources and an unmanaged request's: a
// box fills from a few, and each source may read its whole list.
const MaxRecomSources = 10

// CheckSources checks what a box and an unmanaged request share: a count
// from 1 to MaxRecomCount, and 1 to MaxRecomSources sources, each of a
// known type with a limit of 0 or more.
func CheckSources(count int, sources []BoxSource) error {
	switch {
	case count <= 0:
		return fmt.Errorf("count %d: want the number of products, more than 0", count)
	case count > MaxRecomCount:
		return fmt.Errorf("count %d: at most %d products", count, MaxRecomCount)
	case len(sources) == 0:
		return fmt.Errorf("sources: at least one is required")
	case len(sources) > MaxRecomSources:
		return fmt.Errorf("sources: at most %d, got %d", MaxRecomSources, len(sources))
	}
	for i, s := range sources {
		if !slices.Contains(RecomSources, s.Type) {
			return fmt.Errorf("sources[%d].type %q: want %s", i, s.Type, strings.Join(RecomSources, ", "))
		}
		if s.Limit < 0 {
			return fmt.Errorf("sources[%d].limit %d: want 0 or more (0: as many as the box still needs)", i, s.Limit)
		}
	}
	return nil
}

// Box finds the website's box keyed key.
func (w *Website) Box(key string) (*Box, bool) {
	for i := range w.Boxes {
		if w.Boxes[i].Key == key {
			return &w.Boxes[i], true
		}
	}
	return nil, false
}
