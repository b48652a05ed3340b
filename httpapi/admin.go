package httpapi

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goccy/go-json"
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/store"
)

// The admin API: writes while serving, authorised by the admin key
// (docs/decisions.md, Admin API).
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
func (s *Server) admin(ctx *fasthttp.RequestCtx, path string) {
	background.Run(func() { s.adminRoute(ctx, path) })
}

// adminRoute is admin on the background thread.
func (s *Server) adminRoute(ctx *fasthttp.RequestCtx, path string) {
	live := s.opt.Live
	if live == nil {
		s.writeError(ctx, engine.NotFound("", "no endpoint %s: this server takes no writes", path))
		return
	}
	if err := s.eng.AuthorizeAdmin(bearer(ctx)); err != nil {
		s.writeError(ctx, err)
		return
	}
	if path == adminConfig {
		s.putConfig(ctx, live)
		return
	}
	limit := s.opt.MaxWriteBytes
	uuid, rest, _ := strings.Cut(strings.TrimPrefix(path, adminPrefix), "/")
	if _, err := live.Website(uuid); err != nil {
		s.writeError(ctx, err)
		return
	}
	site := adminSite{live, uuid, limit}
	collection, id, hasID := strings.Cut(rest, "/")
	if collection == "campaigns" {
		if err := s.campaigns(ctx, uuid, id, hasID); err != nil {
			s.writeError(ctx, err)
		}
		return
	}
	var res writeResult
	var err error
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

// putConfig replaces the configuration: the body is a configuration
// file, decoded and validated as aisle serve --config reads one.
func (s *Server) putConfig(ctx *fasthttp.RequestCtx, live *engine.Live) {
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
	a, err := live.SetConfig(f)
	if err != nil {
		s.writeError(ctx, err)
		return
	}
	body, _ := json.Marshal(writeResult{Success: true, Seq: a.Seq})
	ctx.SetContentType("application/json")
	ctx.SetBody(body)
}

// adminSite is the admin routes of one website.
type adminSite struct {
	live  *engine.Live
	uuid  string
	limit int // Options.MaxWriteBytes
}

// products serves .../products and .../products/{productNumber}.
func (s adminSite) products(ctx *fasthttp.RequestCtx, id string, hasID bool) (writeResult, error) {
	var a store.Applied
	var notFound []string
	var rejected []engine.RowError
	var err error
	switch {
	case !hasID && ctx.IsPost():
		a, rejected, err = s.putProducts(ctx)
	case !hasID && ctx.IsDelete():
		var req bulkDelete
		var b []byte
		if b, err = body(ctx, s.limit); err == nil {
			err = decode(b, &req)
		}
		if err == nil {
			if len(req.ProductNumbers) == 0 {
				err = engine.Invalid("productNumbers", "list at least one product number")
			} else {
				a, notFound, err = s.live.DeleteProducts(s.uuid, req.ProductNumbers)
			}
		}
	case hasID && ctx.IsDelete():
		a, err = s.live.DeleteProduct(s.uuid, id)
	default:
		err = methodNotAllowed(ctx, hasID)
	}
	res := writeResult{Seq: a.Seq, Added: a.Added, Updated: a.Updated, Deleted: a.Deleted, NotFound: notFound}
	res.reject(rejected)
	return res, err
}

// content serves .../content and .../content/{kind}/{id}: content
// items (categories, brands, site pages, blog posts) in JSON Lines or a
// JSON array, each naming its kind, upserted by kind and id; allowErrors
// as for products.
func (s adminSite) content(ctx *fasthttp.RequestCtx, id string, hasID bool) (writeResult, error) {
	var a store.Applied
	var rejected []engine.RowError
	var err error
	switch {
	case !hasID && ctx.IsPost():
		a, rejected, err = s.putContent(ctx)
	case hasID && ctx.IsDelete():
		kind, itemID, ok := strings.Cut(id, "/")
		if !ok || itemID == "" || strings.Contains(itemID, "/") {
			return writeResult{}, engine.NotFound("", "no endpoint %s: delete a content item at .../content/{kind}/{id}", ctx.Path())
		}
		a, err = s.live.DeleteContent(s.uuid, catalog.ContentKind(kind), itemID)
	default:
		allow := "POST"
		if hasID {
			allow = "DELETE"
		}
		ctx.Response.Header.Set("Allow", allow+", OPTIONS")
		err = &engine.Error{Kind: kindMethod, Code: "METHOD_NOT_ALLOWED", Message: "use " + allow}
	}
	res := writeResult{Seq: a.Seq, Added: a.ContentAdded, Updated: a.ContentUpdated, Deleted: a.ContentDeleted}
	res.reject(rejected)
	return res, err
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

// reject counts the rows an allowErrors batch left out and names the
// first maxRowErrors.
func (r *writeResult) reject(rejected []engine.RowError) {
	r.Rejected = len(rejected)
	for _, e := range rejected[:min(len(rejected), maxRowErrors)] {
		r.Errors = append(r.Errors, rowError{e.Row, e.Message})
	}
}

// putContent reads the body's content items into one entry: whole, or
// with ?allowErrors=true the valid items, listing the others.
func (s adminSite) putContent(ctx *fasthttp.RequestCtx) (store.Applied, []engine.RowError, error) {
	format, err := bodyFormat(ctx, false)
	if err != nil {
		return store.Applied{}, nil, err
	}
	args := ctx.QueryArgs()
	if args.GetBool("partial") {
		return store.Applied{}, nil, engine.Invalid("partial", "partial updates take products only; send content items whole")
	}
	raw, err := s.readAll(ctx)
	if err != nil {
		return store.Applied{}, nil, err
	}
	rows, labels, err := splitRows(raw, format, "content")
	if err != nil {
		return store.Applied{}, nil, err
	}
	var b store.Batch
	rejected, err := addRows(rows, labels, "content", args.GetBool("allowErrors"), func(raw []byte) error {
		c, err := catalog.DecodeContent(raw)
		if err != nil {
			return err
		}
		return b.PutContent(c)
	})
	if err != nil {
		return store.Applied{}, nil, err
	}
	a, err := s.live.Apply(s.uuid, &b)
	return a, rejected, err
}

// addRows passes each row to add: with allowErrors the rows add refuses
// are listed and the rest kept; without, the first refusal is the
// request's error (field names the body's member) and nothing is applied.
func addRows(rows [][]byte, labels []string, field string, allowErrors bool, add func(raw []byte) error) ([]engine.RowError, error) {
	var rejected []engine.RowError
	for i, raw := range rows {
		if err := add(raw); err != nil {
			if !allowErrors {
				return nil, engine.Invalid(field, "%s: %v; nothing was applied", labels[i], err)
			}
			rejected = append(rejected, engine.RowError{Row: labels[i], Message: err.Error()})
		}
	}
	return rejected, nil
}

// putProducts reads the body's products into one batch and applies it:
// whole, or with ?allowErrors=true the valid rows, listing the others.
func (s adminSite) putProducts(ctx *fasthttp.RequestCtx) (store.Applied, []engine.RowError, error) {
	format, err := bodyFormat(ctx, true)
	if err != nil {
		return store.Applied{}, nil, err
	}
	args := ctx.QueryArgs()
	partial, allowErrors := args.GetBool("partial"), args.GetBool("allowErrors")
	var mapping *catalog.CSVMapping
	if format == catalog.FormatCSV {
		if mapping, err = csvMapping(args.Peek("mapping"), partial); err != nil {
			return store.Applied{}, nil, err
		}
	}
	if partial || allowErrors {
		raw, err := s.readAll(ctx)
		if err != nil {
			return store.Applied{}, nil, err
		}
		var rows [][]byte
		var labels []string
		var cellErrs []engine.RowError // CSV cells that do not convert
		if format == catalog.FormatCSV {
			rows, labels, cellErrs, err = csvRows(raw, mapping, partial, allowErrors)
		} else {
			rows, labels, err = splitRows(raw, format, "products")
		}
		if err != nil {
			return store.Applied{}, nil, err
		}
		if len(rows) == 0 { // every CSV row refused: nothing to apply
			a, err := s.live.Apply(s.uuid, &store.Batch{})
			return a, cellErrs, err
		}
		if partial {
			a, rejected, err := s.live.PatchProducts(s.uuid, rows, func(i int) string { return labels[i] }, allowErrors)
			return a, append(cellErrs, rejected...), err
		}
		// allowErrors: the rows one by one (the import's reader stops at
		// the first bad row).
		var b store.Batch
		rejected, err := addRows(rows, labels, "products", allowErrors, func(raw []byte) error {
			p, err := catalog.DecodeProduct(raw)
			if err == nil {
				err = p.Check()
			}
			if err != nil {
				return err
			}
			return b.PutProduct(p)
		})
		if err != nil {
			return store.Applied{}, nil, err
		}
		a, err := s.live.Apply(s.uuid, &b)
		return a, append(cellErrs, rejected...), err
	}
	cr, err := bodyReader(ctx, s.limit)
	if err != nil {
		return store.Applied{}, nil, err
	}
	var b store.Batch
	n := 0
	err = catalog.Read(cr, catalog.ReadOptions{Format: format, Mapping: mapping, Name: "body"}, catalog.Checked(func(p *catalog.Product) error {
		n++
		return b.PutProduct(p)
	}))
	if err = cr.check(err); err != nil {
		if engine.AsError(err).Kind == engine.KindTooLarge {
			return store.Applied{}, nil, err
		}
		return store.Applied{}, nil, engine.Invalid("products", "%v; nothing was applied", err)
	}
	if n == 0 {
		return store.Applied{}, nil, engine.Invalid("products", "the body holds no products")
	}
	a, err := s.live.Apply(s.uuid, &b)
	return a, nil, err
}

// readAll reads the whole body of a write, at most s.limit bytes.
func (s adminSite) readAll(ctx *fasthttp.RequestCtx) ([]byte, error) {
	cr, err := bodyReader(ctx, s.limit)
	if err != nil {
		return nil, err
	}
	return cr.readAll()
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

// csvRows is a CSV body's records as JSON objects of the members they
// set (catalog.CSVObjects), labelled by line. A cell that does not
// convert refuses the batch, or with allowErrors leaves its row out and
// is listed.
func csvRows(body []byte, m *catalog.CSVMapping, partial, allowErrors bool) (rows [][]byte, labels []string, cellErrs []engine.RowError, err error) {
	err = catalog.CSVObjects(bytes.NewReader(body), "body", m, partial, func(label string, obj []byte, rowErr error) error {
		if rowErr != nil {
			if !allowErrors {
				return fmt.Errorf("%s: %w", label, rowErr)
			}
			cellErrs = append(cellErrs, engine.RowError{Row: label, Message: rowErr.Error()})
			return nil
		}
		rows, labels = append(rows, obj), append(labels, label)
		return nil
	})
	if err != nil {
		return nil, nil, nil, engine.Invalid("products", "%v; nothing was applied", err)
	}
	if len(rows) == 0 && len(cellErrs) == 0 {
		return nil, nil, nil, engine.Invalid("products", "the body holds no products")
	}
	return rows, labels, cellErrs, nil
}

// splitRows cuts a body into its objects, each labelled as the import
// labels rows: "body:LINE" for JSON Lines, "body: product N" in an array
// (field, "products" or "content", names the body in errors).
func splitRows(body []byte, format catalog.Format, field string) (rows [][]byte, labels []string, err error) {
	if format == catalog.FormatJSON {
		var objects []json.RawMessage
		if err := json.Unmarshal(body, &objects); err != nil {
			return nil, nil, engine.Invalid(field, "body: expected a JSON array of objects: %v", err)
		}
		for i, o := range objects {
			rows = append(rows, o)
			labels = append(labels, fmt.Sprintf("body: product %d", i+1))
		}
	} else {
		for i, line := range bytes.Split(body, []byte("\n")) {
			if len(bytes.TrimSpace(line)) > 0 {
				rows = append(rows, line)
				labels = append(labels, fmt.Sprintf("body:%d", i+1))
			}
		}
	}
	if len(rows) == 0 {
		return nil, nil, engine.Invalid(field, "the body holds no %s", field)
	}
	return rows, labels, nil
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
