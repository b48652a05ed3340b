package config

import (
	"fmt"
	"regexp"
)

// Page is a managed listing, a category or landing page a shop builds in
// the console: what POST /serve/pages/{key} answers. Keys are unique
// across the server, since the request names no website. A page has
// versions as a search configuration has: exactly one live, the others
// drafts a request reaches by id.
type Page struct {
	Key      string        `json:"key"`
	Name     string        `json:"name,omitempty"`
	Versions []PageVersion `json:"versions"`
}

// PageVersion is one version of a page.
type PageVersion struct {
	ID     int    `json:"id"`
	Status string `json:"status"`
	// Filters are the page's base filters, in the syntax of a request's
	// params.filters (docs/decisions.md, Pages): the page shows the
	// products both allow. Empty: every product.
	Filters map[string]any `json:"filters,omitempty"`
	// Sorting are the sorting strings used when a request gives none;
	// empty: catalog order (or popularity, with Boosts.Listing).
	Sorting []string `json:"sorting,omitempty"`
	// Facets and SortOptions are what a first load returns, as a search
	// version's facets and sorting.
	Facets      []Facet      `json:"facets,omitempty"`
	SortOptions []SortOption `json:"sortOptions,omitempty"`
	// Devices override Facets, SortOptions and MaxFacetValues for
	// DESKTOP or MOBILE requests.
	Devices        map[string]Device `json:"devices,omitempty"`
	MaxFacetValues int               `json:"maxFacetValues,omitempty"`
	// Template is an html/template for format html (the default of a
	// page); empty: the built-in grid (render.DefaultPage). Style and
	// JavaScript are returned beside the html as they are.
	Template   string `json:"template,omitempty"`
	Style      string `json:"style,omitempty"`
	JavaScript string `json:"javascript,omitempty"`
	// Boosts weigh popularity, stock, sale and newness, as a search
	// version's; nil: DefaultBoosts.
	Boosts *Boosts `json:"boosts,omitempty"`
}

// pageKeyRE is a page key: it is a path segment of the request.
var pageKeyRE = regexp.MustCompile(`^[0-9a-zA-Z_.-]{1,100}$`)

// validatePage checks a page's own members; its base filters and
// template are compiled by the engine, which knows the indexes and the
// template functions.
func (w *Website) validatePage(p *Page) error {
	if !pageKeyRE.MatchString(p.Key) {
		return fmt.Errorf("key %q: want 1 to 100 letters, digits, '-', '_' or '.'", p.Key)
	}
	live := 0
	ids := map[int]bool{}
	for i := range p.Versions {
		v := &p.Versions[i]
		if ids[v.ID] {
			return fmt.Errorf("versions[%d]: id %d used twice", i, v.ID)
		}
		ids[v.ID] = true
		switch v.Status {
		case StatusLive:
			live++
		case StatusDraft:
		default:
			return fmt.Errorf("versions[%d].status: must be %q or %q, got %q", i, StatusLive, StatusDraft, v.Status)
		}
		if err := w.validatePageVersion(v); err != nil {
			return fmt.Errorf("versions[%d]: %w", i, err)
		}
	}
	if live != 1 {
		return fmt.Errorf("versions: exactly one must be live, found %d", live)
	}
	return nil
}

func (w *Website) validatePageVersion(v *PageVersion) error {
	if err := w.validateFacets("facets", v.Facets); err != nil {
		return err
	}
	if err := w.validateSorting("sortOptions", v.SortOptions); err != nil {
		return err
	}
	if err := w.validateDevices(v.Devices); err != nil {
		return err
	}
	if v.MaxFacetValues < 0 {
		return fmt.Errorf("maxFacetValues: must not be negative")
	}
	if v.Boosts != nil {
		return w.validateBoosts(v.Boosts)
	}
	return nil
}
