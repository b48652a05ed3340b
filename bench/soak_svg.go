package bench

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// The soak chart's canvas and plot area, in SVG user units.
const (
	chartW, chartH                    = 720, 360
	plotL, plotR, plotTop, plotBottom = 64, 700, 40, 300
)

// SoakChart draws a soak's resident set over its time as a standalone
// SVG: the samples as a line, the feed imports as shaded spans, the
// thirds the growth rule compares, the limit the last third's largest
// sample is held to, and the verdict under it. The same report always
// draws the same bytes.
func SoakChart(title string, s *SoakReport) []byte {
	var b bytes.Buffer
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">
<rect width="%d" height="%d" fill="#fff"/>
<text x="%d" y="22" text-anchor="middle" font-size="13">%s</text>
`, chartW, chartH, chartW, chartH, chartW, chartH, chartW/2, esc(title))

	span := math.Max(s.Seconds, 1)
	var top int64
	for _, p := range s.RSS {
		top = max(top, p.Bytes)
	}
	top = max(top, s.Growth.LastMaxLimitBytes)
	yStep := niceStep(float64(top)*1.1/1e6, 6)
	yMax := math.Max(yStep, math.Ceil(float64(top)*1.1/1e6/yStep)*yStep)
	x := func(sec float64) float64 { return plotL + (plotR-plotL)*math.Min(math.Max(sec/span, 0), 1) }
	y := func(bytes float64) float64 { return plotBottom - (plotBottom-plotTop)*bytes/1e6/yMax }

	// The feed imports, and the last third, which the rule judges.
	for _, im := range s.Imports {
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="#fdd9b5"/>
`, x(im.AtSeconds), plotTop, math.Max(x(im.AtSeconds+im.Seconds)-x(im.AtSeconds), 1), plotBottom-plotTop)
	}
	fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="#000" fill-opacity="0.05"/>
`, x(span*2/3), plotTop, x(span)-x(span*2/3), plotBottom-plotTop)

	// The axes, with a grid line at each tick.
	for v := 0.0; v <= yMax+yStep/2; v += yStep {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%s</text>
`, plotL, y(v*1e6), plotR, y(v*1e6), plotL-6, y(v*1e6)+4, trimFloat(v))
	}
	unit, per := "s", 1.0
	if span >= 180 {
		unit, per = "min", 60
	}
	xStep := niceStep(span/per, 10) * per
	for v := 0.0; v <= span+xStep/1000; v += xStep {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/><text x="%.1f" y="%d" text-anchor="middle">%s</text>
`, x(v), plotTop, x(v), plotBottom, x(v), plotBottom+16, trimFloat(v/per))
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/><line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000"/>
<text x="%d" y="%d" text-anchor="middle">time into the soak (%s)</text>
<text x="16" y="%d" text-anchor="middle" transform="rotate(-90 16 %d)">resident set (MB)</text>
`, plotL, plotBottom, plotR, plotBottom, plotL, plotTop, plotL, plotBottom,
		(plotL+plotR)/2, plotBottom+32, unit, (plotTop+plotBottom)/2, (plotTop+plotBottom)/2)
	for _, f := range []float64{1.0 / 3, 2.0 / 3} {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#888" stroke-dasharray="4 3"/>
`, x(span*f), plotTop, x(span*f), plotBottom)
	}

	// The limit of the last third's largest sample, then the samples.
	if s.Growth.LastMaxLimitBytes > 0 {
		ly := y(float64(s.Growth.LastMaxLimitBytes))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#d62728" stroke-dasharray="6 3"/><text x="%.1f" y="%.1f" text-anchor="end" fill="#d62728">limit</text>
`, x(span*2/3), ly, x(span), ly, x(span)-4, ly-4)
	}
	var pts []string
	for _, p := range s.RSS {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(p.Seconds), y(float64(p.Bytes))))
	}
	if len(pts) > 0 {
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#1f77b4" stroke-width="1.5"/>
`, strings.Join(pts, " "))
	}

	// The legend and the verdict.
	lx := float64(plotL + 8)
	if len(s.Imports) > 0 {
		fmt.Fprintf(&b, `<rect x="%.0f" y="%d" width="12" height="10" fill="#fdd9b5"/><text x="%.0f" y="%d">feed import</text>
`, lx, plotTop+6, lx+16, plotTop+15)
		lx += 100
	}
	fmt.Fprintf(&b, `<rect x="%.0f" y="%d" width="12" height="10" fill="#000" fill-opacity="0.05" stroke="#ccc"/><text x="%.0f" y="%d">last third, judged</text>
`, lx, plotTop+6, lx+16, plotTop+15)
	verdict := "passed"
	switch {
	case s.Growth.Growing:
		verdict = "failed: the resident set is still growing"
	case !s.Passed:
		verdict = fmt.Sprintf("failed: %d requests failed", s.Failures)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s; %s</text>
</svg>
`, chartW/2, chartH-8, esc(fmt.Sprintf("last third's slope %+.1f MB/min (limit %.1f)", s.Growth.SlopeBytesPerMinute/1e6, s.Growth.SlopeLimitBytesPerMinute/1e6)), esc(verdict))
	return b.Bytes()
}

// niceStep is a step of 1, 2 or 5 times a power of ten that cuts span
// into at most n steps.
func niceStep(span float64, n int) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// trimFloat writes v with no trailing zeros: 5, 2.5, 0.25.
func trimFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
}
