package engine

import "strings"

// SearchRequest is the body of POST /serve/search.
type SearchRequest struct {
	Query                      *string          `json:"query"`
	Key                        *string          `json:"key"`
	ID                         *int             `json:"id"`
	TrackingUserID             string           `json:"trackingUserId"`
	Products                   *ProductSettings `json:"products"`
	Categories                 *ContentSettings `json:"categories"`
	Brands                     *ContentSettings `json:"brands"`
	SitePages                  *ContentSettings `json:"sitePages"`
	BlogPosts                  *ContentSettings `json:"blogPosts"`
	Redirects                  *PageSettings    `json:"redirects"`
	Format                     string           `json:"format"`
	DeviceType                 string           `json:"deviceType"`
	IncludeRetailMediaInReview Flag             `json:"includeRetailMediaInReview"`
}

// PageSettings is the start and count every result type takes.
type PageSettings struct {
	Start *int `json:"start"`
	Count *int `json:"count"`
}

// ContentSettings asks for categories, brands, site pages or blog posts.
type ContentSettings struct {
	PageSettings
	Fields  []string `json:"fields"`
	Filters []string `json:"filters"`
}

// ProductSettings asks for products.
type ProductSettings struct {
	ContentSettings
	Sorting               []string `json:"sorting"`
	ReturnFilters         Flag     `json:"returnFilters"`
	ExcludeSiblingFilters []string `json:"excludeSiblingFilters"`
	ReturnInitialContent  Flag     `json:"returnInitialContent"`
}

// Limits on one request, documented in docs/decisions.md.
const (
	MaxCount   = 1000
	MaxWindow  = 100_000 // start + count
	MaxFilters = 100
	MaxFields  = 100 // names in a field list
	MaxQuery   = 512 // bytes
)

// check checks the settings' window, field list and filters; field is
// their member's name.
func (c *ContentSettings) check(field string) error {
	if _, _, err := c.window(field); err != nil {
		return err
	}
	if len(c.Fields) > MaxFields {
		return Invalid(field+".fields", "at most %d field names", MaxFields)
	}
	if len(c.Filters) > MaxFilters {
		return Invalid(field+".filters", "at most %d filters", MaxFilters)
	}
	return nil
}

func (p *PageSettings) window(field string) (start, count int, err error) {
	if p.Count == nil {
		return 0, 0, Invalid(field+".count", "is required")
	}
	count = *p.Count
	if p.Start != nil {
		start = *p.Start
	}
	switch {
	case start < 0:
		return 0, 0, Invalid(field+".start", "must not be negative, got %d", start)
	case count < 0:
		return 0, 0, Invalid(field+".count", "must not be negative, got %d", count)
	case count > MaxCount:
		return 0, 0, Invalid(field+".count", "must be at most %d, got %d", MaxCount, count)
	case start > MaxWindow-count: // not start+count, which can overflow
		return 0, 0, Invalid(field+".start", "start + count must be at most %d", MaxWindow)
	}
	return start, count, nil
}

// Validate checks what the JSON decoder cannot: required members, ranges
// and enumerations.
func (r *SearchRequest) Validate() error {
	if r.Query == nil {
		return Invalid("query", "is required")
	}
	if len(*r.Query) > MaxQuery {
		return Invalid("query", "must be at most %d bytes", MaxQuery)
	}
	if r.Key == nil || *r.Key == "" {
		return Invalid("key", "is required")
	}
	r.Format = strings.ToLower(r.Format) // the SDK's "HTML", "JSON"
	switch r.Format {
	case "", "json", "html":
	default:
		return Invalid("format", "must be \"json\" or \"html\", got %q", r.Format)
	}
	switch r.DeviceType {
	case "", "DESKTOP", "MOBILE":
	default:
		return Invalid("deviceType", "must be DESKTOP or MOBILE, got %q", r.DeviceType)
	}
	if p := r.Products; p != nil {
		if err := p.check("products"); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		name string
		s    *ContentSettings
	}{{"categories", r.Categories}, {"brands", r.Brands}, {"sitePages", r.SitePages}, {"blogPosts", r.BlogPosts}} {
		if c.s == nil {
			continue
		}
		if err := c.s.check(c.name); err != nil {
			return err
		}
	}
	if r.Redirects != nil {
		if _, _, err := r.Redirects.window("redirects"); err != nil {
			return err
		}
	}
	return nil
}
