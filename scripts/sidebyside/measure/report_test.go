package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestSpread(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want Spread
	}{
		{[]float64{3, 1, 2}, Spread{1, 2, 3, 3}},
		{[]float64{4, 1, 3, 2}, Spread{1, 2.5, 4, 4}},
		{[]float64{5}, Spread{5, 5, 5, 1}},
		{nil, Spread{}},
	} {
		if got := spreadOf(c.xs); got != c.want {
			t.Errorf("spreadOf(%v) = %+v, want %+v", c.xs, got, c.want)
		}
	}
}

func TestBound(t *testing.T) {
	for _, c := range []struct {
		samples int
		want    float64
	}{{100, 4}, {500, 16}, {32, 1}, {33, 2}, {1, 1}} {
		if got := bound(c.samples, 32, 2, 0.5); !near(got, c.want) {
			t.Errorf("bound(%d, 32, 2, 0.5) = %v, want %v", c.samples, got, c.want)
		}
	}
}

func TestSlope(t *testing.T) {
	b, a, ok := slope([]float64{200, 1000}, []float64{0.5, 2.1})
	if !ok || !near(b, 0.002) || !near(a, 0.1) {
		t.Errorf("two points: slope %v, intercept %v, %v; want 0.002, 0.1", b, a, ok)
	}
	b, a, ok = slope([]float64{1, 2, 3}, []float64{2, 4, 6.5})
	if !ok || !near(b, 2.25) || !near(a, -1/3.0) {
		t.Errorf("least squares: slope %v, intercept %v; want 2.25, -1/3", b, a)
	}
	if _, _, ok := slope([]float64{5, 5}, []float64{1, 2}); ok {
		t.Error("equal xs gave a slope")
	}
}

// rounds are three interleaved rounds of two tools at two sizes.
var rounds = []Run{
	{Tool: "mcpeval", Samples: 100, Round: 1, Load1: 2, WallS: 4.4, CPUS: 0.5, Requests: 200, PeakTreeKiB: 60 * 1024},
	{Tool: "promptfoo", Samples: 100, Round: 1, Load1: 2.1, WallS: 12, CPUS: 8, Requests: 200, PeakTreeKiB: 300 * 1024},
	{Tool: "mcpeval", Samples: 500, Round: 1, Load1: 2.2, WallS: 16.5, CPUS: 2.1, Requests: 1000, PeakTreeKiB: 80 * 1024},
	{Tool: "promptfoo", Samples: 500, Round: 1, Load1: 2.3, WallS: 30, CPUS: 24, Requests: 1000, PeakTreeKiB: 400 * 1024},
	{Tool: "mcpeval", Samples: 100, Round: 2, WallS: 4.2, CPUS: 0.4, Requests: 200, PeakTreeKiB: 62 * 1024},
	{Tool: "promptfoo", Samples: 100, Round: 2, WallS: 11, CPUS: 7, Requests: 200, PeakTreeKiB: 310 * 1024},
	{Tool: "mcpeval", Samples: 500, Round: 2, WallS: 16.1, CPUS: 2.4, Requests: 1000, PeakTreeKiB: 78 * 1024},
	{Tool: "promptfoo", Samples: 500, Round: 2, WallS: 31, CPUS: 27, Requests: 1000, PeakTreeKiB: 390 * 1024},
	{Tool: "mcpeval", Samples: 100, Round: 3, WallS: 4.3, CPUS: 0.6, Requests: 200, PeakTreeKiB: 61 * 1024},
	{Tool: "promptfoo", Samples: 100, Round: 3, WallS: 13, CPUS: 9, Requests: 200, PeakTreeKiB: 305 * 1024},
	{Tool: "mcpeval", Samples: 500, Round: 3, WallS: 16.3, CPUS: 2.0, Requests: 1000, PeakTreeKiB: 79 * 1024},
	{Tool: "promptfoo", Samples: 500, Round: 3, WallS: 29, CPUS: 25, Requests: 1000, PeakTreeKiB: 395 * 1024},
}

func TestBuild(t *testing.T) {
	r := build(rounds, 32, 2, 0.5)
	if len(r.Sizes) != 4 || r.Sizes[0].Tool != "mcpeval" || r.Sizes[0].Samples != 100 || r.Sizes[1].Samples != 500 || r.Sizes[2].Tool != "promptfoo" {
		t.Fatalf("sizes out of order: %+v", r.Sizes)
	}
	s := r.Sizes[1]
	if !near(s.BoundS, 16) || s.WallS != (Spread{16.1, 16.3, 16.5, 3}) || !near(s.WallOverBound.Median, 16.3/16) {
		t.Errorf("mcpeval at 500: bound %v, wall %+v, over %+v", s.BoundS, s.WallS, s.WallOverBound)
	}
	if s.PeakTreeMiB != (Spread{78, 79, 80, 3}) {
		t.Errorf("peak tree MiB = %+v", s.PeakTreeMiB)
	}
	if len(r.Marginal) != 2 {
		t.Fatalf("marginal = %+v", r.Marginal)
	}
	// mcpeval's slopes: (2.1-0.5)/800, (2.4-0.4)/800, (2.0-0.6)/800 s.
	m := r.Marginal[0]
	if m.Tool != "mcpeval" || !near(m.MsPerRequest.Min, 1.75) || !near(m.MsPerRequest.Median, 2) || !near(m.MsPerRequest.Max, 2.5) {
		t.Errorf("mcpeval marginal = %+v", m.MsPerRequest)
	}
	// Intercepts: 0.5-200·0.002=0.1, 0.4-200·0.0025=-0.1, 0.6-200·0.00175=0.25.
	if !near(m.FixedS.Min, -0.1) || !near(m.FixedS.Median, 0.1) || !near(m.FixedS.Max, 0.25) {
		t.Errorf("mcpeval fixed = %+v", m.FixedS)
	}
	// promptfoo's: 16/800, 20/800, 16/800 s.
	if p := r.Marginal[1]; p.Tool != "promptfoo" || !near(p.MsPerRequest.Median, 20) || !near(p.MsPerRequest.Max, 25) {
		t.Errorf("promptfoo marginal = %+v", p.MsPerRequest)
	}
	var out bytes.Buffer
	if err := r.text(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"marginal CPU per model request 10.0x",
		"at 500 samples: wall 1.8x, CPU 11.9x, peak tree memory 5.0x",
		"16.10 / 16.30 / 16.50",
		"1.75 / 2.00 / 2.50",
		"2.30", // a load average
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestRunsWithoutRequests checks that a run whose requests were not
// counted (-1) is left out of the slope rather than read as none.
func TestRunsWithoutRequests(t *testing.T) {
	runs := []Run{
		{Tool: "mcpeval", Samples: 100, Round: 1, CPUS: 1, Requests: -1},
		{Tool: "mcpeval", Samples: 500, Round: 1, CPUS: 2, Requests: 1000},
	}
	if r := build(runs, 32, 2, 0.5); len(r.Marginal) != 0 {
		t.Errorf("marginal from one counted run: %+v", r.Marginal)
	}
}

func TestReadRuns(t *testing.T) {
	var buf bytes.Buffer
	for _, x := range rounds[:2] {
		b, _ := json.Marshal(x)
		buf.Write(append(b, '\n'))
	}
	runs, err := readRuns(strings.NewReader(buf.String()+"\n"), "results")
	if err != nil || len(runs) != 2 || runs[1] != rounds[1] {
		t.Fatalf("readRuns = %+v, %v", runs, err)
	}
	_, err = readRuns(strings.NewReader(buf.String()+"{\"tool\":\n"), "results")
	if err == nil || !strings.HasPrefix(err.Error(), "results:3: ") {
		t.Errorf("a torn line: err = %v, want results:3", err)
	}
}
