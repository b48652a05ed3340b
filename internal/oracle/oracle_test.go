package oracle

import "testing"

func TestOSA(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"drill", "drill", 0},
		{"drill", "dril", 1},          // deletion
		{"drill", "drills", 1},        // insertion
		{"drill", "drell", 1},         // substitution
		{"sprinkler", "sprinkelr", 1}, // transposition
		{"ca", "abc", 3},              // OSA, not Damerau: no edit of a transposed pair
		{"hammer", "drill", 6},
		{"müller", "muller", 1}, // runes, not bytes
	} {
		if got := OSA([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("OSA(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
