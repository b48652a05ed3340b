package bench

import (
	"fmt"
	"math/rand/v2"

	"github.com/goccy/go-json"
)

// EventBodies are n request bodies of visitors' views of products for
// `aisle bench --events`: one event each for POST /serve/collect/view
// when batch is 0, else batches of that many events, of several kinds,
// for POST /serve/collect. Popularity follows a power law, visitors are
// drawn from 10,000.
func EventBodies(website string, products []string, batch, n int, seed uint64) [][]byte {
	r := rand.New(rand.NewPCG(seed, 10))
	pick := func() string { return products[int(float64(len(products))*r.Float64()*r.Float64()*r.Float64())] }
	event := func(withKind bool) map[string]any {
		e := map[string]any{"websiteUuid": website, "trackingUserId": fmt.Sprintf("bench-visitor-%05d", r.IntN(10000))}
		kind := "view"
		switch k := r.IntN(20); {
		case !withKind || k < 16:
			e["productNumber"] = pick()
		case k < 19:
			kind = "cart"
			e["productNumbers"] = []string{pick(), pick()}
		default:
			kind = "purchase"
			e["orderNumber"] = fmt.Sprintf("bench-order-%d", r.Uint64())
			e["productNumbers"] = []string{pick(), pick(), pick()}
		}
		if withKind {
			e["kind"] = kind
		}
		return e
	}
	out := make([][]byte, n)
	for i := range out {
		var v any
		if batch == 0 {
			v = event(false)
		} else {
			evs := make([]map[string]any, batch)
			for j := range evs {
				evs[j] = event(true)
			}
			v = map[string]any{"events": evs}
		}
		out[i], _ = json.Marshal(v)
	}
	return out
}
