package view

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/mcpeval/mcpeval/record"
)

// histogram is a distribution drawn as inline SVG bars.
type histogram struct {
	Title         string
	Width, Height float64
	Bars          []histBar
	// Low and High label the axis; Summary gives median, p90 and max.
	Low, High, Summary string
}

type histBar struct {
	X, Y, W, H float64
	Title      string
}

const (
	histW, histH = 300.0, 80.0
	histBins     = 12
)

// newHistogram bins values; unit follows each number in labels. Nil when
// there are no values.
func newHistogram(title string, values []float64, unit string) *histogram {
	if len(values) == 0 {
		return nil
	}
	v := append([]float64(nil), values...)
	sort.Float64s(v)
	lo, hi := v[0], v[len(v)-1]
	width := (hi - lo) / histBins
	if width == 0 {
		width = 1
	}
	counts := make([]int, histBins)
	for _, x := range v {
		i := int((x - lo) / width)
		if i >= histBins {
			i = histBins - 1
		}
		counts[i]++
	}
	most := 0
	for _, c := range counts {
		most = max(most, c)
	}
	h := &histogram{Title: title, Width: histW, Height: histH,
		Low: num(lo) + unit, High: num(hi) + unit,
		Summary: fmt.Sprintf("n=%d · median %s%s · p90 %s%s · max %s%s", len(v), num(quantile(v, 0.5)), unit, num(quantile(v, 0.9)), unit, num(hi), unit)}
	bw := histW / histBins
	for i, c := range counts {
		bh := math.Round(float64(c)/float64(most)*(histH-4)*10) / 10
		from, to := lo+float64(i)*width, lo+float64(i+1)*width
		h.Bars = append(h.Bars, histBar{X: float64(i) * bw, Y: histH - bh, W: bw - 2, H: bh,
			Title: fmt.Sprintf("%d between %s%s and %s%s", c, num(from), unit, num(to), unit)})
	}
	return h
}

func quantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// num writes a figure briefly: 950, 1.2k, 12k.
func num(f float64) string {
	if math.Abs(f) >= 1000 {
		return compact(int64(math.Round(f)))
	}
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
}

// chartValues gathers a run's distributions attempt by attempt: tokens
// per attempt, attempt wall time and model latency per turn.
type chartValues struct{ tokens, wall, latency []float64 }

func (c *chartValues) add(a *record.Attempt) {
	if u := a.Usage(); u.Input+u.Output > 0 {
		c.tokens = append(c.tokens, float64(u.Input+u.Output))
	}
	if a.DurationMS > 0 {
		c.wall = append(c.wall, float64(a.DurationMS)/1000)
	}
	for _, t := range a.Turns {
		if t.LatencyMS > 0 {
			c.latency = append(c.latency, float64(t.LatencyMS)/1000)
		}
	}
}

// charts draws the distributions gathered.
func (c *chartValues) charts() []*histogram {
	var out []*histogram
	for _, h := range []*histogram{
		newHistogram("tokens per attempt", c.tokens, ""),
		newHistogram("attempt time", c.wall, "s"),
		newHistogram("model latency per turn", c.latency, "s"),
	} {
		if h != nil {
			out = append(out, h)
		}
	}
	return out
}
