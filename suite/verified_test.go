package suite

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var verifiedAt = time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)

// copyVerifyDir copies testdata/verify, a suite folder holding drafted
// cases, to a temporary folder.
func copyVerifyDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"suite.yaml", "promoted.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata", "verify", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSetVerifiedChangesOnlyTheVerifiedLines(t *testing.T) {
	before, err := os.ReadFile("testdata/verify/promoted.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/verify/promoted.golden")
	if err != nil {
		t.Fatal(err)
	}
	got, err := SetVerified(before, "single/net-worth-again", "Ana <ana@example.com>", verifiedAt.Add(400*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("after verifying, the file is not testdata/verify/promoted.golden:\n%s", got)
	}
}

func TestSetVerifiedKeepsTheHash(t *testing.T) {
	dir := copyVerifyDir(t)
	s0, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := s0.UnverifiedIDs(); len(got) != 3 {
		t.Fatalf("unverified before: %v, want 3", got)
	}
	file := filepath.Join(dir, "promoted.yaml")
	for _, id := range []string{"single/net-worth-again", "single/first-key"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out, err := SetVerified(data, id, "ana", verifiedAt)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s1, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s1.Hash != s0.Hash {
		t.Errorf("hash changed on verifying: %s, then %s", s0.Hash, s1.Hash)
	}
	if got := s1.UnverifiedIDs(); len(got) != 1 || got[0] != "single/flow" {
		t.Errorf("unverified after: %v, want [single/flow]", got)
	}
	for _, c := range s1.Cases {
		if c.ID == "single/first-key" && (c.VerifiedBy != "ana" || c.VerifiedAt != "2026-12-01T09:30:00Z") {
			t.Errorf("single/first-key: verified_by %q, verified_at %q", c.VerifiedBy, c.VerifiedAt)
		}
	}
	// Any other edit still changes the hash.
	data, _ := os.ReadFile(file)
	os.WriteFile(file, bytes.Replace(data, []byte("fixed deposit"), []byte("savings"), 1), 0o644)
	if s2, err := Load(dir); err != nil || s2.Hash == s0.Hash {
		t.Errorf("an edited prompt kept the hash (err %v)", err)
	}
}

func TestSetVerifiedRefuses(t *testing.T) {
	data, err := os.ReadFile("testdata/verify/promoted.yaml")
	if err != nil {
		t.Fatal(err)
	}
	done, err := SetVerified(data, "single/first-key", "ana", verifiedAt)
	if err != nil {
		t.Fatal(err)
	}
	person, err := os.ReadFile("testdata/verify/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, id, by, want string
		data               []byte
	}{
		{"no such case", "single/nope", "ana", "holds no case with that id", data},
		{"flow mapping", "single/flow", "ana", "not on a line of its own", data},
		{"already verified", "single/first-key", "ana", "already says verified_by", done},
		{"written by a person", "single/net-worth", "ana", "has no verified: false", person},
		{"no name", "single/first-key", " ", "want the name of who checked it", data},
		{"name on two lines", "single/first-key", "ana\nbob", "want the name of who checked it", data},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := SetVerified(tc.data, tc.id, tc.by, verifiedAt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
	trueOnly := []byte("cases:\n  - id: a/b\n    verified: true\n")
	if _, err := SetVerified(trueOnly, "a/b", "ana", verifiedAt); err == nil || !strings.Contains(err.Error(), "already says verified: true") {
		t.Errorf("verified: true: err %v", err)
	}
}

func TestSetVerifiedKeepsLineEndings(t *testing.T) {
	in := []byte("cases:\r\n  - id: a/b\r\n    verified: false\r\n    prompt: x\r\n")
	got, err := SetVerified(in, "a/b", "ana", verifiedAt)
	if err != nil {
		t.Fatal(err)
	}
	want := "cases:\r\n  - id: a/b\r\n    verified: true\r\n    verified_by: \"ana\"\r\n    verified_at: \"2026-12-01T09:30:00Z\"\r\n    prompt: x\r\n"
	if string(got) != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// The last line, with no newline after it, gets one.
	got, err = SetVerified([]byte("cases:\n  - id: a/b\n    verified: false"), "a/b", "ana", verifiedAt)
	if err != nil || !strings.HasSuffix(string(got), "verified: true\n    verified_by: \"ana\"\n    verified_at: \"2026-12-01T09:30:00Z\"\n") {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestVerifiedByAndAtAreChecked(t *testing.T) {
	for _, tc := range []struct{ name, fields, want string }{
		{"with verified false", "verified: false\n    verified_by: ana", "they go with verified: true"},
		{"without verified", "verified_at: 2026-12-01", "they go with verified: true"},
		{"empty name", "verified: true\n    verified_by: \" \"", "want the name of the person"},
		{"not a time", "verified: true\n    verified_at: yesterday", `verified_at "yesterday": want a time`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src := "name: t\ntarget: builtin:household\ncases:\n  - id: a/b\n    prompt: x?\n    no_invented_figures: true\n    " + tc.fields + "\n"
			os.WriteFile(filepath.Join(dir, "s.yaml"), []byte(src), 0o644)
			_, err := Load(filepath.Join(dir, "s.yaml"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
	for _, at := range []string{"2026-12-01", "2026-12-01T09:30:00+08:00", `"2026-12-01T09:30:00Z"`} {
		dir := t.TempDir()
		src := "name: t\ntarget: builtin:household\ncases:\n  - id: a/b\n    prompt: x?\n    no_invented_figures: true\n    verified: true\n    verified_by: ana\n    verified_at: " + at + "\n"
		os.WriteFile(filepath.Join(dir, "s.yaml"), []byte(src), 0o644)
		if _, err := Load(filepath.Join(dir, "s.yaml")); err != nil {
			t.Errorf("verified_at %s: %v", at, err)
		}
	}
}
