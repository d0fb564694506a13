package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/testkit/langfusetest"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// langfuseEnv points the commands at the stand-in f.
func langfuseEnv(t *testing.T, f *langfusetest.Server) {
	t.Setenv("LANGFUSE_HOST", f.URL)
	t.Setenv("LANGFUSE_PUBLIC_KEY", f.Public)
	t.Setenv("LANGFUSE_SECRET_KEY", f.Secret)
}

// TestImportLangfuseRoundTrip exports a household run with its content to
// a Langfuse stand-in, reads its traces back with import --langfuse (Langfuse
// busy once on the first page), and grades both: every attempt of a case
// that needs no fixtures gets the same verdict and reasons, and the
// secret key is in nothing written or shown.
func TestImportLangfuseRoundTrip(t *testing.T) {
	s, err := loadSuite("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ model, match string }{{"fake:invent", "attribute"}, {"fake:perfect", "prompt"}} {
		t.Run(tc.model+"/"+tc.match, func(t *testing.T) {
			f := langfusetest.New(t)
			langfuseEnv(t, f)
			dir := filepath.Join(t.TempDir(), "run")
			mustMain(t, "run", "--model", tc.model, "--out", dir, "--quiet")
			mustMain(t, "export", dir, "--langfuse", "--content")
			want, _ := gradesOf(t, dir)
			f.Faults["/api/public/traces"] = []langfusetest.Fault{{Status: 429, RetryAfter: "0"}}
			imp := filepath.Join(t.TempDir(), "imported")
			out := mustMain(t, "import", "--langfuse", "--match", tc.match, "--out", imp)
			if len(f.Faults["/api/public/traces"]) != 0 {
				t.Error("the 429 was never answered")
			}
			h, err := record.ReadHeader(imp)
			if err != nil {
				t.Fatal(err)
			}
			if h.Source != record.SourceImported || !strings.HasPrefix(h.Target.Spec, "langfuse "+f.URL) {
				t.Errorf("header source %q, target %q; want imported from langfuse %s", h.Source, h.Target.Spec, f.URL)
			}
			got, _ := gradesOf(t, imp)
			compared := compareImported(t, s, want, got, tc.match, out)
			if tc.model == "fake:invent" && !strings.Contains(strings.Join(failing(got), " "), "#") {
				t.Error("fake:invent failed nothing once imported: the comparison would prove little")
			}
			t.Logf("%s %s: %d attempts graded alike\n%s", tc.model, tc.match, compared, out)
			checkNoSecret(t, f.Secret, out, imp)
		})
	}
}

// failing are the attempts got failed.
func failing(got map[string]grade.AttemptGrade) []string {
	var out []string
	for k, g := range got {
		if g.Outcome == grade.Fail {
			out = append(out, k)
		}
	}
	return out
}

// compareImported checks every attempt of want of a case with no fixtures
// was imported and graded alike, and that no attempt of an action case
// was graded on imported traffic; it says how many were compared.
func compareImported(t *testing.T, s *suite.Suite, want, got map[string]grade.AttemptGrade, match, out string) int {
	t.Helper()
	compared := 0
	for k, w := range want {
		if s.Case(w.Case).Action != nil {
			if _, ok := got[k]; ok {
				t.Errorf("%s: an action case graded on imported traffic", k)
			}
			continue
		}
		g, ok := got[k]
		if !ok {
			if match == "prompt" && strings.Contains(out, "several cases") {
				continue // cases that share a prompt cannot be told apart by it
			}
			t.Errorf("%s: not imported\n%s", k, out)
			continue
		}
		compared++
		wj, _ := json.Marshal(w)
		gj, _ := json.Marshal(g)
		if string(wj) != string(gj) {
			t.Errorf("%s: graded\n%s\nimported, want as the run\n%s", k, gj, wj)
		}
	}
	if compared == 0 {
		t.Fatal("no attempt compared")
	}
	return compared
}

// checkNoSecret fails when secret is in the text shown or a file of dir.
func checkNoSecret(t *testing.T, secret, shown, dir string) {
	t.Helper()
	if strings.Contains(shown, secret) {
		t.Error("the secret key was shown")
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), secret) {
				t.Errorf("%s holds the secret key", p)
			}
		}
		return nil
	})
}

// TestImportLangfuseDataset exports a household run to the stand-in,
// which makes its dataset, then writes the dataset's items back as cases
// with import --langfuse-dataset: every case comes back, with its id and
// its prompt byte for byte, verified: false, and the file validates.
func TestImportLangfuseDataset(t *testing.T) {
	f := langfusetest.New(t)
	langfuseEnv(t, f)
	dir := recordedRun(t)
	mustMain(t, "export", dir, "--langfuse")
	s, err := loadSuite("")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cases.yaml")
	out := mustMain(t, "import", "--langfuse-dataset", s.Name, "--out", path)
	if strings.Contains(out, "skipped") {
		t.Errorf("items skipped:\n%s", out)
	}
	got, err := suite.Load(path)
	if err != nil {
		t.Fatalf("the written cases do not load: %v", err)
	}
	if len(got.Cases) != len(s.Cases) {
		t.Fatalf("%d cases written, want %d\n%s", len(got.Cases), len(s.Cases), out)
	}
	for _, c := range s.Cases {
		g := got.Case(c.ID)
		switch {
		case g == nil:
			t.Errorf("%s: not written", c.ID)
		case g.Prompt != c.Prompt:
			t.Errorf("%s: prompt %q, want %q", c.ID, g.Prompt, c.Prompt)
		case g.Verified == nil || *g.Verified:
			t.Errorf("%s: not verified: false", c.ID)
		case g.Group != c.Group || len(g.Figures) != len(c.Figures) || g.Key.Answer != c.Key.Answer || g.Decline != c.Decline:
			t.Errorf("%s: group %q, %d figures, answer %q, decline %v; want %q, %d, %q, %v", c.ID, g.Group, len(g.Figures), g.Key.Answer, g.Decline, c.Group, len(c.Figures), c.Key.Answer, c.Decline)
		}
	}
	mustMain(t, "validate", path, "--target", "builtin:household")
	checkNoSecret(t, f.Secret, out, filepath.Dir(path))
}

// TestProductionLangfuseDoc runs the Langfuse commands of
// docs/production.md against a stand-in Langfuse: each block shown is
// run as it is, and the output the page shows is what import prints.
func TestProductionLangfuseDoc(t *testing.T) {
	b, err := os.ReadFile("../../docs/production.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	f := langfusetest.New(t)
	langfuseEnv(t, f)
	t.Chdir(t.TempDir())
	for _, block := range []string{
		"mcpeval run --out runs/demo --quiet\nmcpeval export runs/demo --langfuse --content\nmcpeval import --langfuse --match attribute --out runs/demo-langfuse\nmcpeval score runs/demo-langfuse\n",
		"mcpeval import --langfuse-dataset household --out household-cases.yaml\nmcpeval validate household-cases.yaml --target builtin:household\n",
	} {
		i := strings.Index(doc, "```sh\n"+block+"```\n")
		if i < 0 {
			t.Fatalf("docs/production.md does not show\n%s", block)
		}
		_, after, _ := strings.Cut(doc[i+len("```sh\n"+block+"```\n"):], "\n```\n")
		shown, _, _ := strings.Cut(after, "```")
		for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
			args := strings.Fields(line)[1:]
			got := mustMain(t, args...)
			if args[0] == "import" && got != shown {
				t.Errorf("docs/production.md shows\n%s\nmcpeval %s prints\n%s", shown, strings.Join(args, " "), got)
			}
		}
	}
}
