package live

import (
	"testing"
	"time"
)

// TestSaveWait: saves are saveEvery apart, and nine times as long as
// the last took once that is longer, so they take at most a tenth of
// the time.
func TestSaveWait(t *testing.T) {
	for _, tc := range []struct{ took, want time.Duration }{
		{0, saveEvery},
		{time.Second, saveEvery},
		{saveEvery / saveQuiet, saveEvery},
		{4 * time.Second, 36 * time.Second},
		{10 * time.Second, 90 * time.Second},
	} {
		if got := saveWait(tc.took); got != tc.want {
			t.Errorf("after a save of %v: wait %v, want %v", tc.took, got, tc.want)
		}
	}
}
