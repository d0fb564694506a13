package suite

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestCaseDataFiles loads each suite of testdata/casedata: one whose
// comment says "ids: ..." must load with those cases in that order; one
// whose comment has "error: ..." lines must be refused with an error
// holding each.
func TestCaseDataFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/casedata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/casedata archives: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fsys := fstest.MapFS{}
			for _, af := range a.Files {
				fsys[af.Name] = &fstest.MapFile{Data: af.Data}
			}
			var ids, wantErrs []string
			for _, l := range strings.Split(string(a.Comment), "\n") {
				if v, ok := strings.CutPrefix(l, "ids: "); ok {
					ids = strings.Fields(v)
				}
				if v, ok := strings.CutPrefix(l, "error: "); ok {
					wantErrs = append(wantErrs, v)
				}
			}
			s, err := LoadFS(fsys, ".", "s")
			if len(wantErrs) == 0 {
				if err != nil {
					t.Fatalf("want it to load: %v", err)
				}
				var got []string
				for _, c := range s.Cases {
					got = append(got, c.ID)
				}
				if !slices.Equal(got, ids) {
					t.Errorf("cases %v, want %v", got, ids)
				}
				return
			}
			if err == nil {
				t.Fatal("loaded, want an error")
			}
			for _, w := range wantErrs {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\ndoes not hold\n%s", err, w)
				}
			}
		})
	}
}
