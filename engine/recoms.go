package engine

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/render"
)

// RecomsRequest is the body of POST /serve/recoms (spec section 3).
type RecomsRequest struct {
	WebsiteUUID                string         `json:"websiteUuid"`
	TrackingUserID             string         `json:"trackingUserId"`
	Email                      string         `json:"email"`
	CustomerID                 string         `json:"customerId"`
	IncludeRetailMediaInReview Flag           `json:"includeRetailMediaInReview"`
	Requests                   []RecomRequest `json:"requests"`
}

// RecomRequest is one box: managed (Key, a box of the configuration) or
// unmanaged (TrackingKey, with its Count and Sources).
type RecomRequest struct {
	Key         string   `json:"key"`
	TrackingKey string   `json:"trackingKey"`
	Format      string   `json:"format"`
	Fields      []string `json:"fields"`
	// HideAdditionalVariants leaves out a product whose groupingKey an
	// earlier product of the box has; default true.
	HideAdditionalVariants *Flag          `json:"hideAdditionalVariants"`
	Count                  int            `json:"count"`
	Context                map[string]any `json:"context"`
	Sources                []RecomSource  `json:"sources"`
	DeviceType             string         `json:"deviceType"`
}

// RecomSource is one ordered source of a box: up to Limit products (0:
// as many as the box still needs) that match every filter; a managed
// box's sources are the same.
type RecomSource = config.BoxSource

// box is a managed recommendation box, compiled.
type box struct {
	cfg  *config.Box
	tmpl *render.Template
}

// The source types, in the spec's order.
const (
	SourceTop            = "TOP"
	SourceMostBought     = "MOST_BOUGHT"
	SourceMostViewed     = "MOST_VIEWED"
	SourceAlternatives   = "ALTERNATIVES"
	SourceBoughtTogether = "BOUGHT_TOGETHER"
	SourceRetargeted     = "RETARGETED"
	SourceRecentlyBought = "RECENTLY_BOUGHT"
)

// sourceNeeds says what each source needs of the call: context products
// or a visitor.
var sourceNeeds = map[string]string{
	SourceTop: "", SourceMostBought: "", SourceMostViewed: "",
	SourceAlternatives: "products", SourceBoughtTogether: "products",
	SourceRetargeted: "visitor", SourceRecentlyBought: "visitor",
}

// trackingKeyRE is the spec's trackingKey, `[0-9a-zA-Z-]{,100}`: letters,
// digits and hyphens, at most 100, or none (a request tracked under no
// key: its response has "trackingKey": "" and its box counts no
// impression).
var trackingKeyRE = regexp.MustCompile(`^[0-9a-zA-Z-]{0,100}$`)

// The per-response failure codes (spec: "NOT FOUND" with a space).
const (
	codeBadRequest = "BAD_REQUEST"
	codeNotFound   = "NOT FOUND"
)

// RecomsResult is the answer to a RecomsRequest: one response per
// request, in order.
type RecomsResult struct {
	Responses []RecomResponse
}

// RecomResponse is one request's answer: its products (json) or their
// HTML (a managed box's format html), or why not.
type RecomResponse struct {
	Key, TrackingKey string
	Success          bool
	Code, Message    string
	Docs             []uint32 // the products, in order
	// Sponsored is, by product, the retail media campaign that placed
	// it ("" organic); nil when none did.
	Sponsored []string
	Fields    []string
	HTML      *string
	gen       *Generation // whose products Docs are
}

// fail is r failed with code and a message.
func (r *RecomResponse) fail(code, format string, args ...any) {
	r.Success, r.Code, r.Message, r.Docs = false, code, fmt.Sprintf(format, args...), nil
}

// MaxRecomRequests bounds the requests of one recommendations call: a
// page shows a few boxes, and each request costs the call up to
// config.MaxRecomCount products' work (docs/decisions.md,
// Recommendations).
const MaxRecomRequests = 10

// MaxRecomContext bounds the products a request's context names
// (productNumbers and urls together): as many as a visitor's cart keeps
// (behaviour), since every source that reads the context reads each of
// them (docs/decisions.md, Recommendations).
const MaxRecomContext = 50

// Recoms answers a recommendations call from the websites e serves and
// their visitors' behaviour bhv, as of now. A call naming more than one
// of trackingUserId, email and customerId, or more than
// MaxRecomRequests requests, is refused whole (Invalid); so is a
// websiteUuid the server does not serve (NotFound), and a call that
// names its visitor by email or customerId without apiKey being an API
// key of every website it asks (or the admin key): a server-to-server
// lookup, which a browser does by tracking id (Unauthorized). Everything
// else is answered per request: each response has its own success, and
// no product appears twice in one call. ctx cancels the call's renders
// (boxes in format html), which share one render.MaxDuration.
func (e *Engine) Recoms(ctx context.Context, req *RecomsRequest, apiKey string, bhv *Behaviours, now time.Time) (*RecomsResult, error) {
	ids := 0
	for _, s := range []string{req.TrackingUserID, req.Email, req.CustomerID} {
		if s != "" {
			ids++
		}
	}
	if ids > 1 {
		return nil, Invalid("", "give at most one of trackingUserId, email and customerId")
	}
	if len(req.Requests) == 0 {
		return nil, Invalid("requests", "is required: at least one recommendation request")
	}
	if len(req.Requests) > MaxRecomRequests {
		return nil, Invalid("requests", "at most %d requests in a call, got %d", MaxRecomRequests, len(req.Requests))
	}
	var site *Generation
	if req.WebsiteUUID != "" {
		var ok bool
		if site, ok = e.Website(req.WebsiteUUID); !ok {
			return nil, NotFound("websiteUuid", "no website %q is served", req.WebsiteUUID)
		}
	}
	if err := e.authorizeRecoms(req, site, apiKey); err != nil {
		return nil, err
	}
	key := bhv.Key()
	emailHash, customerHash := key.Email(req.Email), key.Customer(req.CustomerID)
	ctx, cancel := context.WithTimeout(ctx, render.MaxDuration)
	defer cancel()
	res := &RecomsResult{Responses: make([]RecomResponse, len(req.Requests))}
	calls := map[*Generation]*recomCall{} // the call's state per website
	rankedReads := maxRankedReads         // the call's, across its websites
	callFor := func(g *Generation) *recomCall {
		c := calls[g]
		if c == nil {
			m := bhv.Model(g.Website.UUID)
			c = &recomCall{ctx: ctx, g: g, m: m, now: now, used: roaring.New(), visitor: m.Resolve(req.TrackingUserID, emailHash, customerHash),
				review: bool(req.IncludeRetailMediaInReview), rankedReads: &rankedReads}
			calls[g] = c
		}
		return c
	}
	for i := range req.Requests {
		r := &req.Requests[i]
		out := &res.Responses[i]
		*out = RecomResponse{Key: r.Key, TrackingKey: r.TrackingKey, Fields: r.Fields}
		switch {
		case r.Key != "" && r.TrackingKey != "":
			out.fail(codeBadRequest, "give key (a managed box) or trackingKey (an unmanaged request), not both")
		case r.Key != "":
			g, b := site, (*box)(nil)
			if g != nil {
				b = g.boxes[r.Key]
			} else if g = e.sites.Load().byBox[r.Key]; g != nil {
				b = g.boxes[r.Key]
			}
			if b == nil {
				out.fail(codeNotFound, "recommendation %q not found", r.Key)
				continue
			}
			callFor(g).managed(r, b, out)
		case site == nil:
			out.fail(codeBadRequest, "websiteUuid is required for an unmanaged request")
		default:
			callFor(site).unmanaged(r, out)
		}
	}
	return res, nil
}

// authorizeRecoms checks apiKey against every website the call could
// answer from (recomsWebsites): each that sets requireApiKey needs one
// of its keys (Authorize), and a call that names its visitor by email or
// customerId needs one of every website's keys, whether it requires one
// or not (AuthorizeKey).
func (e *Engine) authorizeRecoms(req *RecomsRequest, site *Generation, apiKey string) error {
	lookup := req.Email != "" || req.CustomerID != ""
	for _, g := range e.recomsWebsites(req, site) {
		if err := e.Authorize(g, apiKey); err != nil {
			return err
		}
		if !lookup {
			continue
		}
		if err := e.AuthorizeKey(g, apiKey); err != nil {
			return Unauthorized("a visitor is looked up by email or customerId with the website's API key (Authorization: Bearer <key>); a browser names its visitor by trackingUserId: %v", err)
		}
	}
	return nil
}

// recomsWebsites are the websites a call could answer from: site when
// it names one (its boxes alone are looked up then), else each managed
// box's website. A box the server does not serve names none: Recoms
// answers it as not found.
func (e *Engine) recomsWebsites(req *RecomsRequest, site *Generation) []*Generation {
	if site != nil {
		return []*Generation{site}
	}
	t := e.sites.Load()
	var gens []*Generation
	for i := range req.Requests {
		if g := t.byBox[req.Requests[i].Key]; g != nil && !slices.Contains(gens, g) {
			gens = append(gens, g)
		}
	}
	return gens
}

// recomCall is what the requests of one call share.
type recomCall struct {
	ctx     context.Context // cancels the renders
	g       *Generation
	m       *behaviour.Model
	now     time.Time
	visitor behaviour.Who   // the visitor named, when Known
	review  bool            // includeRetailMediaInReview
	used    *roaring.Bitmap // products already answered in this call
	inStock *roaring.Bitmap // the products in stock, once a source asked; read only
	doc     []byte          // a stored doc, reused
	// alts are the alternatives of each context the call asked for, by
	// its docs (alternatives).
	alts map[string][]uint32
	// rankedReads is how many more ranking entries the call may read
	// (maxRankedReads), shared by the call's websites.
	rankedReads *int
}

// unmanaged answers unmanaged request r into out.
func (c *recomCall) unmanaged(r *RecomRequest, out *RecomResponse) {
	if msg := c.check(r); msg != "" {
		out.fail(codeBadRequest, "%s", msg)
		return
	}
	c.answer(r, out, false)
}

// managed answers request r for box b into out: the box's sources,
// count, fields and variants, with the request's context, and its
// format (the box's when the request gives none).
func (c *recomCall) managed(r *RecomRequest, b *box, out *RecomResponse) {
	u := RecomRequest{TrackingKey: b.cfg.Key, Count: b.cfg.Count, Sources: b.cfg.Sources, Fields: r.Fields,
		HideAdditionalVariants: (*Flag)(b.cfg.HideAdditionalVariants), Context: r.Context, DeviceType: r.DeviceType}
	if u.Fields == nil {
		u.Fields, out.Fields = b.cfg.Fields, b.cfg.Fields
	}
	format := strings.ToLower(r.Format)
	if format == "" {
		format = b.cfg.Format
	}
	if format != "" && format != "json" && format != "html" {
		out.fail(codeBadRequest, "format %q: want json or html", format)
		return
	}
	if msg := c.check(&u); msg != "" {
		out.fail(codeBadRequest, "%s", msg)
		return
	}
	if !c.answer(&u, out, true) || format != "html" {
		return
	}
	view := render.RecomsView{Key: b.cfg.Key, Name: b.cfg.Name, Products: make([]render.Item, len(out.Docs))}
	for i, d := range out.Docs {
		if err := json.Unmarshal(c.g.Products.Stored(d), &view.Products[i]); err != nil {
			out.fail(codeBadRequest, "product %s: %v", c.g.Products.Key(d), err)
			return
		}
	}
	markSponsored(view.Products, out.Sponsored)
	html, err := b.tmpl.Execute(c.ctx, view)
	if err != nil {
		out.fail(codeBadRequest, "%v", err)
		return
	}
	html = render.Wrap(styleOf(b.cfg.Template, b.cfg.Style), html, b.cfg.JavaScript)
	out.HTML = &html
}

// answer fills out with the products of checked request r, with the
// retail media campaigns' when sponsored (a managed box), and says
// whether it succeeded.
func (c *recomCall) answer(r *RecomRequest, out *RecomResponse, sponsored bool) bool {
	docs, err := c.fill(r)
	if err == nil && sponsored && len(c.g.campaigns) > 0 {
		docs, out.Sponsored, err = c.sponsor(r, docs)
	}
	if err != nil {
		out.fail(codeBadRequest, "%v", err)
		return false
	}
	out.Success, out.Docs, out.gen = true, docs, c.g
	for _, d := range docs {
		c.used.Add(d)
	}
	return true
}

// check is what is wrong with unmanaged request r, or "".
func (c *recomCall) check(r *RecomRequest) string {
	switch {
	case !trackingKeyRE.MatchString(r.TrackingKey):
		return fmt.Sprintf("trackingKey %q: want at most 100 letters, digits or hyphens", r.TrackingKey)
	case r.Format != "" && !strings.EqualFold(r.Format, "json"):
		return fmt.Sprintf("format %q: an unmanaged request answers json (html needs a managed box's template)", r.Format)
	case r.DeviceType != "" && r.DeviceType != "DESKTOP" && r.DeviceType != "MOBILE":
		return fmt.Sprintf("deviceType %q: want DESKTOP or MOBILE", r.DeviceType)
	case len(r.Fields) > MaxFields:
		return fmt.Sprintf("fields: at most %d field names", MaxFields)
	}
	if err := config.CheckSources(r.Count, r.Sources); err != nil {
		return err.Error()
	}
	named := len(contextValues(r.Context["productNumbers"])) + len(contextValues(r.Context["urls"]))
	if named > MaxRecomContext {
		return fmt.Sprintf("context.productNumbers and context.urls: at most %d products, got %d", MaxRecomContext, named)
	}
	for i, s := range r.Sources {
		switch need := sourceNeeds[s.Type]; {
		case need == "products" && named == 0 && !(s.Type == SourceBoughtTogether && c.hasCart()):
			return fmt.Sprintf("sources[%d]: %s needs context.productNumbers (or context.urls)", i, s.Type)
		case need == "visitor" && !c.visitor.Known():
			return fmt.Sprintf("sources[%d]: %s needs the visitor: trackingUserId (or the retail_id cookie), or an email or customerId seen on an event", i, s.Type)
		}
	}
	return ""
}

// hasCart reports whether the call's visitor has a cart.
func (c *recomCall) hasCart() bool {
	v, ok := c.m.VisitorOf(c.visitor)
	return ok && len(v.Cart) > 0
}

// AppendJSON appends the answer's JSON: {"success": true, "responses":
// [...]}, each response with its key or trackingKey, its success, and
// its products (projected to its fields), its html, or its code and
// message.
func (r *RecomsResult) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"success":true,"responses":[`...)
	doc := getStoredDoc()
	defer putStoredDoc(doc)
	for i := range r.Responses {
		rr := &r.Responses[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		if rr.Key != "" {
			dst = append(dst, `"key":`...)
			dst = appendMarshal(dst, rr.Key)
		} else {
			dst = append(dst, `"trackingKey":`...)
			dst = appendMarshal(dst, rr.TrackingKey)
		}
		if !rr.Success {
			dst = append(dst, `,"success":false,"code":`...)
			dst = appendMarshal(dst, rr.Code)
			dst = append(dst, `,"message":`...)
			dst = appendMarshal(dst, rr.Message)
			dst = append(dst, '}')
			continue
		}
		if rr.HTML != nil {
			dst = append(dst, `,"success":true,"html":`...)
			dst = appendMarshal(dst, *rr.HTML)
			dst = append(dst, '}')
			continue
		}
		dst = append(dst, `,"success":true,"products":[`...)
		for k, d := range rr.Docs {
			if k > 0 {
				dst = append(dst, ',')
			}
			doc.load(rr.gen.Products, d, rr.Fields)
			var extra *productExtra
			if rr.Sponsored != nil && rr.Sponsored[k] != "" {
				extra = &productExtra{campaign: rr.Sponsored[k], noScore: true}
			}
			dst = doc.appendTo(dst, rr.Fields, extra)
		}
		dst = append(dst, "]}"...)
	}
	return append(dst, "]}"...)
}
