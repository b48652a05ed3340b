// Package render turns results into HTML with html/template, for the
// managed solution that asks for format "html". Templates come from the
// configuration; a built-in one is used when none is set. A template
// sees only the data it is given and these functions: dict, join,
// money (amounts with their currency) and urlWith (links carrying a
// filter or a sorting); it has no access to files, the environment or
// the network, and everything it writes is escaped for its context. A
// render is bounded in output, in the text its functions make, in time,
// and by its context (limits.go).
package render

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Item is one result as templates see it: the stored JSON decoded.
type Item = map[string]any

// SearchView is the data a search template renders.
type SearchView struct {
	Query      string
	Products   []Item
	Total      int
	Start      int
	Suggested  []bool
	Initial    []Item
	Categories []Item
	Brands     []Item
	SitePages  []Item
	BlogPosts  []Item
	Redirects  []Item
	// Filters and Sorting are the products' facets (with returnFilters)
	// and sorting options, as the json response's products.filters and
	// products.sorting; DeviceType is the request's.
	Filters    any
	Sorting    any
	DeviceType string
}

// DefaultSearch is the template used when a configuration has none. It
// marks its parts with aisle-* classes so a shop can style them.
const DefaultSearch = `<div class="aisle-search" data-query="{{.Query}}">
{{- with .Redirects}}<ul class="aisle-redirects">{{range .}}<li><a href="{{index . "url"}}">{{index . "title"}}</a></li>{{end}}</ul>{{end}}
{{- if .Products}}
<p class="aisle-count">{{.Total}} products</p>
<ul class="aisle-products">
{{- range $i, $p := .Products}}
<li class="aisle-product{{if index $.Suggested $i}} aisle-suggested{{end}}{{if index $p "sponsored"}} aisle-sponsored{{end}}"><a href="{{index $p "url"}}">
{{- if index $p "sponsored"}}<span class="aisle-sponsored-label">Sponsored</span>{{end}}
{{- with index $p "imgUrl"}}<img src="{{.}}" alt="" loading="lazy">{{end}}
<span class="aisle-title">{{index $p "title"}}</span>
{{- with index $p "brand"}}<span class="aisle-brand">{{.}}</span>{{end}}
<span class="aisle-price">{{index $p "priceFormatted"}}</span></a></li>
{{- end}}
</ul>
{{- else}}
<p class="aisle-empty">No products match “{{.Query}}”.</p>
{{- with .Initial}}<ul class="aisle-products aisle-initial">{{range .}}<li class="aisle-product"><a href="{{index . "url"}}"><span class="aisle-title">{{index . "title"}}</span></a></li>{{end}}</ul>{{end}}
{{- end}}
{{- range $name, $items := dict "categories" .Categories "brands" .Brands "sitePages" .SitePages "blogPosts" .BlogPosts}}
{{- if $items}}<ul class="aisle-{{$name}}">{{range $items}}<li><a href="{{index . "url"}}">{{index . "title"}}</a></li>{{end}}</ul>{{end}}
{{- end}}
</div>`

// RecomsView is the data a recommendation box's template renders.
type RecomsView struct {
	Key      string // the box's key
	Name     string // the box's name
	Products []Item
}

// DefaultRecoms is a box's template when its configuration has none.
const DefaultRecoms = `<div class="aisle-recoms" data-box="{{.Key}}">
{{- with .Name}}<h2 class="aisle-recoms-title">{{.}}</h2>{{end}}
<ul class="aisle-products">
{{- range .Products}}
<li class="aisle-product{{if index . "sponsored"}} aisle-sponsored{{end}}"><a href="{{index . "url"}}">
{{- if index . "sponsored"}}<span class="aisle-sponsored-label">Sponsored</span>{{end}}
{{- with index . "imgUrl"}}<img src="{{.}}" alt="" loading="lazy">{{end}}
<span class="aisle-title">{{index . "title"}}</span>
<span class="aisle-price">{{index . "priceFormatted"}}</span></a></li>
{{- end}}
</ul>
</div>`

// PageView is the data a page's template renders: the page's products
// and counts; on a first load its facets (a list of name, settings and
// values, as the json response's products.filters) and sorting options.
type PageView struct {
	Key, Name  string
	URL        string // the request's url
	Products   []Item
	Start      int
	Count      int // the products shown
	Total      int // the products the page's filters allow
	FirstLoad  bool
	DeviceType string
	Filters    any
	Sorting    any
}

// DefaultPage is a page's template when its version has none: a product
// grid, with its facets' values on a first load.
const DefaultPage = `<div class="aisle-page" data-page="{{.Key}}">
{{- with .Name}}<h1 class="aisle-page-title">{{.}}</h1>{{end}}
<p class="aisle-count">{{.Total}} products</p>
{{- if .FirstLoad}}{{with .Filters}}
<div class="aisle-facets">
{{- range .}}<section class="aisle-facet" data-field="{{.Name}}"><h3>{{.Settings.Title}}</h3>
{{- if .Values}}<ul>{{range .Values}}<li data-filter="{{.Query}}"{{if .Selected}} class="aisle-selected"{{end}}>{{.Title}} <span class="aisle-facet-count">{{.Count}}</span></li>{{end}}</ul>{{end}}
{{- if .Min}}<p class="aisle-range">{{.Min}} – {{.Max}}</p>{{end}}
</section>
{{- end}}
</div>{{end}}{{end}}
<ul class="aisle-products aisle-grid">
{{- range .Products}}
<li class="aisle-product{{if index . "sponsored"}} aisle-sponsored{{end}}"><a href="{{index . "url"}}">
{{- if index . "sponsored"}}<span class="aisle-sponsored-label">Sponsored</span>{{end}}
{{- with index . "imgUrl"}}<img src="{{.}}" alt="" loading="lazy">{{end}}
<span class="aisle-title">{{index . "title"}}</span>
{{- with index . "brand"}}<span class="aisle-brand">{{.}}</span>{{end}}
<span class="aisle-price">{{index . "priceFormatted"}}</span></a></li>
{{- end}}
</ul>
</div>`

// DefaultStyle is the style of the built-in templates, used when a
// configuration has neither its own template nor its own style: a
// responsive grid of product cards, facets beside it on a wide screen,
// the sponsored label, in the page's own fonts and colours.
const DefaultStyle = `.aisle-page,.aisle-search,.aisle-recoms{display:grid;gap:1rem;grid-template-columns:minmax(0,1fr)}
@media (min-width:48rem){.aisle-page:has(.aisle-facets){grid-template-columns:14rem minmax(0,1fr)}.aisle-page-title,.aisle-count{grid-column:1/-1}}
.aisle-products{list-style:none;margin:0;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr))}
.aisle-product{position:relative;border:1px solid #0002;border-radius:.5rem;padding:.75rem;background:#fff8}
.aisle-product a{display:flex;flex-direction:column;gap:.35rem;color:inherit;text-decoration:none}
.aisle-product img{width:100%;aspect-ratio:1;object-fit:contain}
.aisle-title{font-weight:600;line-height:1.3}.aisle-brand{font-size:.85em;opacity:.7}.aisle-price{font-weight:700}
.aisle-sponsored-label{position:absolute;top:.5rem;left:.5rem;font-size:.7em;padding:.1rem .35rem;border-radius:.25rem;background:#0008;color:#fff}
.aisle-facet h3{font-size:1em;margin:.5rem 0 .25rem}.aisle-facet ul{list-style:none;margin:0;padding:0}
.aisle-facet li{cursor:pointer;padding:.1rem 0}.aisle-facet .aisle-selected{font-weight:700}.aisle-facet-count{opacity:.6;font-size:.85em}
.aisle-count,.aisle-empty{margin:0;opacity:.8}`

// currencySigns are the symbols money writes before an amount; other
// currencies' codes follow it.
var currencySigns = map[string]string{"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹"}

// money writes an amount (a JSON number, or anything fmt prints) with two
// decimals, a thousands separator and its currency: money 1234.5 "USD"
// is "$1,234.50", money 99 "DKK" is "99.00 DKK", money 5 "" is "5.00".
func money(amount any, currency string) string {
	var v float64
	switch a := amount.(type) {
	case float64:
		v = a
	case float32:
		v = float64(a)
	case int:
		v = float64(a)
	case int64:
		v = float64(a)
	default:
		if _, err := fmt.Sscan(fmt.Sprint(amount), &v); err != nil {
			return ""
		}
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	whole, cents, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	n := b.String() + "." + cents
	if sym, ok := currencySigns[strings.ToUpper(currency)]; ok {
		return sign + sym + n
	}
	if currency == "" {
		return sign + n
	}
	return sign + n + " " + currency
}

// urlWith is address u with the query parameter name set to value
// (added beside the others; a link for a filter or a sorting:
// urlWith $.URL "filter" .Query); an address that does not parse is
// returned as it is. html/template escapes it where it is written.
func urlWith(u, name, value string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return u
	}
	q := parsed.Query()
	q.Add(name, value)
	parsed.RawQuery = q.Encode()
	return parsed.String()
}

// Wrap is rendered html with a configuration's style and javascript
// around it, for the answers whose spec has only an html member (search,
// recommendation boxes): a <style> element before, a <script> after,
// each only when set. They are the shop's own, written as they are; a
// "</" in them is written "<\/" so neither can end its element early.
func Wrap(style, html, javascript string) string {
	if style == "" && javascript == "" {
		return html
	}
	var b strings.Builder
	if style != "" {
		b.WriteString("<style>")
		b.WriteString(strings.ReplaceAll(style, "</", "<\\/"))
		b.WriteString("</style>")
	}
	b.WriteString(html)
	if javascript != "" {
		b.WriteString("<script>")
		b.WriteString(strings.ReplaceAll(javascript, "</", "<\\/"))
		b.WriteString("</script>")
	}
	return b.String()
}
