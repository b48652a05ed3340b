package config

import (
	"fmt"
	"regexp"
	"slices"
	"time"
)

// Campaign is a retail media campaign: products a brand pays to show at
// reserved positions of search results, pages and recommendation boxes
// (docs/decisions.md, Retail media). Campaigns are configured per
// website, through the same change path as the rest.
type Campaign struct {
	// ID names the campaign in responses (retailMediaCampaignId) and in
	// its statistics; unique within its website.
	ID string `json:"id"`
	// Name is the campaign's display name.
	Name string `json:"name,omitempty"`
	// State is one of CampaignStates. Only ACTIVE campaigns are injected,
	// and REVIEW ones for requests with includeRetailMediaInReview.
	State string `json:"state"`
	// Start and End bound when it runs: from Start (inclusive) to End
	// (exclusive); absent, open on that side.
	Start *time.Time `json:"start,omitempty"`
	End   *time.Time `json:"end,omitempty"`
	// Products are the product numbers it promotes, the first that fits
	// a request first.
	Products []string `json:"products"`
	// Placements are where it may show: "search", "pages", "recoms";
	// empty: all three. Devices: DESKTOP, MOBILE; empty: both (a request
	// that names no device counts as either).
	Placements []string `json:"placements,omitempty"`
	Devices    []string `json:"devices,omitempty"`
	// Target narrows the requests it shows on; empty: every request of
	// its placements.
	Target CampaignTarget `json:"target,omitzero"`
	// Positions are the places it reserves in a list, from 1 ([1, 5]: the
	// first and the fifth product).
	Positions []int `json:"positions"`
}

// CampaignTarget is what a campaign targets; each member given must hold.
type CampaignTarget struct {
	// Queries: a search whose words include every word of one of them.
	// A campaign with queries shows in searches only.
	Queries []string `json:"queries,omitempty"`
	// Hierarchies ("Garden$Tools$") and Brands: a request whose products
	// (after its filters) include one of that category or brand.
	Hierarchies []string `json:"hierarchies,omitempty"`
	Brands      []string `json:"brands,omitempty"`
}

// The campaign states.
const (
	CampaignDraft  = "DRAFT"
	CampaignReview = "REVIEW"
	CampaignActive = "ACTIVE"
	CampaignPaused = "PAUSED"
	CampaignEnded  = "ENDED"
)

// CampaignStates are the states in their usual order.
var CampaignStates = []string{CampaignDraft, CampaignReview, CampaignActive, CampaignPaused, CampaignEnded}

// The placements a campaign may name.
const (
	PlaceSearch = "search"
	PlacePages  = "pages"
	PlaceRecoms = "recoms"
)

// MaxPosition bounds a reserved position: the first 100 products.
const MaxPosition = 100

var campaignIDRE = regexp.MustCompile(`^[0-9a-zA-Z_.-]{1,100}$`)

func (c *Campaign) validate() error {
	switch {
	case !campaignIDRE.MatchString(c.ID):
		return fmt.Errorf("id %q: want 1 to 100 letters, digits, '-', '_' or '.'", c.ID)
	case !slices.Contains(CampaignStates, c.State):
		return fmt.Errorf("state %q: want one of %v", c.State, CampaignStates)
	case c.Start != nil && c.End != nil && !c.End.After(*c.Start):
		return fmt.Errorf("end %s: must be after start %s", c.End.Format(time.RFC3339), c.Start.Format(time.RFC3339))
	case len(c.Products) == 0:
		return fmt.Errorf("products: at least one product number is required")
	case len(c.Positions) == 0:
		return fmt.Errorf("positions: at least one position is required (1: the first product)")
	}
	for i, p := range c.Positions {
		if p < 1 || p > MaxPosition {
			return fmt.Errorf("positions[%d]: %d, want 1 to %d", i, p, MaxPosition)
		}
		if slices.Contains(c.Positions[:i], p) {
			return fmt.Errorf("positions[%d]: %d listed twice", i, p)
		}
	}
	for i, p := range c.Placements {
		if p != PlaceSearch && p != PlacePages && p != PlaceRecoms {
			return fmt.Errorf("placements[%d]: %q, want search, pages or recoms", i, p)
		}
	}
	for i, d := range c.Devices {
		if d != "DESKTOP" && d != "MOBILE" {
			return fmt.Errorf("devices[%d]: %q, want DESKTOP or MOBILE", i, d)
		}
	}
	for i, pn := range c.Products {
		if pn == "" {
			return fmt.Errorf("products[%d]: empty product number", i)
		}
	}
	return nil
}

// ShowsIn reports whether c may show in placement for device ("" for a
// request that names none).
func (c *Campaign) ShowsIn(placement, device string) bool {
	return (len(c.Placements) == 0 || slices.Contains(c.Placements, placement)) &&
		(len(c.Devices) == 0 || device == "" || slices.Contains(c.Devices, device))
}

// RunsAt reports whether c is a candidate at now: ACTIVE, or REVIEW when
// review is asked for, inside its dates.
func (c *Campaign) RunsAt(now time.Time, review bool) bool {
	if c.State != CampaignActive && !(review && c.State == CampaignReview) {
		return false
	}
	return (c.Start == nil || !now.Before(*c.Start)) && (c.End == nil || now.Before(*c.End))
}
