package expect

import (
	"testing"
	"time"
)

// recorder is a testing.TB that notes a failure instead of stopping the
// test that uses it.
type recorder struct {
	testing.TB
	failed, skipped bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Skip(...any)           { r.skipped = true }

func TestSomeFailsOnEmpty(t *testing.T) {
	r := &recorder{TB: t}
	Some(r, "empty", []int{})
	if !r.failed {
		t.Fatal("Some passed an empty slice")
	}
	r = &recorder{TB: t}
	if got := Some(r, "one", []int{7}); r.failed || len(got) != 1 {
		t.Fatal("Some failed a non-empty slice")
	}
	r = &recorder{TB: t}
	AtLeast(r, "two", 3, []int{1, 2})
	if !r.failed {
		t.Fatal("AtLeast passed 2 of 3")
	}
}

func TestCounter(t *testing.T) {
	r := &recorder{TB: t}
	c := Counter{What: "loop"}
	c.Check(r)
	if !r.failed {
		t.Fatal("a loop that never ran passed")
	}
	r = &recorder{TB: t}
	c = Counter{What: "loop", Min: 2, N: 2}
	if c.Check(r); r.failed {
		t.Fatal("a loop that ran enough failed")
	}
}

func TestSkipOrFail(t *testing.T) {
	for _, tc := range []struct {
		env, ci       string
		fail, skipped bool
	}{
		{"", "", false, true},
		{"1", "", true, false},
		{"true", "", true, false},
		{"", "true", true, false},
		{"0", "true", false, true},
	} {
		t.Setenv("AISLE_TEST_SWITCH", tc.env)
		t.Setenv("CI", tc.ci)
		r := &recorder{TB: t}
		SkipOrFail(r, "AISLE_TEST_SWITCH", "no data")
		if r.failed != tc.fail || r.skipped != tc.skipped {
			t.Errorf("switch %q CI %q: failed %v skipped %v", tc.env, tc.ci, r.failed, r.skipped)
		}
	}
}

func TestSameAfterJSON(t *testing.T) {
	type item struct {
		Tags  []string
		Attrs map[string]string
		When  time.Time
		Name  string
		Next  *item
		Any   map[string]any
	}
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name string
		a, b any
		same bool
	}{
		{"nil and empty slices and maps", item{When: at}, item{Tags: []string{}, Attrs: map[string]string{}, When: at}, true},
		{"one instant in two zones", item{When: at}, item{When: at.In(time.FixedZone("x", 3600))}, true},
		{"a byte that is not UTF-8 and U+FFFD", item{Name: "a\xffb"}, item{Name: "a\uFFFDb"}, true},
		{"nested", &item{Next: &item{Tags: []string{"x"}}}, &item{Next: &item{Tags: []string{"x"}}}, true},
		{"another string", item{Name: "a"}, item{Name: "b"}, false},
		{"another element", item{Tags: []string{"a"}}, item{Tags: []string{"b"}}, false},
		{"a missing map key", item{Attrs: map[string]string{"a": "1"}}, item{Attrs: map[string]string{"b": "1"}}, false},
		{"another instant", item{When: at}, item{When: at.Add(time.Second)}, false},
		{"nil and a pointer", &item{}, &item{Next: &item{}}, false},
		{"JSON values", item{Any: map[string]any{"a": []any{1.0, map[string]any{"b": nil}}}}, item{Any: map[string]any{"a": []any{1.0, map[string]any{"b": nil}}}}, true},
		{"another JSON value", item{Any: map[string]any{"a": []any{1.0}}}, item{Any: map[string]any{"a": []any{2.0}}}, false},
		{"a JSON null and a value", item{Any: map[string]any{"a": nil}}, item{Any: map[string]any{"a": false}}, false},
	} {
		if got := SameAfterJSON(tc.a, tc.b); got != tc.same {
			t.Errorf("%s: SameAfterJSON = %v, want %v", tc.name, got, tc.same)
		}
	}
}
