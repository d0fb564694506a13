package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/sequential"
)

// readStatisticsDoc returns docs/statistics.md.
func readStatisticsDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/statistics.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStatisticsDocFigures: the output docs/statistics.md shows for
// "mcpeval plan --rate 0.9" is what it prints, and its table of the
// sequential design's rates is what sequential.Design.Errors computes.
func TestStatisticsDocFigures(t *testing.T) {
	doc := readStatisticsDoc(t)
	_, after, ok := strings.Cut(doc, "```sh\nmcpeval plan --rate 0.9\n```\n\n```\n")
	if !ok {
		t.Fatal("docs/statistics.md does not show mcpeval plan --rate 0.9 and its output")
	}
	shown, _, _ := strings.Cut(after, "```")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"plan", "--rate", "0.9"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("mcpeval plan --rate 0.9: exit %d: %s", code, stderr.String())
	}
	if stdout.String() != shown {
		t.Errorf("docs/statistics.md shows\n%s\nmcpeval plan --rate 0.9 prints\n%s", shown, stdout.String())
	}

	d := sequential.Design{BasePassed: 54, BaseN: 60, Planned: 60, Looks: 5, Alpha: 0.05, Beta: 0.2, Drop: 0.2}
	row := regexp.MustCompile(`(?m)^\| (\d+)%[^|]* \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|$`)
	rows := row.FindAllStringSubmatch(doc, -1)
	if len(rows) != 4 {
		t.Fatalf("docs/statistics.md has %d rows of the design's rates, want 4", len(rows))
	}
	for _, m := range rows {
		rate, _ := strconv.Atoi(m[1])
		e := d.Errors(float64(rate) / 100)
		want := []string{fmt.Sprintf("%.4f", e.Regression), fmt.Sprintf("%.4f", e.Early), fmt.Sprintf("%.1f", e.Attempts)}
		if got := m[2:]; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("docs/statistics.md at %d%%: %v, computed %v", rate, got, want)
		}
	}
	for _, name := range []string{"TestGatePowerSimulated", "TestErrorRatesSimulated"} {
		if !strings.Contains(doc, name) {
			t.Errorf("docs/statistics.md does not name %s, the simulation that checks it", name)
		}
	}
}
