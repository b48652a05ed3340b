package httpapi

import (
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
)

// pagesPrefix begins POST /serve/pages/{key}.
const pagesPrefix = "/serve/pages/"

// page serves POST /serve/pages/{key} (spec section 2): JSON or
// text/plain. A first load records a page view of its url for the
// visitor (trackingUserId, else the retail_id cookie, else a new id set
// in it) when the server takes events, without waiting for it to be
// durable.
func (s *Server) page(ctx *fasthttp.RequestCtx, key string) error {
	if key == "" || strings.Contains(key, "/") {
		return engine.NotFound("key", "no page with key %q: the address is /serve/pages/{key}", key)
	}
	b, err := body(ctx, s.opt.MaxBodyBytes)
	if err != nil {
		return err
	}
	var req engine.PageRequest
	if err := decode(b, &req); err != nil {
		return err
	}
	if req.TrackingUserID == "" { // the visitor whose profile personalizes the ranking
		req.TrackingUserID = cookieID(ctx)
	}
	cc := watchClient(ctx)
	defer cc.stop()
	res, err := s.eng.Page(cc, key, &req, bearer(ctx), s.eng.Now())
	if err != nil {
		return err
	}
	if c := s.opt.Collector; c != nil && res.FirstLoad {
		e := events.Event{Kind: events.Pageview, Website: res.Website, URL: *req.URL, User: req.TrackingUserID}
		v := visitor{ctx: ctx}
		v.fill(&e)
		if err := c.Record(&e); err != nil { // a url the events refuse: the page is answered all the same
			s.opt.Logger.Warn("page view not recorded", "page", key, "err", err)
		} else {
			v.setCookie()
		}
	}
	s.recordImpressions(ctx, res.Impressions(req.TrackingUserID))
	s.writeJSON(ctx, res.AppendJSON)
	return nil
}

// recordImpressions records the impression events of an answer's
// sponsored products when the server takes events, without waiting for
// them to be durable; an event naming no visitor gets the retail_id
// cookie's (read only then: most answers have no sponsored product).
func (s *Server) recordImpressions(ctx *fasthttp.RequestCtx, evs []*events.Event) {
	c := s.opt.Collector
	if c == nil || len(evs) == 0 {
		return
	}
	cookie := cookieID(ctx)
	for _, e := range evs {
		if e.User == "" {
			e.User = cookie
		}
		if err := c.Record(e); err != nil {
			s.opt.Logger.Warn("impression not recorded", "campaign", e.Shown.Campaign, "err", err)
		}
	}
}
