// Package demo generates the shop `aisle demo` serves: a realistic,
// deterministic catalog, its content pages, its configuration (an English
// website and a Danish one) and its visitors' events, with no setup and
// no external data. The same generator feeds the benchmarks, so it
// streams and stays fast at a million products.
package demo

import (
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/aisle-search/aisle/catalog"
)

// Shape of the generated catalog.
const (
	pGroupStart  = 0.048 // a variant group starts here; ~15% of products are variants
	pSecondPath  = 0.10  // product also listed in a sibling subcategory
	pSale        = 0.20
	pInStock     = 0.85
	priceSpread  = 0.45 // sigma of the log-normal price around the leaf median
	weightSpread = 0.25
	siteURL      = "https://demo.aisle.shop"
)

var (
	createdFrom = time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	createdTo   = time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC).Unix()
	newSince    = time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC).Unix()
)

// Catalog generates n products, deterministically from seed, so the demo
// and the benchmarks need no data files.
func Catalog(n int, seed uint64) []catalog.Product {
	if n < 0 {
		n = 0
	}
	out := make([]catalog.Product, n)
	g := newGen(n, seed)
	for i := range out {
		g.next(&out[i])
	}
	return out
}

// Each streams the products Catalog(n, seed) would return, in order, so a
// benchmark can index a million products without holding them twice. Each
// product is freshly allocated; fn may keep it. Each stops at fn's first
// error and returns it.
func Each(n int, seed uint64, fn func(*catalog.Product) error) error {
	g := newGen(n, seed)
	for range n {
		p := new(catalog.Product)
		g.next(p)
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// gen is the generator's state: the random stream, the position and the
// variant group being emitted.
type gen struct {
	r    *rand.Rand
	n, i int
	buf  []byte
	slug []byte
	grp  group
}

// group is a run of consecutive products that are variants of one item.
type group struct {
	left    int      // members still to emit
	at      int      // index of the next member
	numbers []string // product numbers of all members
	key     string
	colours []int
	sizes   []string
	s       shared
}

// shared is what variants of one item have in common; a product that is not
// a variant is a group of one.
type shared struct {
	d        *department
	c        *category
	l        *leaf
	b        *brand
	adj      int // -1: none
	material int
	slot     int // what precedes the noun in the title: 0 none, 1 material, 2 colour
	suffix   int // 0 none, 1 department suffix, 2 model code
	sfx      string
	code     [3]byte
	codeNum  int
	second   int // second leaf, -1 none
	price    int64
	prev     int64
	created  int64
	rating   float64
	reviews  int
	weight   float64
	feats    [3]int
	nfeats   int
	tmpl     [4]int
	gift     bool
	limited  bool
	online   bool
	ecoExtra bool
}

func newGen(n int, seed uint64) *gen {
	return &gen{
		r:    rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		n:    n,
		buf:  make([]byte, 0, 1024),
		slug: make([]byte, 0, 128),
	}
}

// next fills p with the next product, starting a new item (or variant
// group) when the current one is used up.
func (g *gen) next(p *catalog.Product) {
	r := g.r
	gr := &g.grp
	if gr.left == 0 {
		k := 1
		if g.n-g.i >= 2 && r.Float64() < pGroupStart {
			k = min(2+r.IntN(4), g.n-g.i)
		}
		g.newShared(&gr.s)
		gr.numbers, gr.key = nil, ""
		gr.colours, gr.sizes = gr.colours[:0], gr.sizes[:0]
		if k > 1 {
			k = g.newGroup(k)
		}
		gr.left, gr.at = k, 0
	}
	s := &gr.s
	var pn string
	var colour int
	var size string
	if gr.numbers != nil {
		pn = gr.numbers[gr.at]
		colour = gr.colours[gr.at]
		size = gr.sizes[gr.at]
		sib := make([]string, 0, len(gr.numbers)-1)
		for j, x := range gr.numbers {
			if j != gr.at {
				sib = append(sib, x)
			}
		}
		p.VariantProductNumbers = sib
		p.GroupingKey = gr.key
	} else {
		colour = pick(shop.colourCum, r.Float64())
		if vals := sizeValues[s.l.size]; len(vals) > 0 {
			size = vals[r.IntN(len(vals))]
		}
	}
	gr.at++
	gr.left--

	// One string holds the product's generated text; the fields slice it.
	b := g.buf[:0]
	if pn == "" {
		b = appendProductNumber(b, g.i+1)
	}
	pnEnd := len(b)
	b = g.appendTitle(b, s, colour)
	titleEnd := len(b)
	b = g.appendDescription(b, s, colour, size)
	descEnd := len(b)
	b = append(b, siteURL+"/p/"...)
	g.slug = appendSlug(g.slug[:0], b[pnEnd:titleEnd])
	b = append(b, g.slug...)
	b = append(b, '-')
	if pn == "" {
		b = appendLower(b, b[:pnEnd])
	} else {
		b = appendLower(b, []byte(pn))
	}
	urlEnd := len(b)
	b = append(b, siteURL+"/img/"...)
	if pn == "" {
		b = append(b, b[:pnEnd]...)
	} else {
		b = append(b, pn...)
	}
	b = append(b, ".jpg"...)
	imgEnd := len(b)
	b = appendMoney(b, s.price)
	g.buf = b
	str := string(b)
	if pn == "" {
		pn = str[:pnEnd]
	}

	p.ProductNumber = pn
	p.Title = str[pnEnd:titleEnd]
	p.Description = str[titleEnd:descEnd]
	p.URL = str[descEnd:urlEnd]
	p.ImgURL = str[urlEnd:imgEnd]
	p.PriceFormatted = str[imgEnd:]
	p.Currency = "USD"
	p.Price = float64(s.price) / 100
	if s.prev > 0 {
		p.PreviousPrice = float64(s.prev) / 100
		p.PriceLowered = true
		p.IsOnSale = true
	}
	p.Keywords = s.l.keywords
	p.InStock = r.Float64() < pInStock
	p.Brand = s.b.name
	// The product's slices share one allocation; capacities are capped so
	// an append by the caller copies instead of overwriting a neighbour.
	x := new(productSlices)
	copy(x.levels[:3], s.l.path[:])
	x.paths[0] = x.levels[0:3:3]
	if s.second >= 0 {
		copy(x.levels[3:], shop.leaves[s.second].path[:])
		x.paths[1] = x.levels[3:6:6]
		p.Hierarchies = x.paths[:2:2]
	} else {
		p.Hierarchies = x.paths[:1:1]
	}
	p.Created = time.Unix(s.created, 0).UTC()

	p.ExtraData = make(map[string]string, 3)
	p.ExtraData["color"] = colours[colour]
	p.ExtraData["material"] = s.c.spec.materials[s.material]
	if size != "" {
		p.ExtraData["size"] = size
	}
	p.ExtraDataNumber = map[string]float64{
		"rating":  s.rating,
		"reviews": float64(s.reviews),
		"weight":  s.weight,
	}
	for j := range s.nfeats {
		x.feats[j] = s.c.featNames[s.feats[j]]
	}
	p.ExtraDataList = make(map[string][]string, 2)
	p.ExtraDataList["features"] = x.feats[:s.nfeats:s.nfeats]
	if n := g.tags(s, &x.tags); n > 0 {
		p.ExtraDataList["tags"] = x.tags[:n:n]
	}
	g.i++
}

// newShared draws everything variants of one item share.
func (g *gen) newShared(s *shared) {
	r := g.r
	di := pick(shop.deptCum, r.Float64())
	d := &shop.depts[di]
	db := &d.brands[pick(d.brandCum, r.Float64())]
	li := db.leaves[r.IntN(len(db.leaves))]
	l := &shop.leaves[li]
	*s = shared{d: d, c: &d.cats[l.cat], l: l, b: &shop.brands[db.brand], adj: -1, second: -1}
	if r.Float64() < 0.65 {
		s.adj = r.IntN(len(d.spec.adjectives))
	}
	s.material = r.IntN(len(s.c.spec.materials))
	switch x := r.Float64(); {
	case x < 0.40:
		s.slot = 1
	case x < 0.70:
		s.slot = 2
	}
	switch x := r.Float64(); {
	case x < 0.40:
		s.suffix = 2
		s.code = [3]byte{byte('A' + r.IntN(26)), byte('A' + r.IntN(26)), byte(r.IntN(3))}
		s.codeNum = r.IntN(90) + 1
	case x < 0.65:
		s.suffix = 1
		s.sfx = d.spec.suffixes[r.IntN(len(d.spec.suffixes))]
	}
	if r.Float64() < pSecondPath && len(l.siblings) > 0 {
		s.second = l.siblings[r.IntN(len(l.siblings))]
	}

	// Price: log-normal around the leaf's median, shop-style endings.
	price := math.Exp(l.logPrice + priceSpread*r.NormFloat64())
	s.price = shopPrice(price)
	if r.Float64() < pSale {
		s.prev = s.price
		off := 0.10 + 0.40*r.Float64()
		s.price = shopPrice(float64(s.prev) / 100 * (1 - off))
		if s.price >= s.prev {
			s.price = s.prev - 100
		}
		if s.price <= 0 {
			s.price = s.prev / 2
		}
		if s.price <= 0 {
			s.price, s.prev = s.prev, 0
		}
	}

	s.created = createdFrom + r.Int64N(createdTo-createdFrom+1)
	s.rating = math.Round(max(1, 5-0.6*r.ExpFloat64())*10) / 10
	s.reviews = 1 + int(math.Exp(2.3+1.5*r.NormFloat64()))
	s.weight = max(0.01, math.Round(l.weight*math.Exp(weightSpread*r.NormFloat64())*100)/100)

	nf := len(s.c.featNames)
	s.nfeats = 2 + r.IntN(2)
	s.feats[0] = r.IntN(nf)
	s.feats[1] = (s.feats[0] + 1 + r.IntN(nf-1)) % nf
	if s.nfeats == 3 {
		s.feats[2] = r.IntN(nf)
		for s.feats[2] == s.feats[0] || s.feats[2] == s.feats[1] {
			s.feats[2] = (s.feats[2] + 1) % nf
		}
	}
	for j := range s.tmpl {
		s.tmpl[j] = r.IntN(4)
	}
	giftP := 0.08
	if d.spec.name == "Toys" {
		giftP = 0.35
	}
	s.gift = r.Float64() < giftP
	s.limited = r.Float64() < 0.03
	s.online = r.Float64() < 0.05
	s.ecoExtra = r.Float64() < 0.05
}

// newGroup turns the current item into k variants (fewer when it comes in
// fewer sizes) and returns how many: sizes of one colour for sized goods,
// colours otherwise.
func (g *gen) newGroup(k int) int {
	r := g.r
	gr := &g.grp
	vals := sizeValues[gr.s.l.size]
	if len(vals) >= 2 {
		k = min(k, len(vals))
	}
	gr.numbers = make([]string, k)
	for j := range gr.numbers {
		gr.numbers[j] = string(appendProductNumber(nil, g.i+1+j))
	}
	gr.key = "G-" + gr.numbers[0][3:]
	if len(vals) >= 2 {
		colour := pick(shop.colourCum, r.Float64())
		start := r.IntN(len(vals) - k + 1)
		for j := range k {
			gr.colours = append(gr.colours, colour)
			gr.sizes = append(gr.sizes, vals[start+j])
		}
		return k
	}
	// Distinct colours, in the title so the variants tell apart.
	gr.s.slot = 2
	var used [32]bool
	for range gr.numbers {
		c := pick(shop.colourCum, r.Float64())
		for used[c] {
			c = (c + 1) % len(colours)
		}
		used[c] = true
		gr.colours = append(gr.colours, c)
		gr.sizes = append(gr.sizes, "")
	}
	return k
}

// productSlices backs one product's hierarchies, features and tags.
type productSlices struct {
	paths  [2][]string
	levels [6]string
	feats  [3]string
	tags   [6]string
}

// tags fills t with the product's tags and returns how many.
func (g *gen) tags(s *shared, t *[6]string) int {
	n := 0
	if s.c.eco[s.material] || s.ecoExtra {
		t[n] = tagNames.eco
		n++
	}
	if s.reviews >= 150 && s.rating >= 4.0 {
		t[n] = tagNames.bestseller
		n++
	}
	if s.created >= newSince {
		t[n] = tagNames.new
		n++
	}
	if s.gift {
		t[n] = tagNames.gift
		n++
	}
	if s.limited {
		t[n] = tagNames.limited
		n++
	}
	if s.online {
		t[n] = tagNames.online
		n++
	}
	return n
}

// shopPrice rounds a price to shop-style cents: .99 endings, whole tens
// minus a cent above $200.
func shopPrice(p float64) int64 {
	switch {
	case p < 1:
		return 99
	case p < 20:
		return int64(math.Round(p*2))*50 - 1 // 4.49, 4.99, …
	case p < 200:
		return int64(math.Round(p))*100 - 1
	default:
		return int64(math.Round(p/10))*1000 - 1
	}
}

func (g *gen) appendTitle(b []byte, s *shared, colour int) []byte {
	b = append(b, s.b.name...)
	b = append(b, ' ')
	if s.adj >= 0 {
		b = append(b, s.d.spec.adjectives[s.adj]...)
		b = append(b, ' ')
	}
	switch s.slot {
	case 1:
		b = append(b, s.c.spec.materials[s.material]...)
		b = append(b, ' ')
	case 2:
		b = append(b, colours[colour]...)
		b = append(b, ' ')
	}
	b = append(b, s.l.noun...)
	switch s.suffix {
	case 1:
		b = append(b, ' ')
		b = append(b, s.sfx...)
	case 2:
		b = append(b, ' ')
		switch s.code[2] {
		case 0: // "KX-450"
			b = append(b, s.code[0], s.code[1], '-')
			b = strconv.AppendInt(b, int64(s.codeNum*10), 10)
		case 1: // "Series 7"
			b = append(b, "Series "...)
			b = strconv.AppendInt(b, int64(s.codeNum%9+1), 10)
		default: // "X200"
			b = append(b, s.code[0])
			b = strconv.AppendInt(b, int64(s.codeNum*100), 10)
		}
	}
	return b
}

func (g *gen) appendDescription(b []byte, s *shared, colour int, size string) []byte {
	d, c, l := s.d, s.c, s.l
	use := d.spec.uses[(s.tmpl[0]+s.feats[0])%len(d.spec.uses)]
	mat := c.matLower[s.material]
	is, this, it := " is ", "this ", " It features "
	if l.plural {
		is, this, it = " are ", "these ", " They feature "
	}
	switch s.tmpl[0] {
	case 0:
		b = append(b, "The "...)
		b = append(b, s.b.name...)
		b = append(b, ' ')
		b = append(b, l.nounLower...)
		b = append(b, is...)
		b = append(b, "made from "...)
		b = append(b, mat...)
		b = append(b, " for "...)
		b = append(b, use...)
		b = append(b, '.')
	case 1:
		b = append(b, "Made from "...)
		b = append(b, mat...)
		b = append(b, ", "...)
		b = append(b, this...)
		b = append(b, l.nounLower...)
		b = append(b, " from "...)
		b = append(b, s.b.name...)
		b = append(b, is...)
		b = append(b, "designed for "...)
		b = append(b, use...)
		b = append(b, '.')
	case 2:
		b = append(b, s.b.name...)
		b = append(b, " built "...)
		b = append(b, this...)
		if s.adj >= 0 {
			b = append(b, d.adjLower[s.adj]...)
			b = append(b, ' ')
		}
		b = append(b, l.nounLower...)
		b = append(b, " in "...)
		b = append(b, mat...)
		b = append(b, " for "...)
		b = append(b, use...)
		b = append(b, '.')
	default:
		adj := "dependable"
		if s.adj >= 0 {
			adj = d.adjLower[s.adj]
		}
		if l.plural {
			b = append(b, "These "...)
		} else {
			b = append(b, 'A')
			if article(adj) == "an" {
				b = append(b, 'n')
			}
			b = append(b, ' ')
		}
		b = append(b, adj...)
		b = append(b, ' ')
		b = append(b, l.nounLower...)
		if l.plural {
			b = append(b, " are made for "...)
		} else {
			b = append(b, " for "...)
		}
		b = append(b, use...)
		b = append(b, ", in "...)
		b = append(b, mat...)
		b = append(b, '.')
	}

	f := c.spec.features
	if s.nfeats == 2 || s.tmpl[1] < 2 {
		b = append(b, it...)
		b = append(b, f[s.feats[0]]...)
		b = append(b, " and "...)
		b = append(b, f[s.feats[1]]...)
	} else {
		b = append(b, " Highlights include "...)
		b = append(b, f[s.feats[0]]...)
		b = append(b, ", "...)
		b = append(b, f[s.feats[1]]...)
		b = append(b, " and "...)
		b = append(b, f[s.feats[2]]...)
	}
	b = append(b, '.')

	switch s.tmpl[2] {
	case 0:
		b = append(b, " Available in "...)
		b = append(b, shop.colLower[colour]...)
		if size != "" {
			b = append(b, ", size "...)
			b = append(b, size...)
		}
		b = append(b, '.')
	case 1:
		if len(l.siblings) > 0 {
			b = append(b, " Pairs well with our "...)
			b = append(b, shop.leaves[l.siblings[s.feats[0]%len(l.siblings)]].labelLower...)
			b = append(b, '.')
		}
	case 2:
		b = append(b, " Also known as "...)
		b = append(b, l.syns[0]...)
		b = append(b, '.')
	}

	switch s.tmpl[3] {
	case 0:
		b = append(b, " Rated "...)
		b = strconv.AppendFloat(b, s.rating, 'f', 1, 64)
		b = append(b, " out of 5 by "...)
		b = strconv.AppendInt(b, int64(s.reviews), 10)
		if s.reviews == 1 {
			b = append(b, " customer."...)
		} else {
			b = append(b, " customers."...)
		}
	case 1:
		b = append(b, " Backed by a "...)
		b = strconv.AppendInt(b, int64(1+s.feats[1]%5), 10)
		b = append(b, "-year warranty."...)
	}
	return b
}

// appendProductNumber writes "AI-" and the number zero-padded to six digits.
func appendProductNumber(b []byte, n int) []byte {
	b = append(b, "AI-"...)
	for d := 100000; d > 1 && n < d; d /= 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(n), 10)
}

func appendLower(b, s []byte) []byte {
	for _, c := range s {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// appendMoney formats cents as "$1,299.00".
func appendMoney(b []byte, cents int64) []byte {
	b = append(b, '$')
	dollars := cents / 100
	var digits [20]byte
	ds := strconv.AppendInt(digits[:0], dollars, 10)
	for i, c := range ds {
		if i > 0 && (len(ds)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	c := cents % 100
	return append(b, '.', byte('0'+c/10), byte('0'+c%10))
}
