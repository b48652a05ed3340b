package bench

import "testing"

// BenchmarkSearchFields is the words class with and without a field list:
// shops usually ask for a few fields per hit, and projecting them is a
// separate path in AppendJSON from copying the stored document whole.
func BenchmarkSearchFields(b *testing.B) {
	g, reqs := benchCatalog(b)
	rs := reqs[ClassWords]
	for _, bc := range []struct {
		name   string
		fields []string
	}{
		{"whole", nil},
		{"4-fields", []string{"productNumber", "title", "brand", "price"}},
	} {
		// Copies of the requests with the field list, made before timing.
		req := make([]Request, len(rs))
		for i, r := range rs {
			q := *r.Req
			p := *q.Products
			p.Fields = bc.fields
			q.Products = &p
			req[i] = Request{Req: &q}
		}
		b.Run(bc.name, func(b *testing.B) {
			buf := make([]byte, 0, 64<<10)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				res, err := g.Search(req[i%len(req)].Req)
				if err != nil {
					b.Fatal(err)
				}
				buf = res.AppendJSON(buf[:0])
				i++
			}
		})
	}
}
