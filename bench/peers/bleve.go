// Package peers runs other search engines on Aisle's benchmark catalogs and
// query classes, so speed and relevance are compared in one run. It is its
// own module so Aisle's main module does not depend on them.
package peers

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
)

// Bleve is a scorch (on-disk, the default) Bleve index of a catalog.
type Bleve struct {
	idx   bleve.Index
	dir   string
	Build time.Duration
	Docs  int
}

type bleveDoc struct {
	Title       string   `json:"title"`
	Brand       string   `json:"brand"`
	BrandKW     string   `json:"brand_kw"`
	Category    string   `json:"category"`
	Hierarchy   []string `json:"hierarchy"`
	Description string   `json:"description"`
	Keywords    string   `json:"keywords"`
	Price       float64  `json:"price"`
	InStock     bool     `json:"in_stock"`
}

func bleveMapping() mapping.IndexMapping {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = standard.Name
	text.Store = false
	text.IncludeInAll = true
	kw := bleve.NewTextFieldMapping()
	kw.Analyzer = keyword.Name
	kw.Store = false
	kw.IncludeInAll = false
	kw.DocValues = true
	num := bleve.NewNumericFieldMapping()
	num.Store = false
	num.IncludeInAll = false
	num.DocValues = true
	flag := bleve.NewBooleanFieldMapping()
	flag.Store = false
	flag.IncludeInAll = false
	flag.DocValues = true
	doc := bleve.NewDocumentStaticMapping()
	for _, f := range []string{"title", "brand", "category", "description", "keywords"} {
		doc.AddFieldMappingsAt(f, text)
	}
	doc.AddFieldMappingsAt("brand_kw", kw)
	doc.AddFieldMappingsAt("hierarchy", kw)
	doc.AddFieldMappingsAt("price", num)
	doc.AddFieldMappingsAt("in_stock", flag)
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = standard.Name
	return m
}

// NewBleve indexes products into a new scorch index in dir, in batches.
func NewBleve(dir string, products bench.Products) (*Bleve, error) {
	idx, err := bleve.New(dir, bleveMapping())
	if err != nil {
		return nil, fmt.Errorf("bleve: create %s: %w", dir, err)
	}
	b := &Bleve{idx: idx, dir: dir}
	start := time.Now()
	batch := idx.NewBatch()
	err = products(func(p *catalog.Product) error {
		d := bleveDoc{Title: p.Title, Brand: p.Brand, BrandKW: p.Brand, Description: p.Description, Keywords: p.Keywords, Price: p.Price, InStock: p.InStock}
		var cats []string
		for _, h := range p.Hierarchies {
			cats = append(cats, h...)
			acc := ""
			for _, l := range h {
				acc += l + "$"
				d.Hierarchy = append(d.Hierarchy, acc)
			}
		}
		d.Category = strings.Join(cats, " ")
		if err := batch.Index(p.ProductNumber, d); err != nil {
			return err
		}
		b.Docs++
		if batch.Size() >= 1000 {
			if err := idx.Batch(batch); err != nil {
				return err
			}
			batch.Reset()
		}
		return nil
	})
	if err == nil && batch.Size() > 0 {
		err = idx.Batch(batch)
	}
	if err != nil {
		idx.Close()
		return nil, fmt.Errorf("bleve: index: %w", err)
	}
	b.Build = time.Since(start)
	return b, nil
}

// Close closes and removes the index.
func (b *Bleve) Close() error {
	err := b.idx.Close()
	os.RemoveAll(b.dir)
	return err
}

// SizeBytes is the index's size on disk.
func (b *Bleve) SizeBytes() int64 { return bench.DirSize(b.dir) }

// Search runs the Bleve equivalent of an Aisle search request: a match
// query (fuzziness 1 for typo'd queries), filters as conjunctions, the
// four facets of bench.FacetFields as terms facets (brand, category
// paths, stock) and a numeric-range facet (price buckets, where Aisle
// returns the bounds), and one extra facet-only query per filtered facet
// field for disjunctive counts, as Bleve users do.
func (b *Bleve) Search(r *engine.SearchRequest, fuzzy bool) ([]string, error) {
	ps := r.Products
	q := strings.TrimSpace(*r.Query)
	var text query.Query
	if q == "*" || q == "" {
		text = bleve.NewMatchAllQuery()
	} else {
		mq := bleve.NewMatchQuery(q)
		if fuzzy {
			mq.SetFuzziness(1)
		}
		text = mq
	}
	filters := map[string]query.Query{}
	for _, f := range ps.Filters {
		field, value, _ := strings.Cut(f, ":")
		switch field {
		case "brand":
			tq := bleve.NewTermQuery(value)
			tq.SetField("brand_kw")
			filters["brand"] = tq
		case "hierarchies":
			tq := bleve.NewTermQuery(value)
			tq.SetField("hierarchy")
			filters["hierarchies"] = tq
		case "inStock":
			bq := bleve.NewBoolFieldQuery(value == "true")
			bq.SetField("in_stock")
			filters["inStock"] = bq
		case "price":
			lo, hi, _ := strings.Cut(value, ",")
			var minp, maxp *float64
			var a, c float64
			if _, err := fmt.Sscan(lo, &a); err == nil {
				minp = &a
			}
			if _, err := fmt.Sscan(hi, &c); err == nil {
				maxp = &c
			}
			t := true
			nq := bleve.NewNumericRangeInclusiveQuery(minp, maxp, &t, &t)
			nq.SetField("price")
			filters["price"] = nq
		}
	}
	build := func(skip string) query.Query {
		parts := []query.Query{text}
		for name, f := range filters {
			if name != skip {
				parts = append(parts, f)
			}
		}
		if len(parts) == 1 {
			return text
		}
		return bleve.NewConjunctionQuery(parts...)
	}
	count := 10
	if ps.Count != nil {
		count = *ps.Count
	}
	req := bleve.NewSearchRequestOptions(build(""), count, 0, false)
	if len(ps.Sorting) > 0 && strings.HasPrefix(ps.Sorting[0], "price") {
		if strings.HasSuffix(ps.Sorting[0], "desc") {
			req.SortBy([]string{"-price"})
		} else {
			req.SortBy([]string{"price"})
		}
	}
	facets := map[string]*bleve.FacetRequest{}
	if ps.ReturnFilters {
		facets["brand"] = bleve.NewFacetRequest("brand_kw", 100)
		facets["hierarchies"] = bleve.NewFacetRequest("hierarchy", 100)
		pf := bleve.NewFacetRequest("price", 10)
		lo := 0.0
		for _, hi := range []float64{10, 25, 50, 100, 250, 500, 1000, 2500, 5000} {
			l, h := lo, hi
			pf.AddNumericRange(fmt.Sprintf("%g-%g", l, h), &l, &h)
			lo = hi
		}
		facets["price"] = pf
		facets["inStock"] = bleve.NewFacetRequest("in_stock", 2)
		for name, fr := range facets {
			if _, filtered := filters[name]; !filtered {
				req.AddFacet(name, fr)
			}
		}
	}
	res, err := b.idx.Search(req)
	if err != nil {
		return nil, err
	}
	for name, fr := range facets {
		if _, filtered := filters[name]; !filtered {
			continue
		}
		fq := bleve.NewSearchRequestOptions(build(name), 0, 0, false)
		fq.AddFacet(name, fr)
		if _, err := b.idx.Search(fq); err != nil {
			return nil, err
		}
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	return ids, nil
}

// BleveSearcher answers with Bleve in process.
func BleveSearcher(b *Bleve) bench.Searcher {
	return bench.Searcher{Name: "bleve", Search: func(r *bench.Request, c bench.Class) error {
		_, err := b.Search(r.Req, c == bench.ClassTypo)
		return err
	}}
}
