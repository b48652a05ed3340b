package bench

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

// series is a soak of seconds sampled every second, bytes(t) at each.
func series(seconds int, bytes func(t float64) float64) []RSSSample {
	var s []RSSSample
	for i := 0; i <= seconds; i++ {
		s = append(s, RSSSample{Seconds: float64(i), Bytes: int64(bytes(float64(i)))})
	}
	return s
}

// TestResidentGrowth: the rule calls a leak growing and a flat or
// garbage-collected heap, a warm-up in the first third, or a single late
// peak not growing; too few samples is an error.
func TestResidentGrowth(t *testing.T) {
	const mb = 1e6
	for _, tc := range []struct {
		name    string
		samples []RSSSample
		growing bool
	}{
		{"flat", series(60, func(float64) float64 { return 300 * mb }), false},
		{"a leak of 12 MB a minute", series(600, func(t float64) float64 { return 300*mb + t/60*12*mb }), true},
		{"a slow leak over a short soak", series(60, func(t float64) float64 { return 300*mb + t*mb }), true},
		{"sawtooth: collections every 7 s", series(600, func(t float64) float64 { return 300*mb + math.Mod(t, 7)*4*mb }), false},
		{"warm-up in the first third, then flat", series(600, func(t float64) float64 { return 300*mb + math.Min(t, 150)*mb }), false},
		{"flat with one late peak", series(600, func(t float64) float64 {
			if t == 590 {
				return 330 * mb
			}
			return 300 * mb
		}), false},
	} {
		g, err := ResidentGrowth(tc.samples, tc.samples[len(tc.samples)-1].Seconds)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if g.Growing != tc.growing {
			t.Errorf("%s: growing %t, want %t (%s)", tc.name, g.Growing, tc.growing, g)
		}
	}
	if _, err := ResidentGrowth(series(4, func(float64) float64 { return 1 }), 4); !errors.Is(err, ErrFewSamples) {
		t.Errorf("5 samples: %v, want ErrFewSamples", err)
	}
}

// TestTallyWindows: requests count in the window they were due in,
// failures keep the first few bodies, and the whole run sums the
// windows.
func TestTallyWindows(t *testing.T) {
	start := time.Unix(1000, 0)
	tl := NewTally(start, 10*time.Second)
	for i := range 30 {
		tl.Answered("search", start.Add(time.Duration(i)*time.Second), time.Duration(i+1)*time.Millisecond)
	}
	for i := range MaxSoakErrors + 2 {
		tl.Failed("collect", start.Add(25*time.Second), 503, strings.Repeat("x", 400)+string(rune('a'+i)))
	}
	tl.Wrote(start.Add(5 * time.Second))
	windows, total := tl.Windows(start.Add(30*time.Second), []RSSSample{{Seconds: 1, Bytes: 10}, {Seconds: 21, Bytes: 30}})
	if len(windows) != 3 || windows[0].Requests != 10 || windows[0].Writes != 1 || windows[2].Errors != MaxSoakErrors+2 || windows[2].RSSBytes != 30 {
		t.Fatalf("windows %+v", windows)
	}
	if total.Requests != 30+MaxSoakErrors+2 || total.Errors != MaxSoakErrors+2 || total.P99ms != 30 || total.RSSBytes != 30 {
		t.Errorf("total %+v", total)
	}
	n, errs := tl.Errors()
	if n != MaxSoakErrors+2 || len(errs) != MaxSoakErrors || len(errs[0].Body) > soakErrorBody+len("…") {
		t.Errorf("%d failures, %d kept, the first %d bytes", n, len(errs), len(errs[0].Body))
	}
}

// TestSoakChart: the chart is one well-formed SVG document, the same
// bytes for the same report, with a point for every sample.
func TestSoakChart(t *testing.T) {
	s := &SoakReport{Seconds: 60, RSS: series(60, func(t float64) float64 { return 3e8 + t*1e5 }),
		Imports: []SoakImport{{AtSeconds: 6, Seconds: 2}}}
	s.Growth, _ = ResidentGrowth(s.RSS, 60)
	a, b := SoakChart("a <soak> & more", s), SoakChart("a <soak> & more", s)
	if !bytes.Equal(a, b) {
		t.Error("the same report drew different bytes")
	}
	d := xml.NewDecoder(bytes.NewReader(a))
	points := 0
	for {
		tok, err := d.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("not well-formed XML: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			for _, at := range se.Attr {
				if at.Name.Local == "points" {
					points += len(strings.Fields(at.Value))
				}
			}
		}
	}
	if points != len(s.RSS) {
		t.Errorf("%d points drawn, %d samples", points, len(s.RSS))
	}
}
