package ranking

// BoostOrder is a boost vector's docs by decreasing boost, equal boosts
// by increasing key: its first docs with a boost above 0, as Top's
// second stream, so a page the boosts decide (a word every doc weighs
// alike) settles after about k of them.
type BoostOrder struct {
	Docs  []uint32
	Boost []float32
	// Rest is the highest boost of a doc past Docs, 0 when Docs holds
	// every boosted doc.
	Rest float32
}

// boostOrderLen is how many boosted docs a BoostOrder keeps.
const boostOrderLen = 4096

// NewBoostOrder sorts boost's boosted docs (keys from order, or the doc
// ids when nil) and keeps the first boostOrderLen.
func NewBoostOrder(boost []float32, order []uint32) *BoostOrder {
	return newBoostOrder(boost, order, boostOrderLen)
}

// newBoostOrder is NewBoostOrder keeping the first n boosted docs.
func newBoostOrder(boost []float32, order []uint32, n int) *BoostOrder {
	var docs []uint32
	var bs []float32
	for d, b := range boost {
		if b > 0 {
			docs, bs = append(docs, uint32(d)), append(bs, b)
		}
	}
	hits := TopNOrdered(docs, bs, nil, order, n+1, nil)
	bo := &BoostOrder{}
	if len(hits) > n {
		bo.Rest = hits[n].Score
		hits = hits[:n]
	}
	bo.Docs, bo.Boost = make([]uint32, len(hits)), make([]float32, len(hits))
	for i, h := range hits {
		bo.Docs[i], bo.Boost[i] = h.Doc, h.Score
	}
	return bo
}

// head is the highest boost of a doc at or past i.
func (bo *BoostOrder) head(i int) float32 {
	if i < len(bo.Docs) {
		return bo.Boost[i]
	}
	return bo.Rest
}
