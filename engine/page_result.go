package engine

import (
	"strconv"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/ranking"
	"github.com/aisle-search/aisle/render"
)

// PageResult is the answer to a page request.
type PageResult struct {
	gen *Generation
	pv  *pageVersion
	// Website is the page's website's UUID, for the page view a first
	// load records.
	Website   string
	FirstLoad bool
	HTML      bool // rendered: html, javascript and style, no products
	Start     int
	Total     int // the products the page's base and the user filters allow
	Hits      []ranking.Hit
	// Sponsored is, by hit, the campaign that placed it ("" organic);
	// nil when none did.
	Sponsored  []string
	Fields     []string
	DeviceType string
	url        string // the request's, for the template's links
	// Filters and Sorting are the facets and sorting options, on a first
	// load only.
	Filters  []FacetOut
	Sorting  []SortOut
	Rendered string
}

// AppendJSON writes the spec's response: products.html, javascript and
// style when rendered, else products.result, with the facets and sorting
// options (products.filters, products.sorting) on a first load.
func (r *PageResult) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"success":true,"firstLoad":`...)
	dst = strconv.AppendBool(dst, r.FirstLoad)
	dst = append(dst, `,"products":{"start":`...)
	dst = strconv.AppendInt(dst, int64(r.Start), 10)
	dst = append(dst, `,"count":`...)
	dst = strconv.AppendInt(dst, int64(len(r.Hits)), 10)
	dst = append(dst, `,"total":`...)
	dst = strconv.AppendInt(dst, int64(r.Total), 10)
	if r.HTML {
		dst = append(dst, `,"html":`...)
		dst = appendString(dst, r.Rendered)
		dst = append(dst, `,"javascript":`...)
		dst = appendString(dst, r.pv.cfg.JavaScript)
		dst = append(dst, `,"style":`...)
		dst = appendString(dst, styleOf(r.pv.cfg.Template, r.pv.cfg.Style))
		return append(dst, `}}`...)
	}
	dst = append(dst, `,"result":[`...)
	doc := getStoredDoc()
	defer putStoredDoc(doc)
	for i, h := range r.Hits {
		if i > 0 {
			dst = append(dst, ',')
		}
		doc.load(r.gen.Products, h.Doc, r.Fields)
		var extra *productExtra
		if r.Sponsored != nil && r.Sponsored[i] != "" {
			extra = &productExtra{campaign: r.Sponsored[i], noScore: true}
		}
		dst = doc.appendTo(dst, r.Fields, extra)
	}
	dst = append(dst, ']')
	if r.FirstLoad {
		dst = append(dst, `,"filters":`...)
		dst = appendMarshal(dst, r.Filters)
		dst = append(dst, `,"sorting":`...)
		dst = appendSorting(dst, r.Sorting)
	}
	return append(dst, `}}`...)
}

// view decodes the page's products for its template.
func (r *PageResult) view() *render.PageView {
	v := &render.PageView{Key: r.pv.key, Name: r.pv.name, URL: r.url, Count: len(r.Hits), Total: r.Total, Start: r.Start, FirstLoad: r.FirstLoad, DeviceType: r.DeviceType}
	for _, h := range r.Hits {
		var it render.Item
		if json.Unmarshal(r.gen.Products.Stored(h.Doc), &it) == nil {
			v.Products = append(v.Products, it)
		}
	}
	markSponsored(v.Products, r.Sponsored)
	if r.FirstLoad {
		v.Filters, v.Sorting = r.Filters, r.Sorting
	}
	return v
}
