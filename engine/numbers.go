package engine

// Products found by their numbers, as search, recommendations and writes
// find them.

// StoredNumber is the number the product numbered pn is stored under,
// compared folded as search compares product numbers (a variant's
// number is not its product's); ok is false when there is none.
func (g *Generation) StoredNumber(pn string) (string, bool) {
	d, ok := g.Doc(pn)
	if !ok {
		return "", false
	}
	return g.Products.Key(d), true
}

// Doc is the doc in g.Products of the product numbered pn, compared as
// StoredNumber compares.
func (g *Generation) Doc(pn string) (uint32, bool) {
	d, ok := g.Products.DocByKey(foldString(pn))
	if !ok || foldString(g.Products.Key(d)) != foldString(pn) {
		return 0, false
	}
	return d, true
}
