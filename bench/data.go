package bench

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/datasets"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/engine"
)

// FindSharedData is the shared/data folder beside the checkout.
func FindSharedData() (string, error) { return datasets.Dir() }

// Products is a catalog source as the engine reads it.
type Products func(fn func(*catalog.Product) error) error

// CSVCatalog reads a real catalog under shared/data with its built-in
// mapping ("homedepot", "flipkart").
func CSVCatalog(sharedData, name string) (Products, error) {
	m, err := catalog.BuiltinMapping(name)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(sharedData, name, "products.csv")
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("catalog %s: %w", name, err)
	}
	return func(fn func(*catalog.Product) error) error {
		return catalog.ReadFile(path, m, nil, func(p *catalog.Product) error {
			p.Normalize()
			return fn(p)
		})
	}, nil
}

// Generated is the demo generator's catalog of n products.
func Generated(n int, seed uint64) Products {
	return func(fn func(*catalog.Product) error) error { return demo.Each(n, seed, fn) }
}

// Build indexes products under a website configuration in memory.
func Build(w *config.Website, products Products) (*engine.Generation, error) {
	return engine.Build(w, analysis.English, engine.Source{Products: products}, nil)
}
