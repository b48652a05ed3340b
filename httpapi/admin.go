package httpapi

import (
	"bytes"
	"strings"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/replica"
)

// The admin API: writes while serving, authorised by an admin key of the
// website (the operator's key for PUT /admin/v1/config; docs/decisions.md,
// Admin API).
//
//	POST   /admin/v1/websites/{websiteUuid}/products                  upsert a batch
//	DELETE /admin/v1/websites/{websiteUuid}/products                  delete a list: {"productNumbers": [...]}
//	DELETE /admin/v1/websites/{websiteUuid}/products/{productNumber}  delete one
//	POST   /admin/v1/websites/{websiteUuid}/content                   upsert content items
//	DELETE /admin/v1/websites/{websiteUuid}/content/{kind}/{id}       delete one
//
// A batch is JSON Lines (Content-Type application/x-ndjson or
// application/jsonl) or a JSON array (application/json), read with the
// import's readers and rules; it is applied whole or, at its first bad
// row, not at all (?allowErrors=true: the valid rows, listing the rest;
// ?partial=true, products only: the given members). Until Options.Live is
// set the routes answer 404.
const adminPrefix = "/admin/v1/websites/"

// adminConfig is PUT /admin/v1/config: the whole configuration file,
// checked before anything changes.
const adminConfig = "/admin/v1/config"

// writeResult is the answer to a write.
type writeResult struct {
	Success bool   `json:"success"`
	Seq     uint64 `json:"seq"`
	Added   int    `json:"added"`
	Updated int    `json:"updated"`
	Deleted int    `json:"deleted"`
	// NotFound lists the numbers of a bulk delete that matched no product.
	NotFound []string `json:"notFound,omitempty"`
	// Rejected counts the rows an allowErrors batch left out; Errors
	// names the first maxRowErrors of them.
	Rejected int        `json:"rejected"`
	Errors   []rowError `json:"errors,omitempty"`
}

// rowError is a row an allowErrors batch left out.
type rowError struct {
	Row     string `json:"row"`
	Message string `json:"message"`
}

// maxRowErrors is how many rejected rows an answer names.
const maxRowErrors = 20

// bulkDelete is the body of a bulk delete.
type bulkDelete struct {
	ProductNumbers []string `json:"productNumbers"`
}

// admin serves a path under adminPrefix (or adminConfig) on a background
// thread: a write's parsing, merging and indexing take the cores only
// when the searches beside it leave them idle (package background).
//
// In a cluster, a change of a log another node writes is forwarded to
// that node first (adminForward), from the request's own goroutine: a
// wait on another node takes no core.
func (s *Server) admin(ctx *fasthttp.RequestCtx, path string) {
	if s.adminForward(ctx, path) {
		return
	}
	background.Run(func() { s.adminRoute(ctx, path) })
}

// adminForward forwards an admin change, authorised, to the node that
// writes its log: the server's for the configuration and campaigns, the
// website's for its products and content. It reports whether it
// answered the request.
func (s *Server) adminForward(ctx *fasthttp.RequestCtx, path string) bool {
	if s.opt.Live == nil || ctx.IsGet() || ctx.IsHead() || ctx.IsOptions() || path == adminBackup {
		return false
	}
	uuid, log := "", replica.ServerLog
	if path != adminConfig {
		var rest string
		uuid, rest, _ = strings.Cut(strings.TrimPrefix(path, adminPrefix), "/")
		if collection, _, _ := strings.Cut(rest, "/"); collection != "campaigns" {
			log = uuid
		}
	}
	url, ok := s.forward.target(ctx, log)
	if !ok {
		return false
	}
	if _, err := s.eng.Admit(bearer(ctx), access.ScopeAdmin, uuid); err != nil {
		return false // answered here, as a single node answers it
	}
	if err := s.forward.send(ctx, url, nil); err != nil {
		s.writeError(ctx, err)
	}
	return true
}

// adminRoute is admin on the background thread.
func (s *Server) adminRoute(ctx *fasthttp.RequestCtx, path string) {
	writer := s.opt.Live
	if writer == nil {
		s.writeError(ctx, engine.NotFound("", "no endpoint %s: this server takes no writes", path))
		return
	}
	if path == adminBackup {
		s.post(ctx, s.backup)
		return
	}
	if path == adminConfig {
		p, err := s.eng.Admit(bearer(ctx), access.ScopeAdmin, "")
		if err != nil {
			s.writeError(ctx, err)
			return
		}
		s.putConfig(ctx, writer.As(actor(ctx, p, "PUT "+adminConfig)))
		return
	}
	limit := s.opt.MaxWriteBytes
	uuid, rest, _ := strings.Cut(strings.TrimPrefix(path, adminPrefix), "/")
	p, err := s.eng.Admit(bearer(ctx), access.ScopeAdmin, uuid)
	if err != nil {
		s.writeError(ctx, err)
		return
	}
	collection, id, hasID := strings.Cut(rest, "/")
	writer = writer.As(actor(ctx, p, string(ctx.Method())+" "+adminPrefix+"{websiteUuid}/"+collection))
	if _, err := writer.Website(uuid); err != nil {
		s.writeError(ctx, err)
		return
	}
	site := adminSite{writer, uuid, limit}
	if collection == "campaigns" {
		if err := s.campaigns(ctx, uuid, id, hasID); err != nil {
			s.writeError(ctx, err)
		}
		return
	}
	var res writeResult
	switch {
	case hasID && id == "":
		err = engine.NotFound("", "no endpoint %s", path)
	case collection == "products":
		res, err = site.products(ctx, id, hasID)
	case collection == "content":
		res, err = site.content(ctx, id, hasID)
	default:
		err = engine.NotFound("", "no endpoint %s", path)
	}
	if err != nil {
		s.writeError(ctx, err)
		return
	}
	res.Success = true
	body, _ := json.Marshal(res)
	ctx.SetContentType("application/json")
	ctx.SetBody(body)
}

// actor is who an admin request acts as, for the audit log: its key's
// name, a session of the request's own, and its route.
func actor(ctx *fasthttp.RequestCtx, p access.Principal, route string) live.Actor {
	return live.Actor{Name: p.Name(), Session: live.Session(ctx.Request.Header.Peek("X-Aisle-Session")), Events: []string{route}}
}

// putConfig replaces the configuration: the body is a configuration
// file, decoded and validated as aisle serve --config reads one.
func (s *Server) putConfig(ctx *fasthttp.RequestCtx, writer *live.Writer) {
	if !ctx.IsPut() {
		ctx.Response.Header.Set("Allow", "PUT, OPTIONS")
		s.writeError(ctx, &engine.Error{Kind: kindMethod, Code: "METHOD_NOT_ALLOWED", Message: "use PUT"})
		return
	}
	b, err := body(ctx, s.opt.MaxWriteBytes)
	if err != nil {
		s.writeError(ctx, err)
		return
	}
	f, err := config.Parse(b)
	if err != nil {
		s.writeError(ctx, engine.Invalid("config", "%v; nothing changed", err))
		return
	}
	w, err := writer.ReplaceConfig(f)
	if err != nil {
		s.writeError(ctx, err)
		return
	}
	body, _ := json.Marshal(writeResult{Success: true, Seq: w.Seq})
	ctx.SetContentType("application/json")
	ctx.SetBody(body)
}

// adminSite is the admin routes of one website.
type adminSite struct {
	live  *live.Writer
	uuid  string
	limit int // Options.MaxWriteBytes
}

// products serves .../products and .../products/{productNumber}.
func (s adminSite) products(ctx *fasthttp.RequestCtx, id string, hasID bool) (writeResult, error) {
	var w live.Written
	var err error
	switch {
	case !hasID && ctx.IsPost():
		w, err = s.putProducts(ctx)
	case !hasID && ctx.IsDelete():
		var req bulkDelete
		var b []byte
		if b, err = body(ctx, s.limit); err == nil {
			err = decode(b, &req)
		}
		if err == nil {
			w, err = s.live.RemoveProducts(s.uuid, req.ProductNumbers)
		}
	case hasID && ctx.IsDelete():
		w, err = s.live.RemoveProduct(s.uuid, id)
	default:
		err = methodNotAllowed(ctx, hasID)
	}
	return newWriteResult(w), err
}

// content serves .../content and .../content/{kind}/{id}: content
// items (categories, brands, site pages, blog posts) in JSON Lines or a
// JSON array, each naming its kind, upserted by kind and id; allowErrors
// as for products.
func (s adminSite) content(ctx *fasthttp.RequestCtx, id string, hasID bool) (writeResult, error) {
	var w live.Written
	var err error
	switch {
	case !hasID && ctx.IsPost():
		w, err = s.putContent(ctx)
	case hasID && ctx.IsDelete():
		kind, itemID, ok := strings.Cut(id, "/")
		if !ok || itemID == "" || strings.Contains(itemID, "/") {
			return writeResult{}, engine.NotFound("", "no endpoint %s: delete a content item at .../content/{kind}/{id}", ctx.Path())
		}
		w, err = s.live.RemoveContent(s.uuid, catalog.ContentKind(kind), itemID)
	default:
		allow := "POST"
		if hasID {
			allow = "DELETE"
		}
		ctx.Response.Header.Set("Allow", allow+", OPTIONS")
		err = &engine.Error{Kind: kindMethod, Code: "METHOD_NOT_ALLOWED", Message: "use " + allow}
	}
	return newWriteResult(w), err
}

// methodNotAllowed is the products routes' 405.
func methodNotAllowed(ctx *fasthttp.RequestCtx, hasID bool) error {
	allow := "POST, DELETE, OPTIONS"
	if hasID {
		allow = "DELETE, OPTIONS"
	}
	ctx.Response.Header.Set("Allow", allow)
	return &engine.Error{Kind: kindMethod, Code: "METHOD_NOT_ALLOWED", Message: "use " + strings.TrimSuffix(allow, ", OPTIONS")}
}

// newWriteResult is the answer to write w: its counts, and the first
// maxRowErrors of the rows an allowErrors batch left out.
func newWriteResult(w live.Written) writeResult {
	r := writeResult{Seq: w.Seq, Added: w.Added, Updated: w.Updated, Deleted: w.Deleted, NotFound: w.NotFound, Rejected: len(w.Rejected)}
	for _, e := range w.Rejected[:min(len(w.Rejected), maxRowErrors)] {
		r.Errors = append(r.Errors, rowError{e.Row, e.Message})
	}
	return r
}

// putContent applies the body's content items as one entry: whole, or
// with ?allowErrors=true the valid items, listing the others.
func (s adminSite) putContent(ctx *fasthttp.RequestCtx) (live.Written, error) {
	format, err := bodyFormat(ctx, false)
	if err != nil {
		return live.Written{}, err
	}
	args := ctx.QueryArgs()
	return s.write(ctx, live.Body{Format: format, Partial: args.GetBool("partial"), AllowErrors: args.GetBool("allowErrors")}, s.live.PutContent)
}

// putProducts applies the body's products as one entry: whole, or with
// ?allowErrors=true the valid rows, listing the others; ?partial=true
// changes the members each row names.
func (s adminSite) putProducts(ctx *fasthttp.RequestCtx) (live.Written, error) {
	format, err := bodyFormat(ctx, true)
	if err != nil {
		return live.Written{}, err
	}
	args := ctx.QueryArgs()
	b := live.Body{Format: format, Partial: args.GetBool("partial"), AllowErrors: args.GetBool("allowErrors")}
	if format == catalog.FormatCSV {
		if b.Mapping, err = csvMapping(args.Peek("mapping"), b.Partial); err != nil {
			return live.Written{}, err
		}
	}
	return s.write(ctx, b, s.live.PutProducts)
}

// write streams the request's body, at most s.limit bytes, into put as
// b's Data, opened on put's first read, so what put refuses before
// reading is answered first. Reading past the limit fails with the 413,
// a broken stream with its 400 (cappedReader).
func (s adminSite) write(ctx *fasthttp.RequestCtx, b live.Body, put func(string, live.Body) (live.Written, error)) (live.Written, error) {
	b.Data = &lazyBody{ctx: ctx, limit: s.limit}
	return put(s.uuid, b)
}

// lazyBody is bodyReader's, made on the first Read.
type lazyBody struct {
	ctx   *fasthttp.RequestCtx
	limit int
	cr    *cappedReader
}

func (lb *lazyBody) Read(p []byte) (int, error) {
	if lb.cr == nil {
		cr, err := bodyReader(lb.ctx, lb.limit)
		if err != nil {
			return 0, err
		}
		lb.cr = cr
	}
	return lb.cr.Read(p)
}

// bodyFormat is the admin body's format from its content type; csv says
// whether the route takes CSV (products do, with a mapping).
func bodyFormat(ctx *fasthttp.RequestCtx, csv bool) (catalog.Format, error) {
	ct := string(ctx.Request.Header.ContentType())
	mt, _, _ := strings.Cut(ct, ";")
	switch strings.TrimSpace(strings.ToLower(mt)) {
	case "application/x-ndjson", "application/jsonl", "application/jsonlines", "application/x-jsonlines":
		return catalog.FormatJSONL, nil
	case "application/json":
		return catalog.FormatJSON, nil
	case "text/csv":
		if csv {
			return catalog.FormatCSV, nil
		}
	}
	want := "application/x-ndjson (JSON Lines) or application/json (an array)"
	if csv {
		want = "application/x-ndjson (JSON Lines), application/json (an array) or text/csv (with ?mapping=)"
	}
	return "", &engine.Error{Kind: kindMediaType, Code: "UNSUPPORTED_MEDIA_TYPE",
		Message: "content type must be " + want + ", got " + strings.TrimSpace(ct)}
}

// csvMapping is a CSV body's column mapping, from ?mapping=: a built-in
// name (as aisle import --mapping NAME) or the mapping's JSON itself,
// which for a partial update need map only productNumber.
func csvMapping(arg []byte, partial bool) (*catalog.CSVMapping, error) {
	var m *catalog.CSVMapping
	var err error
	switch {
	case len(arg) == 0:
		return nil, engine.Invalid("mapping", "a CSV body needs ?mapping=: a built-in name (%s) or the mapping's JSON", strings.Join(catalog.BuiltinMappings(), ", "))
	case bytes.HasPrefix(bytes.TrimSpace(arg), []byte("{")):
		m, err = catalog.ParseCSVMappingFor(arg, partial)
	default:
		m, err = catalog.BuiltinMapping(string(arg))
	}
	if err != nil {
		return nil, engine.Invalid("mapping", "%v", err)
	}
	return m, nil
}

// campaignOut is a retail media campaign and its counts, as
// GET .../campaigns answers.
type campaignOut struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	State string `json:"state"`
	behaviour.CampaignStats
}

// campaigns serves GET /admin/v1/websites/{uuid}/campaigns (every
// campaign of the website's configuration with its impressions and
// clicks) and .../campaigns/{id} (one).
func (s *Server) campaigns(ctx *fasthttp.RequestCtx, uuid, id string, hasID bool) error {
	if !ctx.IsGet() {
		ctx.Response.Header.Set("Allow", "GET, OPTIONS")
		return &engine.Error{Kind: kindMethod, Code: "METHOD_NOT_ALLOWED", Message: "use GET: campaigns are configured with PUT /admin/v1/config"}
	}
	g, ok := s.eng.Website(uuid)
	if !ok {
		return engine.NotFound("websiteUuid", "no website %q is served", uuid)
	}
	var m *behaviour.Model
	if s.opt.Behaviours != nil {
		m = s.opt.Behaviours.Model(uuid)
	}
	var out []campaignOut
	for _, c := range g.Website.Campaigns {
		if hasID && c.ID != id {
			continue
		}
		co := campaignOut{ID: c.ID, Name: c.Name, State: c.State}
		if m != nil {
			co.CampaignStats = m.Campaign(c.ID)
		}
		out = append(out, co)
	}
	var body []byte
	switch {
	case hasID && len(out) == 0:
		return engine.NotFound("id", "website %s has no campaign %q", uuid, id)
	case hasID:
		body, _ = json.Marshal(map[string]any{"success": true, "campaign": out[0]})
	default:
		if out == nil {
			out = []campaignOut{}
		}
		body, _ = json.Marshal(map[string]any{"success": true, "campaigns": out})
	}
	ctx.SetContentType("application/json")
	ctx.SetBody(body)
	return nil
}
