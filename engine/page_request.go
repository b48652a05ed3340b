package engine

import (
	"errors"
	"strings"

	"github.com/goccy/go-json"
)

// PageRequest is the body of POST /serve/pages/{key} (spec section 2).
type PageRequest struct {
	URL        *string     `json:"url"`
	ID         *int        `json:"id"`
	Format     string      `json:"format"`
	FirstLoad  *Flag       `json:"firstLoad"`
	Params     *PageParams `json:"params"`
	DeviceType string      `json:"deviceType"`
	// TrackingUserID names the visitor whose page view a first load
	// records; the adapter fills it from the retail_id cookie when empty.
	TrackingUserID             string        `json:"trackingUserId"`
	IncludeRetailMediaInReview Flag          `json:"includeRetailMediaInReview"`
	Products                   *PageProducts `json:"products"`
	// Layout is a landing page's layout switch, which real clients of the
	// service the spec describes send; Aisle's pages have no layout
	// around their products, so it is read and ignored.
	Layout Flag `json:"layout"`
}

// PageParams is a page request's input; only its base filters are used.
// The spec says only params.filters is used, which tells a client it may
// send other members: they are read past and ignored (UnmarshalJSON).
type PageParams struct {
	Filters BaseFilters `json:"filters"`
}

// UnmarshalJSON reads params: an object whose filters are decoded and
// whose other members are skipped; anything but an object is a type
// error naming params.
func (p *PageParams) UnmarshalJSON(b []byte) error {
	type plain PageParams // its fields without this method: no recursion
	err := json.Unmarshal(b, (*plain)(p))
	if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) && te.Field == "" {
		te.Field = "params"
	}
	return err
}

// BaseFilters is a page request's params.filters, a base filter object
// (docs/decisions.md, Pages). Its JSON is refused past maxFilterNodes
// nodes before any of it is decoded, so a body's size buys no decoding
// work past the bound.
type BaseFilters map[string]any

// UnmarshalJSON decodes a base filter object of at most maxFilterNodes
// nodes; past them it is an invalid request naming params.filters, and
// a value that is not an object is a type error naming it.
func (f *BaseFilters) UnmarshalJSON(b []byte) error {
	if jsonNodes(b, maxFilterNodes) > maxFilterNodes {
		return tooManyNodes("params.filters")
	}
	err := json.Unmarshal(b, (*map[string]any)(f))
	if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) && te.Field == "" {
		te.Field = "params.filters"
	}
	return err
}

// PageProducts asks for a page's products.
type PageProducts struct {
	ContentSettings
	Sorting []string `json:"sorting"`
}

// Validate checks what the JSON decoder cannot: the members the spec
// requires, ranges and enumerations. Its errors name the member.
func (r *PageRequest) Validate() error {
	switch {
	case r.URL == nil:
		return Invalid("url", "is required: the page's address, for analytics")
	case r.FirstLoad == nil:
		return Invalid("firstLoad", "is required: true for the first render of the page")
	case r.Params == nil:
		return Invalid("params", "is required: an object, whose filters are the base filters ({} for none)")
	case r.Products == nil:
		return Invalid("products", "is required: products.start and products.count")
	case r.Products.Start == nil:
		return Invalid("products.start", "is required")
	}
	if err := r.Products.check("products"); err != nil {
		return err
	}
	r.Format = strings.ToLower(r.Format) // the SDK's "HTML", "JSON"
	switch r.Format {
	case "", "json", "html":
	default:
		return Invalid("format", "must be \"html\" or \"json\", got %q", r.Format)
	}
	switch r.DeviceType {
	case "", "DESKTOP", "MOBILE":
	default:
		return Invalid("deviceType", "must be DESKTOP or MOBILE, got %q", r.DeviceType)
	}
	return nil
}

// html reports whether the answer is rendered: html is a page's default.
func (r *PageRequest) html() bool { return r.Format != "json" }
