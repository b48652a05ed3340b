package bench

import (
	"errors"
	"fmt"
)

// The rule a soak's resident set is judged by (docs/decisions.md, The
// soak): it is still growing when, over the last third of the soak,
// both
//
//   - the least-squares slope of its samples is above GrowthSlope of the
//     middle third's largest sample a minute, and
//   - its largest sample is above the middle third's largest by more
//     than GrowthMargin of it.
//
// Either alone misreads a garbage-collected heap: a sawtooth's slope
// over a window depends on where the window cuts its teeth, and a single
// new peak can be one collection that came late. A leak raises both the
// trend and the peaks. The limits leave room for a bounded warm-up
// outside Go's heap: pebble's memtables start at 256 KiB and double up
// to 32 MiB as the event log fills them, which a soak of a minute under
// the race detector (some 10 MB of events a minute) does not get past;
// a minute's soak catches a large leak, a ten-minute one a slow one.
const (
	GrowthSlope  = 0.02 // of the middle third's largest sample, a minute
	GrowthMargin = 0.05 // of the middle third's largest sample
)

// minThirdSamples is the fewest samples a third needs to be judged.
const minThirdSamples = 3

// ErrFewSamples is a soak too short, or sampled too seldom, for its
// resident set to be judged.
var ErrFewSamples = errors.New("too few resident set samples to judge")

// RSSSample is a server's resident set at a time of a soak.
type RSSSample struct {
	Seconds float64 `json:"s"` // since the soak's start
	Bytes   int64   `json:"bytes"`
}

// Growth is the verdict of the growth rule on a soak's resident set.
type Growth struct {
	SlopeBytesPerMinute      float64 `json:"slopeBytesPerMinute"` // the last third's least-squares slope
	SlopeLimitBytesPerMinute float64 `json:"slopeLimitBytesPerMinute"`
	MiddleMaxBytes           int64   `json:"middleMaxBytes"`
	LastMaxBytes             int64   `json:"lastMaxBytes"`
	LastMaxLimitBytes        int64   `json:"lastMaxLimitBytes"`
	Growing                  bool    `json:"growing"`
}

// ResidentGrowth judges the samples of a soak of seconds by the growth
// rule; ErrFewSamples when the middle or the last third holds fewer
// than three samples.
func ResidentGrowth(samples []RSSSample, seconds float64) (Growth, error) {
	var g Growth
	var last []RSSSample
	middle := 0
	for _, s := range samples {
		switch {
		case s.Seconds >= seconds*2/3:
			last = append(last, s)
			g.LastMaxBytes = max(g.LastMaxBytes, s.Bytes)
		case s.Seconds >= seconds/3:
			middle++
			g.MiddleMaxBytes = max(g.MiddleMaxBytes, s.Bytes)
		}
	}
	if middle < minThirdSamples || len(last) < minThirdSamples {
		return g, fmt.Errorf("%w: %d in the middle third and %d in the last of %.0fs, want %d each", ErrFewSamples, middle, len(last), seconds, minThirdSamples)
	}
	g.SlopeBytesPerMinute = slope(last) * 60
	g.SlopeLimitBytesPerMinute = GrowthSlope * float64(g.MiddleMaxBytes)
	g.LastMaxLimitBytes = g.MiddleMaxBytes + int64(GrowthMargin*float64(g.MiddleMaxBytes))
	g.Growing = g.SlopeBytesPerMinute > g.SlopeLimitBytesPerMinute && g.LastMaxBytes > g.LastMaxLimitBytes
	return g, nil
}

// slope is the least-squares slope of the samples' bytes over their
// seconds (0 when they share one time).
func slope(s []RSSSample) float64 {
	var mx, my float64
	for _, p := range s {
		mx += p.Seconds
		my += float64(p.Bytes)
	}
	n := float64(len(s))
	mx, my = mx/n, my/n
	var sxy, sxx float64
	for _, p := range s {
		dx := p.Seconds - mx
		sxy += dx * (float64(p.Bytes) - my)
		sxx += dx * dx
	}
	if sxx == 0 {
		return 0
	}
	return sxy / sxx
}

// String is the verdict as the soak prints it.
func (g Growth) String() string {
	verdict := "not growing"
	if g.Growing {
		verdict = "STILL GROWING"
	}
	margin := 0.0 // as the verdict was reached, whatever the rule is now
	if g.MiddleMaxBytes > 0 {
		margin = 100 * (float64(g.LastMaxLimitBytes)/float64(g.MiddleMaxBytes) - 1)
	}
	return fmt.Sprintf("last third: slope %+.1f MB/min (limit %.1f), largest %.1f MB (limit %.1f, the middle third's %.1f MB + %.0f%%): %s",
		g.SlopeBytesPerMinute/1e6, g.SlopeLimitBytesPerMinute/1e6, float64(g.LastMaxBytes)/1e6, float64(g.LastMaxLimitBytes)/1e6,
		float64(g.MiddleMaxBytes)/1e6, margin, verdict)
}
