package events

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of an event's members. An event is small: a body of more than
// MaxBytes is refused before it is decoded.
const (
	MaxBytes    = 64 << 10 // an event's JSON body
	MaxID       = 256      // bytes of a product number, order number, id, email or key
	MaxText     = 2048     // bytes of a URL or a search phrase
	MaxProducts = 1000     // product numbers or lines of a cart or an order
)

// Check checks e, whose Kind is set, as POST /serve/collect/{kind} takes
// it, and tidies it: it trims the spaces around ids, and drops a line
// quantity of 1 (the default). What each kind needs:
//
//	view      productNumber or url
//	click     productNumber and shown.source (search, page or recoms)
//	cart      productNumbers (an empty list: the cart was emptied)
//	purchase  orderNumber, and productNumbers or lines (not both)
//	search    query and results (how many products it found)
//	pageview  url
//	impression productNumber and shown with its retailMediaCampaignId
//	          (recorded by the server; the HTTP adapter takes none)
//
// Every kind needs websiteUuid; trackingUserId, email and customerId are
// optional here (the server gives an event without a tracking id the
// visitor's cookie). Members another kind carries are refused, so a
// misplaced member is not silently dropped.
func Check(e *Event) error {
	if !slices.Contains(Kinds, e.Kind) && e.Kind != Impression {
		return invalid("", "no event kind %q: want %s", e.Kind, joinKinds(Kinds, "or"))
	}
	for _, s := range []struct {
		name string
		v    *string
	}{{"websiteUuid", &e.Website}, {"trackingUserId", &e.User}, {"email", &e.Email}, {"customerId", &e.CustomerID},
		{"productNumber", &e.ProductNumber}, {"orderNumber", &e.OrderNumber}} {
		if err := checkID(s.name, s.v); err != nil {
			return err
		}
	}
	if e.Website == "" {
		return invalid("websiteUuid", "is required: the website the event happened on")
	}
	if err := checkServerSet(e); err != nil {
		return err
	}
	if err := checkText("url", e.URL); err != nil {
		return err
	}
	if err := checkText("query", e.Query); err != nil {
		return err
	}
	if err := checkMembers(e); err != nil {
		return err
	}
	switch e.Kind {
	case View:
		if e.ProductNumber == "" && e.URL == "" {
			return invalid("", "a view names the product: productNumber or url")
		}
	case Click:
		if e.ProductNumber == "" {
			return invalid("productNumber", "is required: the product clicked")
		}
		if err := checkShown(e.Shown, false); err != nil {
			return err
		}
	case Impression:
		// A sponsored product shown, or a recommendation box shown
		// (source recoms, its key, no product and no campaign).
		box := e.ProductNumber == "" && e.Shown != nil && e.Shown.Source == SourceRecoms && e.Shown.Campaign == ""
		if e.ProductNumber == "" && !box {
			return invalid("productNumber", "is required: the sponsored product shown")
		}
		if err := checkShown(e.Shown, !box); err != nil {
			return err
		}
		if box && e.Shown.Key == "" {
			return invalid("shown.key", "is required: the box shown")
		}
	case Cart:
		if err := checkNumbers("productNumbers", e.ProductNumbers); err != nil {
			return err
		}
	case Purchase:
		if e.OrderNumber == "" {
			return invalid("orderNumber", "is required: an order is counted once by its number")
		}
		switch {
		case len(e.ProductNumbers) > 0 && len(e.Lines) > 0:
			return invalid("lines", "give productNumbers or lines, not both")
		case len(e.ProductNumbers) == 0 && len(e.Lines) == 0:
			return invalid("", "a purchase names what was bought: productNumbers or lines")
		}
		if err := checkNumbers("productNumbers", e.ProductNumbers); err != nil {
			return err
		}
		if err := checkLines(e.Lines); err != nil {
			return err
		}
		if e.Total < 0 || !finite(e.Total) {
			return invalid("total", "%v: want the order's total, 0 or more", e.Total)
		}
	case Search:
		if e.Results == nil {
			return invalid("results", "is required: how many products the search found")
		}
		if *e.Results < 0 {
			return invalid("results", "%d: want 0 or more", *e.Results)
		}
	case Pageview:
		if e.URL == "" {
			return invalid("url", "is required: the page viewed")
		}
	}
	return nil
}

// checkShown checks where a product was shown; campaign: its campaign is
// required.
func checkShown(sh *Shown, campaign bool) error {
	if sh == nil {
		return invalid("shown", "is required: where the product was shown, as {\"source\": \"search\", \"key\": ..., \"position\": ...}")
	}
	switch sh.Source {
	case SourceSearch, SourcePage, SourceRecoms:
	default:
		return invalid("shown.source", "%q: want %s, %s or %s", sh.Source, SourceSearch, SourcePage, SourceRecoms)
	}
	if err := checkID("shown.key", &sh.Key); err != nil {
		return err
	}
	if err := checkID("shown.retailMediaCampaignId", &sh.Campaign); err != nil {
		return err
	}
	if campaign && sh.Campaign == "" {
		return invalid("shown.retailMediaCampaignId", "is required: the campaign that placed the product")
	}
	if sh.Position < 0 {
		return invalid("shown.position", "%d: want the place in the list, from 1", sh.Position)
	}
	return nil
}

// checkMembers refuses the members e's kind does not carry.
func checkMembers(e *Event) error {
	type member struct {
		name  string
		set   bool
		kinds []Kind
	}
	for _, m := range []member{
		{"productNumber", e.ProductNumber != "", []Kind{View, Click, Impression}},
		{"url", e.URL != "", []Kind{View, Pageview}},
		{"shown", e.Shown != nil, []Kind{Click, Impression}},
		{"productNumbers", e.ProductNumbers != nil, []Kind{Cart, Purchase}},
		{"orderNumber", e.OrderNumber != "", []Kind{Purchase}},
		{"lines", e.Lines != nil, []Kind{Purchase}},
		{"total", e.Total != 0, []Kind{Purchase}},
		{"query", e.Query != "", []Kind{Search}},
		{"results", e.Results != nil, []Kind{Search}},
	} {
		if m.set && !slices.Contains(m.kinds, e.Kind) {
			return invalid(m.name, "a %s event has no %s (a member of %s events)", e.Kind, m.name, joinKinds(m.kinds, "and"))
		}
	}
	return nil
}

// checkServerSet refuses the members only the server sets (Seal).
func checkServerSet(e *Event) error {
	for _, m := range []struct {
		name string
		set  bool
	}{{"emailHash", e.EmailHash != 0}, {"customerHash", e.CustomerHash != 0}, {"relink", e.Relink}} {
		if m.set {
			return invalid(m.name, "is set by the server, not sent: send email or customerId")
		}
	}
	return nil
}

// ValidID reports whether s is an id an event takes as its
// trackingUserId: not blank, at most MaxID bytes of UTF-8 once the spaces
// around it are trimmed.
func ValidID(s string) bool {
	return strings.TrimSpace(s) != "" && checkID("", &s) == nil
}

// checkID checks an id and trims the spaces around it: trimmed, it is a
// string of its own, since what counts events (a box's key, a
// campaign's id) keeps it, and a part of what was sent would keep all
// of it (up to MaxBytes, or MaxBatchBytes in a batch).
func checkID(name string, v *string) error {
	s := strings.TrimSpace(*v)
	switch {
	case len(s) > MaxID:
		return invalid(name, "is %d bytes long: at most %d", len(s), MaxID)
	case !utf8.ValidString(s):
		return invalid(name, "is not valid UTF-8")
	}
	if len(s) < len(*v) {
		s = strings.Clone(s)
	}
	*v = s
	return nil
}

func checkText(name, s string) error {
	switch {
	case len(s) > MaxText:
		return invalid(name, "is %d bytes long: at most %d", len(s), MaxText)
	case !utf8.ValidString(s):
		return invalid(name, "is not valid UTF-8")
	}
	return nil
}

func checkNumbers(name string, pns []string) error {
	if len(pns) > MaxProducts {
		return invalid(name, "holds %d products: at most %d", len(pns), MaxProducts)
	}
	for i := range pns {
		field := name + "." + strconv.Itoa(i)
		if err := checkID(field, &pns[i]); err != nil {
			return err
		}
		if pns[i] == "" {
			return invalid(field, "is empty: want a product number")
		}
	}
	return nil
}

func checkLines(lines []Line) error {
	if len(lines) > MaxProducts {
		return invalid("lines", "holds %d lines: at most %d", len(lines), MaxProducts)
	}
	for i := range lines {
		l := &lines[i]
		field := "lines." + strconv.Itoa(i)
		if err := checkID(field+".productNumber", &l.ProductNumber); err != nil {
			return err
		}
		switch {
		case l.ProductNumber == "":
			return invalid(field+".productNumber", "is required: the product bought")
		case l.Quantity < 0 || !finite(l.Quantity):
			return invalid(field+".quantity", "%v: want how many were bought (1 when not given)", l.Quantity)
		case l.Price < 0 || !finite(l.Price):
			return invalid(field+".price", "%v: want the unit price paid, 0 or more", l.Price)
		}
		if l.Quantity == 1 {
			l.Quantity = 0 // the default
		}
	}
	return nil
}

func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// joinKinds lists kinds as a sentence does: "view, click or cart".
func joinKinds(ks []Kind, conj string) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + conj + " " + s[len(s)-1]
}
