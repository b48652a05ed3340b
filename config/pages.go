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
	// Key names the page in POST /serve/pages/{key}: 1 to 100 letters,
	// digits, '-', '_' or '.', unique across the server.
	Key string `json:"key"`
	// Name is the page's display name; its template sees it as .Name.
	Name string `json:"name,omitempty"`
	// Versions are the page's versions: exactly one live, the others
	// drafts a request reaches by id.
	Versions []PageVersion `json:"versions"`
}

// PageVersion is one version of a page.
type PageVersion struct {
	// ID names the version within its page: a request's id selects it.
	ID int `json:"id"`
	// Status is "live", the version a request without an id gets
	// (exactly one is), or "draft".
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
	Devices map[string]Device `json:"devices,omitempty"`
	// MaxFacetValues bounds the values a LIST facet returns, as a
	// search version's; 0: 100.
	MaxFacetValues int `json:"maxFacetValues,omitempty"`
	// Template is an html/template for format html (the default of a
	// page); empty: the built-in grid (render.DefaultPage). Style and
	// JavaScript are returned beside the html as they are.
	Template   string `json:"template,omitempty"`
	Style      string `json:"style,omitempty"`
	JavaScript string `json:"javascript,omitempty"`
	// Boosts weigh popularity, stock, sale and newness, as a search
	// version's; nil: DefaultBoosts.
	Boosts *Boosts `json:"boosts,omitempty"`
	// SearchConfig names the website's search configuration whose
	// personalization ranks the page's products for a known visitor;
	// empty: the page is not personalized.
	SearchConfig string `json:"searchConfig,omitempty"`
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
	return checkVersions(len(p.Versions), func(i int) (int, string) { return p.Versions[i].ID, p.Versions[i].Status },
		func(i int) error { return w.validatePageVersion(&p.Versions[i]) })
}

func (w *Website) validatePageVersion(v *PageVersion) error {
	if err := w.validateFacets("facets", v.Facets); err != nil {
		return err
	}
	if err := w.validateSorting("sortOptions", v.SortOptions); err != nil {
		return err
	}
	if v.SearchConfig != "" {
		if _, ok := w.SearchConfig(v.SearchConfig); !ok {
			return fmt.Errorf("searchConfig: the website has no search configuration %q", v.SearchConfig)
		}
	}
	return w.validateListing(v.Devices, v.MaxFacetValues, v.Boosts)
}
