// Package bench measures Aisle: relevance (NDCG on human judgments,
// hit rates on real baskets), in-process query cost beside peer engines,
// HTTP throughput and latency under load, writes while serving, event
// ingestion, and what hostile bodies cost the server. It also reads the
// reports those runs save and renders them as the markdown tables of
// docs/benchmarks.md (LoadReports, RenderReportTables). The aisle bench,
// aisle eval and aisle tune commands are thin layers over it.
package bench

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Judgments maps a search term to the judged products and their gains.
type Judgments map[string]map[string]float64

// LoadJudgments reads graded judgments from a CSV with a header, in one
// of two forms:
//   - a shop's: query, productNumber, grade (the gain, 0 = not relevant;
//     other columns ignored);
//   - Home Depot's: product_uid, search_term, relevance (1 to 3; gain =
//     relevance − 1).
func LoadJudgments(path string) (Judgments, error) {
	header, err := csvHeader(path)
	if err != nil {
		return nil, fmt.Errorf("load judgments: %w", err)
	}
	cols, offset := []string{"productNumber", "query", "grade"}, 0.0
	if !slices.Contains(header, "query") {
		cols, offset = []string{"product_uid", "search_term", "relevance"}, 1
		if !slices.Contains(header, "search_term") {
			return nil, fmt.Errorf("load judgments: %s: the header has neither query, productNumber and grade nor product_uid, search_term and relevance", path)
		}
	}
	j := Judgments{}
	err = readCSV(path, cols, func(row []string) error {
		g, err := strconv.ParseFloat(row[2], 64)
		if err != nil || g-offset < 0 {
			return fmt.Errorf("%s %q: want a number, at least %v", cols[2], row[2], offset)
		}
		if j[row[1]] == nil {
			j[row[1]] = map[string]float64{}
		}
		j[row[1]][row[0]] = g - offset
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load judgments: %w", err)
	}
	return j, nil
}

// Terms is the judged search terms in a stable order.
func (j Judgments) Terms() []string {
	out := make([]string, 0, len(j))
	for t := range j {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// NDCG is the mean NDCG@k over the judged terms: search returns the
// product numbers ranked for a term; unjudged products gain 0; terms whose
// judged gains are all 0 are skipped and not counted.
func NDCG(j Judgments, k int, search func(term string, k int) ([]string, error)) (mean float64, terms int, err error) {
	if k < 1 {
		return 0, 0, fmt.Errorf("ndcg: cut-off k = %d, want at least 1", k)
	}
	var sum float64
	gains := make([]float64, 0, 16)
	for _, term := range j.Terms() {
		judged := j[term]
		gains = gains[:0]
		for _, g := range judged {
			gains = append(gains, g)
		}
		slices.Sort(gains)
		slices.Reverse(gains)
		ideal := dcg(gains, k)
		if ideal == 0 {
			continue
		}
		ranked, err := search(term, k)
		if err != nil {
			return 0, 0, fmt.Errorf("search %q: %w", term, err)
		}
		got := make([]float64, 0, k)
		for _, pn := range ranked {
			got = append(got, judged[pn])
		}
		sum += dcg(got, k) / ideal
		terms++
	}
	if terms == 0 {
		return 0, 0, nil
	}
	return sum / float64(terms), terms, nil
}

func dcg(gains []float64, k int) float64 {
	var s float64
	for i, g := range gains {
		if i >= k {
			break
		}
		s += g / math.Log2(float64(i+2))
	}
	return s
}
