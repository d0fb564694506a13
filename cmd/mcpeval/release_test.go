package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// releaseWorkflow is .github/workflows/release.yml, as far as
// TestReleaseTargets reads it.
type releaseWorkflow struct {
	On struct {
		Push struct {
			Tags []string `yaml:"tags"`
		} `yaml:"push"`
	} `yaml:"on"`
	Jobs map[string]struct {
		Strategy struct {
			Matrix struct {
				GOOS   []string `yaml:"goos"`
				GOARCH []string `yaml:"goarch"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []step `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestReleaseTargets: the release workflow runs on a tag push, its build
// matrix is exactly the targets scripts/release/build.sh knows, each
// built by that script, and a later job writes and checks SHA256SUMS with
// it; the script builds with -trimpath and cgo off.
func TestReleaseTargets(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to list the script's targets")
	}
	var wf releaseWorkflow
	loadYAML(t, "../../.github/workflows/release.yml", &wf)
	if len(wf.On.Push.Tags) == 0 {
		t.Error("release.yml does not run on a tag push")
	}
	out, err := exec.Command("bash", "../../scripts/release/build.sh", "--list").Output()
	if err != nil {
		t.Fatalf("build.sh --list: %v", err)
	}
	script := strings.Fields(string(out))
	builds, sums := false, false
	for name, j := range wf.Jobs {
		m := j.Strategy.Matrix
		var matrix []string
		for _, goos := range m.GOOS {
			for _, goarch := range m.GOARCH {
				matrix = append(matrix, goos+"/"+goarch)
			}
		}
		for _, s := range j.Steps {
			if !strings.Contains(s.Run, "scripts/release/build.sh") {
				continue
			}
			if strings.Contains(s.Run, "--sums") && strings.Contains(s.Run, "sha256sum -c SHA256SUMS") {
				sums = true
			}
			if len(matrix) > 0 {
				builds = true
				slices.Sort(matrix)
				want := slices.Sorted(slices.Values(script))
				if !slices.Equal(matrix, want) {
					t.Errorf("job %s builds %v; build.sh --list says %v", name, matrix, want)
				}
			}
		}
	}
	if !builds {
		t.Error("release.yml has no matrix job that builds with scripts/release/build.sh")
	}
	if !sums {
		t.Error("release.yml never writes SHA256SUMS with build.sh --sums and checks it with sha256sum -c")
	}
	for _, want := range []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"} {
		if !slices.Contains(script, want) {
			t.Errorf("build.sh does not build %s", want)
		}
	}
	body, err := os.ReadFile("../../scripts/release/build.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-trimpath", "CGO_ENABLED=0", "sha256sum"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("build.sh does not use %s", want)
		}
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ci), "scripts/release/build.sh") || !strings.Contains(string(ci), "sha256sum -c SHA256SUMS") {
		t.Error(".ci/run does not rehearse scripts/release/build.sh and check its SHA256SUMS")
	}
}
