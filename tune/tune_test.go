package tune

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/aisle-search/aisle/config"
)

func version() *config.SearchVersion {
	return &config.SearchVersion{ID: 1, Status: config.StatusLive, Fields: []config.SearchField{{Name: "title", Weight: 5}, {Name: "brand", Weight: 3}}}
}

func defaultB(string) float64 { return 0.5 }

// planted scores a version by its distance from a planted optimum: title
// 10, brand 1.5, title b 0.8, proximity 0.1, exact forms 0.5. Terms are
// ignored.
func planted(v *config.SearchVersion, _ []string) (float64, error) {
	d := math.Abs(math.Log(v.Fields[0].Weight/10)) + math.Abs(math.Log(v.Fields[1].Weight/1.5))
	if b := v.Fields[0].LengthNormalization; b != nil {
		d += math.Abs(*b - 0.8)
	} else {
		d += 0.3
	}
	d += math.Abs(v.ProximityOrDefault()-0.1) + math.Abs(v.ExactFormsOrDefault()-0.5)
	return 1 / (1 + d), nil
}

// TestFitFindsAPlantedOptimum: coordinate ascent walks the settings to a
// planted optimum within its steps, and never changes the version it
// started from.
func TestFitFindsAPlantedOptimum(t *testing.T) {
	start := version()
	before := fmt.Sprintf("%+v", *start)
	got, score, err := Fit(start, Params(start, defaultB), planted, nil, 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := got.Fields[0].Weight; math.Abs(w-10) > 10*0.2 {
		t.Errorf("title weight %v, want about 10", w)
	}
	if w := got.Fields[1].Weight; math.Abs(w-1.5) > 1.5*0.2 {
		t.Errorf("brand weight %v, want about 1.5", w)
	}
	if b := got.Fields[0].LengthNormalization; b == nil || math.Abs(*b-0.8) > 0.1 {
		t.Errorf("title length normalisation %v, want about 0.8", b)
	}
	if p := got.ProximityOrDefault(); math.Abs(p-0.1) > 0.03 {
		t.Errorf("proximity %v, want about 0.1", p)
	}
	if e := got.ExactFormsOrDefault(); math.Abs(e-0.5) > 0.06 {
		t.Errorf("exact forms %v, want about 0.5", e)
	}
	if base, _ := planted(start, nil); score <= base {
		t.Errorf("score %v, no better than the start's %v", score, base)
	}
	if after := fmt.Sprintf("%+v", *start); after != before {
		t.Errorf("the start version changed: %s, was %s", after, before)
	}
}

// TestFitKeepsBounds: moves never leave a setting's range.
func TestFitKeepsBounds(t *testing.T) {
	// An objective that always wants more: weights up, b and proximity up.
	more := func(v *config.SearchVersion, _ []string) (float64, error) {
		s := v.ProximityOrDefault()
		for _, f := range v.Fields {
			s += f.Weight
			if f.LengthNormalization != nil {
				s += *f.LengthNormalization
			}
		}
		return s, nil
	}
	got, _, err := Fit(version(), Params(version(), defaultB), more, nil, 50, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got.Fields {
		if f.Weight > 100 || f.LengthNormalization == nil || *f.LengthNormalization > 1 {
			t.Errorf("field %s: weight %v, b %v: out of range", f.Name, f.Weight, f.LengthNormalization)
		}
	}
	if p := got.ProximityOrDefault(); p > 1 {
		t.Errorf("proximity %v, past 1", p)
	}
}

// TestFoldsPartitionTerms: every term is in exactly one fold, the folds
// are about equal, and a term's fold does not depend on the others.
func TestFoldsPartitionTerms(t *testing.T) {
	var terms []string
	for i := range 1000 {
		terms = append(terms, fmt.Sprintf("term %d", i))
	}
	folds := Folds(terms, 5)
	var all []string
	for _, f := range folds {
		if len(f) < 150 || len(f) > 250 {
			t.Errorf("a fold of %d terms of 1000", len(f))
		}
		all = append(all, f...)
	}
	slices.Sort(all)
	want := slices.Sorted(slices.Values(terms))
	if !slices.Equal(all, want) {
		t.Fatal("the folds do not hold each term once")
	}
	few := Folds(terms[:10], 5)
	for i, f := range few {
		for _, term := range f {
			if !slices.Contains(folds[i], term) {
				t.Errorf("%q moved fold with fewer terms", term)
			}
		}
	}
}

// TestCrossValidateMeasuresHeldOutTerms: each fold's fit sees only the
// other folds' terms and is measured on its own.
func TestCrossValidateMeasuresHeldOutTerms(t *testing.T) {
	var terms []string
	for i := range 100 {
		terms = append(terms, fmt.Sprintf("t%d", i))
	}
	folds := Folds(terms, 4)
	obj := planted
	rs, err := CrossValidate(version(), Params(version(), defaultB), obj, terms, 4, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if r.Test != len(folds[i]) || r.Train != len(terms)-len(folds[i]) {
			t.Errorf("fold %d: %d train, %d test terms; want %d and %d", i, r.Train, r.Test, len(terms)-len(folds[i]), len(folds[i]))
		}
		if r.Tuned <= r.Base {
			t.Errorf("fold %d: tuned %v, base %v", i, r.Tuned, r.Base)
		}
	}
	if _, err := CrossValidate(version(), nil, obj, terms, 1, 3, nil); err == nil {
		t.Error("one fold accepted")
	}
}
