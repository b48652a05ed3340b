package httpapi

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
)

// POST /serve/collect/{kind}: a behaviour event (package events), as JSON
// or text/plain (a browser's simple request, navigator.sendBeacon), at
// most events.MaxBytes. The answer comes once the event is durable:
//
//	{"success": true, "seq": 42, "trackingUserId": "…"}
//
// The visitor is the event's trackingUserId, else the retail_id cookie,
// else a new id, set in a retail_id cookie for a year (SameSite=None;
// Secure over https, Lax over plain http) and returned; the server sets
// the event's time. Until Options.Collector is set the route answers
// 404. (docs/decisions.md, Tracking.)
const collectPrefix = "/serve/collect/"

// POST /serve/collect: a batch of events, {"events": [event, …]}, each
// with its kind, at most events.MaxBatch in events.MaxBatchBytes, as a
// tracker that queues events sends them. Every event is checked before
// any is logged (an error names "events.I.member"), and the answer comes
// once all are durable:
//
//	{"success": true, "seq": 42, "trackingUserId": "…", "events": 20}
//
// Events without a trackingUserId are the visitor's of the retail_id
// cookie, or of one new id for the batch, as a single event's.
const collectBatchPath = "/serve/collect"

// retailIDCookie is the tracking id's cookie, as the spec names it.
const retailIDCookie = "retail_id"

// retailIDMaxAge is the cookie's life in seconds: a year.
const retailIDMaxAge = 365 * 24 * 60 * 60

// collected is the answer to an event, or to a batch (Events).
type collected struct {
	Success bool   `json:"success"`
	Seq     uint64 `json:"seq"`
	User    string `json:"trackingUserId"`
	Events  int    `json:"events,omitempty"`
}

// impressionRefused says why a client cannot send an impression.
const impressionRefused = "impressions are recorded by the server as it shows a sponsored product; a click on one names its shown.retailMediaCampaignId"

// collect serves collectPrefix + kind.
func (s *Server) collect(ctx *fasthttp.RequestCtx, kind string) error {
	c := s.opt.Collector
	if c == nil {
		return engine.NotFound("", "no endpoint %s%s: this server takes no events", collectPrefix, kind)
	}
	if kind == string(events.Impression) {
		return engine.Invalid("kind", "%s", impressionRefused)
	}
	b, err := body(ctx, events.MaxBytes)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return engine.Invalid("", "request body is empty: send the event as a JSON object")
	}
	e, err := events.DecodeBody(b)
	if err != nil {
		return eventError(err)
	}
	if e.Kind != "" && string(e.Kind) != kind {
		return engine.Invalid("kind", "the body says %q where the address says %q: leave it out", e.Kind, kind)
	}
	e.Kind, e.Time = events.Kind(kind), 0 // the server's time, not the client's
	v := visitor{ctx: ctx}
	v.fill(&e)
	seq, err := c.Collect(&e, bearer(ctx))
	if err != nil {
		return err
	}
	v.setCookie()
	writeCollected(ctx, collected{Success: true, Seq: seq, User: e.User})
	return nil
}

// collectBatch serves collectBatchPath.
func (s *Server) collectBatch(ctx *fasthttp.RequestCtx) error {
	c := s.opt.Collector
	if c == nil {
		return engine.NotFound("", "no endpoint %s: this server takes no events", collectBatchPath)
	}
	b, err := body(ctx, events.MaxBatchBytes)
	if err != nil {
		return err
	}
	evs, err := events.DecodeBatch(b)
	if err != nil {
		return eventError(err)
	}
	if err := s.limits.take(ctx, groupCollect, len(evs)-1); err != nil { // the request took one
		return err
	}
	v := visitor{ctx: ctx}
	ptrs := make([]*events.Event, len(evs))
	for i := range evs {
		e := &evs[i]
		if e.Kind == events.Impression {
			return engine.Invalid(fmt.Sprintf("events.%d.kind", i), "%s", impressionRefused)
		}
		e.Time = 0 // the server's time, not the client's
		v.fill(e)
		ptrs[i] = e
	}
	seq, err := c.CollectAll(ptrs, bearer(ctx))
	if err != nil {
		return err
	}
	v.setCookie()
	user := v.id
	if user == "" { // every event named its visitor
		user = evs[0].User
	}
	writeCollected(ctx, collected{Success: true, Seq: seq, User: user, Events: len(evs)})
	return nil
}

// eventError is an events.Error as the engine's Invalid, naming the
// member; other errors as they are.
func eventError(err error) error {
	var ee *events.Error
	if errors.As(err, &ee) {
		return engine.Invalid(ee.Field, "%s", ee.Message)
	}
	return err
}

// writeCollected answers with a.
func writeCollected(ctx *fasthttp.RequestCtx, a collected) {
	out, _ := json.Marshal(a)
	ctx.SetContentType("application/json")
	ctx.SetBody(out)
}

// visitor is the request's tracking id for its events that name none:
// the retail_id cookie, else a new id, which the answer sets. It is
// looked for (or made) only when an event needs it.
type visitor struct {
	ctx   *fasthttp.RequestCtx
	id    string
	isNew bool
}

// fill gives e the visitor's id when it names no tracking id.
func (v *visitor) fill(e *events.Event) {
	if strings.TrimSpace(e.User) != "" {
		return
	}
	if v.id == "" {
		if v.id = cookieID(v.ctx); v.id == "" {
			v.id, v.isNew = newTrackingID(), true
		}
	}
	e.User = v.id
}

// cookieID is the retail_id cookie's tracking id: "" when there is none,
// or when it is no id an event takes (events.ValidID: blank, over
// events.MaxID bytes, not UTF-8), so that such a cookie is replaced like
// a missing one rather than failing every event of its browser.
func cookieID(ctx *fasthttp.RequestCtx) string {
	id := string(ctx.Request.Header.Cookie(retailIDCookie))
	if !events.ValidID(id) {
		return ""
	}
	return id
}

// setCookie sets a new id in the answer's retail_id cookie.
func (v *visitor) setCookie() {
	if v.isNew {
		setRetailID(v.ctx, v.id)
	}
}

// newTrackingID is a random tracking id: 128 bits, hex.
func newTrackingID() string {
	var b [16]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand.Read does not fail
	return hex.EncodeToString(b[:])
}

// setRetailID sets the retail_id cookie to id for a year: SameSite=None
// and Secure over https (a shop's pages on another origin send it back),
// Lax over plain http, where browsers refuse SameSite=None.
func setRetailID(ctx *fasthttp.RequestCtx, id string) {
	var ck fasthttp.Cookie
	ck.SetKey(retailIDCookie)
	ck.SetValue(id)
	ck.SetPath("/")
	ck.SetMaxAge(retailIDMaxAge)
	if secure(ctx) {
		ck.SetSecure(true)
		ck.SetSameSite(fasthttp.CookieSameSiteNoneMode)
	} else {
		ck.SetSameSite(fasthttp.CookieSameSiteLaxMode)
	}
	ctx.Response.Header.SetCookie(&ck)
}

// secure reports whether the client reached the server over https: TLS
// here, or a proxy in front that says so (X-Forwarded-Proto).
func secure(ctx *fasthttp.RequestCtx) bool {
	return ctx.IsTLS() || strings.EqualFold(string(ctx.Request.Header.Peek("X-Forwarded-Proto")), "https")
}
