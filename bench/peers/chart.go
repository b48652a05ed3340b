package peers

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/aisle-search/aisle/bench"
)

// engineColors keeps an engine's colour the same across charts.
var engineColors = map[string]color.RGBA{
	"aisle":    {R: 0x1b, G: 0x9e, B: 0x77, A: 0xff},
	"bleve":    {R: 0xd9, G: 0x5f, B: 0x02, A: 0xff},
	"postgres": {R: 0x75, G: 0x70, B: 0xb3, A: 0xff},
	"sphinx":   {R: 0xe7, G: 0x29, B: 0x8a, A: 0xff},
}

// LatencyChart draws p50 (solid) and p99 (dashed) latency per query class
// for each engine on a log scale, as SVG (or PNG, by the file's suffix),
// so the gaps between engines read at a glance.
func LatencyChart(path, title string, results [][]bench.Result) error {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "latency (µs, log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.X.Label.Text = "query class"
	var labels []string
	byEngine := map[string][2]plotter.XYs{}
	var order []string
	for ci, rs := range results {
		if len(rs) == 0 {
			continue
		}
		label := rs[0].Class
		for _, c := range bench.Classes {
			if c.String() == label {
				label = fmt.Sprintf("%d %s", c, label)
			}
		}
		labels = append(labels, label)
		for _, r := range rs {
			xy, seen := byEngine[r.Engine]
			if !seen {
				order = append(order, r.Engine)
			}
			xy[0] = append(xy[0], plotter.XY{X: float64(ci), Y: math.Max(r.P50us, 1)})
			xy[1] = append(xy[1], plotter.XY{X: float64(ci), Y: math.Max(r.P99us, 1)})
			byEngine[r.Engine] = xy
		}
	}
	for _, e := range order {
		c, ok := engineColors[e]
		if !ok {
			c = color.RGBA{A: 0xff}
		}
		for k, name := range []string{e + " p50", e + " p99"} {
			line, points, err := plotter.NewLinePoints(byEngine[e][k])
			if err != nil {
				return fmt.Errorf("chart: %w", err)
			}
			line.Color, points.Color = c, c
			line.Width = vg.Points(1.5)
			points.Shape = draw.CircleGlyph{}
			if k == 1 {
				line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				points.Shape = draw.TriangleGlyph{}
			}
			p.Add(line, points)
			p.Legend.Add(name, line, points)
		}
	}
	// A decade of headroom keeps the legend, top left, off the lines.
	p.Y.Min, p.Y.Max = math.Inf(1), 0
	for _, xy := range byEngine {
		for _, pts := range xy {
			for _, pt := range pts {
				p.Y.Min, p.Y.Max = math.Min(p.Y.Min, pt.Y), math.Max(p.Y.Max, pt.Y)
			}
		}
	}
	p.Y.Min, p.Y.Max = p.Y.Min/2, p.Y.Max*12
	p.Legend.Top = true
	p.Legend.Left = true
	p.NominalX(labels...)
	p.Add(plotter.NewGrid())
	if err := p.Save(9*vg.Inch, 5*vg.Inch, path); err != nil {
		return fmt.Errorf("chart %s: %w", path, err)
	}
	return nil
}
