package bench

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNDCGTable checks NDCG against figures worked out by hand, one
// property per row: ranking order, the cut-off, unjudged products, skipped
// terms and the mean over terms.
func TestNDCGTable(t *testing.T) {
	l3 := math.Log2(3) // discount at rank 2
	tests := []struct {
		name   string
		j      Judgments
		ranked map[string][]string
		k      int
		want   float64
		terms  int
	}{
		{
			name:   "ideal order",
			j:      Judgments{"q": {"a": 2, "b": 1}},
			ranked: map[string][]string{"q": {"a", "b"}},
			k:      10, want: 1, terms: 1,
		},
		{
			name:   "swapped",
			j:      Judgments{"q": {"a": 2, "b": 1}},
			ranked: map[string][]string{"q": {"b", "a"}},
			// dcg = 1 + 2/log2(3); ideal = 2 + 1/log2(3)
			k: 10, want: (1 + 2/l3) / (2 + 1/l3), terms: 1,
		},
		{
			name:   "unjudged products gain nothing but take a rank",
			j:      Judgments{"q": {"a": 1}},
			ranked: map[string][]string{"q": {"x", "a"}},
			k:      10, want: 1 / l3, terms: 1,
		},
		{
			name:   "cut-off drops later ranks",
			j:      Judgments{"q": {"a": 1}},
			ranked: map[string][]string{"q": {"x", "a"}},
			k:      1, want: 0, terms: 1,
		},
		{
			name:   "ideal DCG is cut at k too",
			j:      Judgments{"q": {"a": 2, "b": 2}},
			ranked: map[string][]string{"q": {"a", "x"}},
			k:      1, want: 1, terms: 1,
		},
		{
			name:   "nothing found",
			j:      Judgments{"q": {"a": 2}},
			ranked: map[string][]string{},
			k:      10, want: 0, terms: 1,
		},
		{
			name: "term without gain is skipped and not counted",
			j:    Judgments{"q": {"a": 1}, "zero": {"z": 0, "y": 0}},
			ranked: map[string][]string{
				"q": {"a"}, "zero": {"z"},
			},
			k: 10, want: 1, terms: 1,
		},
		{
			name:   "mean over terms",
			j:      Judgments{"p": {"a": 1}, "q": {"b": 1}},
			ranked: map[string][]string{"p": {"a"}, "q": {"x", "b"}},
			k:      10, want: (1 + 1/l3) / 2, terms: 2,
		},
		{
			name: "fractional gains (Home Depot averages)",
			j:    Judgments{"q": {"a": 1.67, "b": 0.33}},
			ranked: map[string][]string{
				"q": {"b", "x", "a"},
			},
			// dcg = 0.33 + 1.67/2; ideal = 1.67 + 0.33/log2(3)
			k: 10, want: (0.33 + 1.67/2) / (1.67 + 0.33/l3), terms: 1,
		},
		{
			name: "no judgments",
			j:    Judgments{},
			k:    10, want: 0, terms: 0,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, n, err := NDCG(tc.j, tc.k, func(term string, k int) ([]string, error) {
				if k != tc.k {
					t.Errorf("search asked for %d results, want %d", k, tc.k)
				}
				return tc.ranked[term], nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.terms || math.Abs(got-tc.want) > 1e-12 {
				t.Fatalf("NDCG = %.6f over %d terms, want %.6f over %d", got, n, tc.want, tc.terms)
			}
		})
	}
}

func TestNDCGSearchError(t *testing.T) {
	boom := errors.New("boom")
	_, _, err := NDCG(Judgments{"drill": {"a": 1}}, 10, func(string, int) ([]string, error) { return nil, boom })
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), `"drill"`) {
		t.Fatalf("err = %v, want the search error wrapped with the term", err)
	}
}

func TestNDCGRejectsCutOff(t *testing.T) {
	for _, k := range []int{0, -3} {
		if _, _, err := NDCG(Judgments{"q": {"a": 1}}, k, func(string, int) ([]string, error) { return nil, nil }); err == nil {
			t.Fatalf("k = %d accepted", k)
		}
		if _, err := EvalHomeDepot(t.TempDir(), k); err == nil || !strings.Contains(err.Error(), "cut-off") {
			t.Fatalf("EvalHomeDepot k = %d: err = %v", k, err)
		}
	}
}

func TestLoadJudgments(t *testing.T) {
	header := "id,product_uid,product_title,search_term,relevance\n"
	tests := []struct {
		name    string
		csv     string
		want    Judgments
		wantErr string
	}{
		{
			name: "gains are relevance minus one, grouped by term",
			csv: header +
				"2,100001,Simpson Strong-Tie 12-Gauge Angle,angle bracket,3\n" +
				"3,100001,Simpson Strong-Tie 12-Gauge Angle,l bracket,2.5\n" +
				"9,100002,\"BEHR Premium, Textured DeckOver\",angle bracket,1\n",
			want: Judgments{
				"angle bracket": {"100001": 2, "100002": 0},
				"l bracket":     {"100001": 1.5},
			},
		},
		{
			name: "columns found by name",
			csv:  "relevance,search_term,product_uid\n2.33,deck over,100002\n",
			want: Judgments{"deck over": {"100002": 2.33 - 1}},
		},
		{name: "header only", csv: header, want: Judgments{}},
		{name: "empty file", csv: "", wantErr: "header"},
		{name: "missing column", csv: "id,product_uid,search_term\n1,2,drill\n", wantErr: `no column "relevance"`},
		{name: "bad relevance", csv: header + "1,100001,t,drill,high\n", wantErr: `:2: relevance "high"`},
		{name: "short row", csv: header + "1,100001,t,drill\n", wantErr: ":2:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "judgments.csv")
			if err := os.WriteFile(path, []byte(tc.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			j, err := LoadJudgments(path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(j) != len(tc.want) {
				t.Fatalf("got %d terms %v, want %v", len(j), j, tc.want)
			}
			for term, want := range tc.want {
				got := j[term]
				if len(got) != len(want) {
					t.Fatalf("%q: got %v, want %v", term, got, want)
				}
				for pn, g := range want {
					if math.Abs(got[pn]-g) > 1e-12 {
						t.Fatalf("%q %s: gain %v, want %v", term, pn, got[pn], g)
					}
				}
			}
		})
	}
	if _, err := LoadJudgments(filepath.Join(t.TempDir(), "missing.csv")); err == nil || !strings.Contains(err.Error(), "load judgments") {
		t.Fatalf("missing file: err = %v", err)
	}
}
