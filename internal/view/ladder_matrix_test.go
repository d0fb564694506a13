package view

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
)

// onSurface rewrites the header of the record in dir to name surface sf,
// mapped (not canonical) when mapped is set.
func onSurface(t *testing.T, dir, sf string, mapped bool) {
	t.Helper()
	path := filepath.Join(dir, record.FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	var line map[string]map[string]any
	if err := json.Unmarshal(first, &line); err != nil || line["header"] == nil {
		t.Fatalf("the record's first line is no header (%v): %s", err, first)
	}
	s := map[string]any{"name": sf}
	if mapped {
		s["map"] = map[string]any{"get_net_worth": map[string]any{"tool": "money", "args": map[string]any{"action": "worth"}}}
	}
	line["header"]["surface"] = s
	head, err := json.Marshal(line)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(append(head, '\n'), rest...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := record.Read(dir); err != nil {
		t.Fatalf("the rewritten record: %v", err)
	}
}

// TestLadderMatrix: runs of two models on two surfaces are set side by
// side, a row each, on the ladder page, with Fisher's test against the
// same model's canonical run and the costs; a hostile surface or model
// name is shown as text.
func TestLadderMatrix(t *testing.T) {
	root := t.TempDir()
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	right := []answer{{"money/net-worth", rightWorth}, {"money/net-worth", rightWorth}, {"money/net-worth", rightWorth}, {"money/net-worth", rightWorth}}
	wrong := []answer{{"money/net-worth", wrongWorth}, {"money/net-worth", wrongWorth}, {"money/net-worth", wrongWorth}, {"money/net-worth", rightWorth}}
	for _, r := range []struct {
		dir, id, model, surface string
		mapped                  bool
		answers                 []answer
	}{
		{"a", "a-run", "fake:perfect", "individual", false, right},
		{"b", "b-run", "fake:perfect", "meta " + hostile, true, wrong},
		{"c", "c-run", "fake:" + hostile, "individual", false, right},
		{"d", "d-run", "fake:" + hostile, "meta " + hostile, true, right},
	} {
		writeRun(t, filepath.Join(root, r.dir), r.id, r.model, t0, r.answers, false)
		onSurface(t, filepath.Join(root, r.dir), r.surface, r.mapped)
	}
	_, ts := newTest(t, root)
	code, body, _ := get(t, ts.URL, "/ladder?run=a-run&run=b-run&run=c-run&run=d-run")
	if code != 200 {
		t.Fatalf("ladder: %d\n%s", code, body)
	}
	checkEscaped(t, "ladder matrix", body)
	i := strings.Index(body, `data-check="matrix"`)
	if i < 0 {
		t.Fatalf("the ladder page of runs on two surfaces has no matrix:\n%s", body)
	}
	table := body[i : strings.Index(body[i:], "</table>")+i]
	var rows []string
	sc := bufio.NewScanner(strings.NewReader(table))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), `<tr class="item">`) {
			rows = append(rows, sc.Text())
		}
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows in the matrix, want 4:\n%s", len(rows), table)
	}
	p := "p=" + compare.FormatP(stats.Fisher(1, 3, 4, 0))
	found := false
	for _, r := range rows {
		if strings.Contains(r, "25% 1/4") && strings.Contains(r, "<td>"+p+"</td>") && strings.Contains(r, "meta &lt;script&gt;") {
			found = true
		}
	}
	if !found {
		t.Errorf("no row has fake:perfect's 1/4 on the meta surface tested against its 4/4 on individual (%s):\n%s", p, table)
	}
	if !strings.Contains(table, "<th>vs <span class=\"mono\">individual</span></th>") || !strings.Contains(table, "$0 (fake)") {
		t.Errorf("the matrix lacks its test column or its costs:\n%s", table)
	}

	// Runs on one surface make no matrix.
	_, body, _ = get(t, ts.URL, "/ladder?run=a-run&run=c-run")
	if strings.Contains(body, `data-check="matrix"`) {
		t.Errorf("runs on one surface show a matrix")
	}
}
