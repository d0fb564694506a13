package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/overlay"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
)

// TestOutputOverlay: an output overlay rewrites what the model is shown,
// so fake:reads (which answers from the results it was shown) fails the
// case once the figure is dropped and passes again once it is only
// renamed; the record keeps the server's result beside the one shown,
// grading reads what was shown, a replay compares with what the server
// returned, and a run without an overlay records no trace of one.
func TestOutputOverlay(t *testing.T) {
	s := loadSuite(t, testSuite)
	run := func(ov string) *record.Run {
		t.Helper()
		m, _ := fake.New("reads", s)
		cfg := Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir(), Attempts: 1, Cases: []string{"g/total"}}
		if ov != "" {
			o, err := overlay.Parse([]byte(ov), "o.yaml")
			if err != nil {
				t.Fatal(err)
			}
			cfg.Overlay, cfg.OverlayInfo, cfg.RewriteResult = o.Apply, o.Info(), o.Rewrite
		}
		rec, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	passed := func(rec *record.Run) int { return grade.Run(s, rec).Totals.Passed }
	call := func(rec *record.Run) record.Call { return rec.Attempts[0].Calls()[0] }

	plain := run("")
	if passed(plain) != 1 {
		t.Fatalf("without an overlay fake:reads failed: %+v", plain.Attempts[0])
	}
	b, err := os.ReadFile(filepath.Join(plain.Dir, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"overlaid"`, `"server_result"`, `"server_structured"`, `"outputs"`} {
		if bytes.Contains(b, []byte(field)) {
			t.Errorf("a record without an overlay holds %s", field)
		}
	}

	dropped := run("outputs:\n  get_total:\n    drop: [total]\n")
	c := call(dropped)
	if passed(dropped) != 0 {
		t.Errorf("with total dropped fake:reads still passed: the model was shown %q", c.Result)
	}
	if !c.Overlaid || strings.Contains(c.Result, "42") || string(c.Structured) != "{}" ||
		!strings.Contains(c.ServerResult, "42") || string(c.ServerStructured) != `{"total":42}` {
		t.Errorf("call recorded as %+v: want the shown result without 42 and the server's with it", c)
	}
	if o := dropped.Header.Overlay; o == nil || len(o.Outputs) != 1 || o.Outputs[0].Tool != "get_total" || o.Outputs[0].Edits != "drop total" {
		t.Errorf("header overlay %+v: want the output edit of get_total", o)
	}
	// A replay compares the server's result, not the one shown.
	got, err := Replay(context.Background(), ReplayConfig{Suite: s, Record: dropped, Target: testTarget})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Diff != "" {
		t.Errorf("replaying the overlaid run differs from the server's result: %+v", got)
	}

	renamed := run("outputs:\n  get_total:\n    rename: {total: sum}\n    units: {sum: units}\n")
	if c := call(renamed); passed(renamed) != 1 || c.Result != `{"sum":"42 units"}` {
		t.Errorf("with total renamed fake:reads did not pass: shown %q", c.Result)
	}
}
