package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkProgress checks the reports ReadFile gave for a file of size bytes
// against its doc ("told the bytes read so far at least every MiB and once
// at the end") and progressReader's ("never more than a MiB apart and never
// more often than every progressMin bytes"): they rise by at most a MiB a
// step, by at least progressMin except for the one at the end, and end at
// the size.
func checkProgress(t *testing.T, reports []int64, size int64) {
	t.Helper()
	if len(reports) == 0 || reports[len(reports)-1] != size {
		t.Fatalf("reports %v for %d bytes: the last is not the size", reports, size)
	}
	prev := int64(0)
	for i, r := range reports {
		switch step := r - prev; {
		case step < 0:
			t.Errorf("reports %v: going back from %d to %d", reports, prev, r)
		case step > 1<<20:
			t.Errorf("reports %v: a step of %d bytes from %d to %d, over a MiB", reports, step, prev, r)
		case step < progressMin && i < len(reports)-1:
			t.Errorf("reports %v: a step of %d bytes from %d to %d, under %d", reports, step, prev, r, progressMin)
		}
		prev = r
	}
}

// TestReadFileProgressLongLine: catalog/feed.go, ReadFile's onBytes "is
// told the bytes read so far at least every MiB and once at the end", for a
// JSONL file whose second line (a 2.5 MB description) is longer than the
// read buffer: the buffer then asks the file for a few bytes, and right
// after for a whole buffer, which must still come in reports a MiB apart.
func TestReadFileProgressLongLine(t *testing.T) {
	desc := strings.Repeat("a very long description ", 110_000)
	var b strings.Builder
	b.WriteString(`{"productNumber":"1","title":"short"}` + "\n")
	fmt.Fprintf(&b, `{"productNumber":"2","title":"long","description":%q}`+"\n", desc)
	for i := 3; i <= 2000; i++ {
		fmt.Fprintf(&b, `{"productNumber":"%d","title":"after"}`+"\n", i)
	}
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var reports []int64
	n := 0
	err := ReadFile(path, nil, func(done int64) { reports = append(reports, done) }, func(p *Product) error {
		n++
		if p.ProductNumber != fmt.Sprint(n) || (n == 2 && p.Description != desc) {
			return fmt.Errorf("product %d is %q with a description of %d bytes", n, p.ProductNumber, len(p.Description))
		}
		return nil
	})
	if err != nil || n != 2000 {
		t.Fatalf("read %d products: %v", n, err)
	}
	checkProgress(t, reports, int64(b.Len()))
}

// endless is a reader of as many zero bytes as asked, recording the size
// of each read.
type endless struct{ asked []int }

func (e *endless) Read(p []byte) (int, error) {
	e.asked = append(e.asked, len(p))
	clear(p)
	return len(p), nil
}

// TestProgressReaderSteps: catalog/feed.go, progressReader: "each read is
// at most progressStep bytes and any read that brings the count
// progressMin past the last report is reported". Reads of chosen sizes,
// one of them exactly progressMin past the last report, one far over a MiB.
func TestProgressReaderSteps(t *testing.T) {
	src := &endless{}
	var reports []int64
	pr := &progressReader{r: src, onBytes: func(n int64) { reports = append(reports, n) }}
	buf := make([]byte, 4<<20)
	for _, size := range []int{
		progressMin,     // exactly progressMin: reported at 64 KiB
		progressMin - 1, // not yet
		1,               // now exactly progressMin past: reported at 128 KiB
		4 << 20,         // cut to progressStep: reported at 128 KiB + progressStep
		progressStep,    // a read of exactly progressStep is not cut
		100,             // not reported
	} {
		if n, err := pr.Read(buf[:size]); err != nil || n != min(size, progressStep) {
			t.Fatalf("a read of %d bytes returned %d, %v", size, n, err)
		}
	}
	wantAsked := []int{progressMin, progressMin - 1, 1, progressStep, progressStep, 100}
	wantReports := []int64{progressMin, 2 * progressMin, 2*progressMin + progressStep, 2*progressMin + 2*progressStep}
	if !slices.Equal(src.asked, wantAsked) || !slices.Equal(reports, wantReports) {
		t.Errorf("asked the source for %v, reported %v\nwant asked %v, reported %v", src.asked, reports, wantAsked, wantReports)
	}
	if want := int64(2*progressMin + 2*progressStep + 100); pr.n != want {
		t.Errorf("counted %d bytes, want %d", pr.n, want)
	}

}
