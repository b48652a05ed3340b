package engine

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
)

func foldString(s string) string { return analysis.FoldString(s) }

func as(err error, target **Error) bool { return errors.As(err, target) }

// AppendJSON appends the response body of the search.
func (r *SearchResult) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"success":true,"query":`...)
	dst = appendString(dst, r.Query)
	doc := getStoredDoc() // one decoded document at a time
	defer putStoredDoc(doc)
	if p := r.Products; p != nil {
		dst = append(dst, `,"products":`...)
		dst = r.appendProducts(dst, p, doc)
	}
	for _, c := range r.Content {
		dst = append(dst, ',', '"')
		dst = append(dst, c.Kind...)
		dst = append(dst, `":`...)
		dst = appendCounts(dst, c.Start, c.Requested, len(c.Hits), c.Total)
		if !r.formatHTML {
			dst = append(dst, `,"results":[`...)
			for i, h := range c.Hits {
				if i > 0 {
					dst = append(dst, ',')
				}
				doc.load(c.seg, h.Doc, c.Fields)
				dst = doc.appendTo(dst, c.Fields, nil)
			}
			dst = append(dst, ']')
		}
		dst = append(dst, '}')
	}
	if rr := r.Redirects; rr != nil {
		dst = append(dst, `,"redirects":`...)
		dst = appendCounts(dst, rr.Start, rr.Requested, len(rr.Items), rr.Total)
		if !r.formatHTML {
			dst = append(dst, `,"results":`...)
			dst = appendMarshal(dst, rr.Items)
		}
		dst = append(dst, '}')
	}
	if r.formatHTML {
		dst = append(dst, `,"html":`...)
		dst = appendString(dst, r.HTML)
	}
	return append(dst, '}')
}

func appendCounts(dst []byte, start, requested, returned, total int) []byte {
	dst = append(dst, `{"start":`...)
	dst = strconv.AppendInt(dst, int64(start), 10)
	dst = append(dst, `,"requestedCount":`...)
	dst = strconv.AppendInt(dst, int64(requested), 10)
	dst = append(dst, `,"returnedCount":`...)
	dst = strconv.AppendInt(dst, int64(returned), 10)
	dst = append(dst, `,"totalCount":`...)
	return strconv.AppendInt(dst, int64(total), 10)
}

func (r *SearchResult) appendProducts(dst []byte, p *ProductResult, doc *storedDoc) []byte {
	seg := r.gen.Products
	dst = appendCounts(dst, p.Start, p.Requested, len(p.Hits), p.Total)
	if !r.formatHTML {
		dst = append(dst, `,"results":[`...)
		doc.fold = prefetchEntries(seg, p.Hits)
		for i, h := range p.Hits {
			if i > 0 {
				dst = append(dst, ',')
			}
			extra := productExtra{score: h.Score, suggested: p.Suggested[i], search: true, campaign: p.campaign(i)}
			doc.load(seg, h.Doc, p.Fields)
			dst = doc.appendTo(dst, p.Fields, &extra)
		}
		dst = append(dst, ']')
	}
	if r.formatHTML { // the counters only: the template has the rest
		return append(dst, '}')
	}
	if p.withFilters {
		dst = append(dst, `,"filters":`...)
		dst = appendMarshal(dst, p.Filters)
	}
	dst = append(dst, `,"sorting":`...)
	dst = appendSorting(dst, p.Sorting)
	dst = append(dst, `,"suggestedProductStatus":"`...)
	dst = append(dst, p.SuggestedStatus...)
	dst = append(dst, '"')
	if p.Initial != nil {
		dst = append(dst, `,"initialContent":[`...)
		for i, h := range p.Initial {
			if i > 0 {
				dst = append(dst, ',')
			}
			doc.load(seg, h.Doc, p.Fields)
			dst = doc.appendTo(dst, p.Fields, &productExtra{})
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// productExtra is what a product result adds to the stored document.
type productExtra struct {
	score     float32
	suggested bool
	search    bool
	// campaign is the retail media campaign that placed it: "" for an
	// organic result. A sponsored one says so whatever the fields asked.
	campaign string
	noScore  bool // a page's product: no score
}

// campaign is the campaign that placed hit i, "" for an organic one.
func (p *ProductResult) campaign(i int) string {
	if p.Sponsored == nil {
		return ""
	}
	return p.Sponsored[i]
}

func (e *productExtra) appendTo(dst []byte, first bool, fields []string) []byte {
	want := func(name string) bool {
		if fields == nil {
			return true
		}
		for _, f := range fields {
			if f == name {
				return true
			}
		}
		return false
	}
	if !e.noScore && want("score") {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, `"score":`...)
		s := float64(e.score)
		if s >= math.MaxFloat32 {
			s = 1e6
		}
		dst = strconv.AppendFloat(dst, s, 'g', 6, 32)
	}
	if e.search {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, `"suggestedResult":`...)
		dst = strconv.AppendBool(dst, e.suggested)
	}
	if e.campaign != "" {
		if !first {
			dst = append(dst, ',')
		}
		dst = append(dst, `"sponsored":true,"retailMediaCampaignId":`...)
		dst = appendString(dst, e.campaign)
	}
	return dst
}

// appendSorting writes products.sorting as json.Marshal writes it (null
// for none), without reflection: every search and page writes it.
func appendSorting(dst []byte, sorting []SortOut) []byte {
	if sorting == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range sorting {
		so := &sorting[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"name":`...)
		dst = appendString(dst, so.Name)
		dst = append(dst, `,"settings":{"name":`...)
		dst = appendString(dst, so.Settings.Name)
		dst = append(dst, `,"title":`...)
		dst = appendString(dst, so.Settings.Title)
		dst = append(dst, `,"ascendingText":`...)
		dst = appendString(dst, so.Settings.AscendingText)
		dst = append(dst, `,"descendingText":`...)
		dst = appendString(dst, so.Settings.DescendingText)
		dst = append(dst, `},"ascending":`...)
		dst = appendSortChoice(dst, &so.Ascending)
		dst = append(dst, `,"descending":`...)
		dst = appendSortChoice(dst, &so.Descending)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

func appendSortChoice(dst []byte, c *SortChoiceOut) []byte {
	dst = append(dst, `{"query":`...)
	dst = appendString(dst, c.Query)
	dst = append(dst, `,"selected":`...)
	dst = strconv.AppendBool(dst, c.Selected)
	return append(dst, '}')
}

func appendMarshal(dst []byte, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return append(dst, "null"...)
	}
	return append(dst, b...)
}

const hexDigits = "0123456789abcdef"

// plainASCII reports whether s is ASCII that a JSON string holds as it
// is: no control character, quote, backslash, or HTML's < > &, which
// appendString escapes.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// appendString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendString(dst []byte, s string) []byte {
	if plainASCII(s) { // most names and values: copied whole
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c < 0x20:
				switch c {
				case '\n':
					dst = append(dst, '\\', 'n')
				case '\r':
					dst = append(dst, '\\', 'r')
				case '\t':
					dst = append(dst, '\\', 't')
				default:
					dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
				}
			case c == '<' || c == '>' || c == '&':
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else if r == '\u2028' || r == '\u2029' {
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
