// Package events holds what a shop's visitors did, as Aisle records it:
// the event kinds of POST /serve/collect/{kind} (a product viewed, a
// result clicked, the cart, a purchase, a search, a page view), the
// batches of POST /serve/collect, their members and limits, and their
// one encoding, JSON, used on the wire, in the change log and in a
// behaviour log (aisle import --events). It decodes and checks events
// (Decode, DecodeBody, DecodeBatch, DecodeChecked, Check) and replaces a
// customer's email and id with keyed hashes (IdentityKey.Seal). It does
// not store or count them: the store logs events, and package behaviour
// folds them into counters, neighbours and visitors' histories.
package events

// Kind is what happened.
type Kind string

// The event kinds, the {kind} of POST /serve/collect/{kind}.
const (
	View     Kind = "view"     // a product page: productNumber or url
	Click    Kind = "click"    // a product clicked where Aisle showed it
	Cart     Kind = "cart"     // the cart as it is now
	Purchase Kind = "purchase" // an order
	Search   Kind = "search"   // a search phrase and how many results it had
	Pageview Kind = "pageview" // any other page: url
	// Impression is a sponsored product the server showed (retail
	// media), or a recommendation box it answered (Shown.Key, no
	// product): recorded by the server as it answers, never collected.
	Impression Kind = "impression"
)

// Kinds lists the kinds a visitor's browser or the shop sends, in the
// order the documentation gives them (Impression is the server's).
var Kinds = []Kind{View, Click, Cart, Purchase, Search, Pageview}

// Where a clicked product was shown: Shown.Source.
const (
	SourceSearch = "search" // a /serve/search answer; Key is the search configuration key
	SourcePage   = "page"   // a /serve/pages answer; Key is the page key
	SourceRecoms = "recoms" // a /serve/recoms answer; Key is the box key or trackingKey
)

// Event is one thing a visitor did. Which members an event carries
// depends on its Kind (Parse checks them); the rest are empty.
type Event struct {
	Kind    Kind   `json:"kind"`
	Website string `json:"websiteUuid"`
	// Time is when the server received the event, in Unix milliseconds;
	// set by the server, or by an import of an earlier behaviour log.
	Time int64 `json:"time,omitempty"`

	// Who: the tracking id (the retail_id cookie when the event names
	// none); Email and CustomerID link the shop's customer to it.
	User       string `json:"trackingUserId,omitempty"`
	Email      string `json:"email,omitempty"`
	CustomerID string `json:"customerId,omitempty"`
	// Set by the server as it logs the event (IdentityKey.Seal), never
	// taken from a sender (Check refuses them): EmailHash and
	// CustomerHash stand for Email and CustomerID, which the log does
	// not keep; Relink says the sender held the website's key, so the
	// event may move an email's or customer id's link to another
	// tracking id (without it, only an email or customer id linked to
	// none is linked).
	EmailHash    uint64 `json:"emailHash,omitempty"`
	CustomerHash uint64 `json:"customerHash,omitempty"`
	Relink       bool   `json:"relink,omitempty"`

	// View, Click, Impression: the product. View and Pageview: the
	// page's address.
	ProductNumber string `json:"productNumber,omitempty"`
	URL           string `json:"url,omitempty"`
	// Click, Impression: where the product was shown.
	Shown *Shown `json:"shown,omitempty"`
	// Cart: the cart's products; Purchase: the order's (or Lines).
	ProductNumbers []string `json:"productNumbers,omitempty"`
	// Purchase.
	OrderNumber string  `json:"orderNumber,omitempty"`
	Lines       []Line  `json:"lines,omitempty"`
	Total       float64 `json:"total,omitempty"`
	// Search: the phrase and how many products it found.
	Query   string `json:"query,omitempty"`
	Results *int   `json:"results,omitempty"`
}

// Shown is where a clicked product was shown.
type Shown struct {
	Source string `json:"source"`        // SourceSearch, SourcePage or SourceRecoms
	Key    string `json:"key,omitempty"` // the configuration, page or box key
	// Position is the product's place in the list shown, from 1; 0 when
	// not given.
	Position int `json:"position,omitempty"`
	// Campaign is the retail media campaign that placed the product
	// (its retailMediaCampaignId): a click on a sponsored product names
	// it, so the campaign's clicks are counted; an impression always.
	Campaign string `json:"retailMediaCampaignId,omitempty"`
}

// Line is a line of an order.
type Line struct {
	ProductNumber string `json:"productNumber"`
	// Quantity is how many were bought: 1 when not given.
	Quantity float64 `json:"quantity,omitempty"`
	Price    float64 `json:"price,omitempty"` // the unit price paid
}

// Products is the product numbers an event names: the viewed or clicked
// product, the cart's, or the order's lines (in order, as given).
func (e *Event) Products() []string {
	switch {
	case e.ProductNumber != "":
		return []string{e.ProductNumber}
	case len(e.Lines) > 0:
		pns := make([]string, len(e.Lines))
		for i, l := range e.Lines {
			pns[i] = l.ProductNumber
		}
		return pns
	}
	return e.ProductNumbers
}
