// Command compare checks the results of the MCP conformance suite against
// the expected-failures baseline: it fails on a scenario that failed and is
// not in the baseline, and on a baseline entry whose scenario passed or did
// not run (a stale entry).
//
// Usage: go run ./scripts/conformance/compare BASELINE RESULTS
//
// RESULTS holds a folder per side (client, and each target served), each
// with scenarios.txt naming the scenarios run, one a line, and a folder per
// scenario under which the suite wrote checks.json. A scenario fails when
// any of its checks is a FAILURE or a WARNING, or when it wrote none.
// Every baseline line is "SIDE/SCENARIO  reason"; # starts a comment.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: compare BASELINE RESULTS")
		os.Exit(2)
	}
	if err := run(os.Stdout, os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "conformance: %v\n", err)
		os.Exit(1)
	}
}

func run(w io.Writer, baselinePath, results string) error {
	f, err := os.Open(baselinePath)
	if err != nil {
		return fmt.Errorf("reading the baseline: %w", err)
	}
	defer f.Close()
	baseline, err := parseBaseline(f, baselinePath)
	if err != nil {
		return err
	}
	outcomes, err := readResults(results)
	if err != nil {
		return err
	}
	return compare(w, baseline, outcomes)
}

// parseBaseline reads "SIDE/SCENARIO  reason" lines; a line without a
// reason, or a scenario listed twice, is an error at file:line.
func parseBaseline(r io.Reader, name string) (map[string]string, error) {
	entries := map[string]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, _ := strings.Cut(line, " ")
		reason = strings.TrimSpace(reason)
		switch {
		case !strings.Contains(key, "/"):
			return nil, fmt.Errorf("%s:%d: %q: want SIDE/SCENARIO, as client/sse-retry", name, n, key)
		case reason == "":
			return nil, fmt.Errorf("%s:%d: %s: no reason given", name, n, key)
		case entries[key] != "":
			return nil, fmt.Errorf("%s:%d: %s is listed twice", name, n, key)
		}
		entries[key] = reason
	}
	return entries, sc.Err()
}

// outcome is one scenario's result: the checks that failed or warned, as
// "id: message"; none means it passed.
type outcome struct {
	failed []string
}

// readResults reads each side's scenarios and their checks.
func readResults(dir string) (map[string]outcome, error) {
	sides, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the results: %w", err)
	}
	out := map[string]outcome{}
	for _, side := range sides {
		if !side.IsDir() {
			continue
		}
		list, err := os.ReadFile(filepath.Join(dir, side.Name(), "scenarios.txt"))
		if err != nil {
			return nil, fmt.Errorf("reading the results of %s: %w", side.Name(), err)
		}
		for _, sc := range strings.Fields(string(list)) {
			o, err := readScenario(filepath.Join(dir, side.Name(), filepath.FromSlash(sc)))
			if err != nil {
				return nil, fmt.Errorf("reading %s/%s: %w", side.Name(), sc, err)
			}
			out[side.Name()+"/"+sc] = o
		}
	}
	return out, nil
}

type check struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

func readScenario(dir string) (outcome, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "checks.json" {
			files = append(files, p)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
	if err != nil {
		return outcome{}, err
	}
	if len(files) == 0 {
		return outcome{failed: []string{"no checks: the scenario did not run"}}, nil
	}
	var o outcome
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return o, err
		}
		var checks []check
		if err := json.Unmarshal(b, &checks); err != nil {
			return o, fmt.Errorf("%s: %w", f, err)
		}
		for _, c := range checks {
			if c.Status == "FAILURE" || c.Status == "WARNING" {
				o.failed = append(o.failed, strings.TrimSpace(c.Status+" "+c.ID+": "+c.ErrorMessage))
			}
		}
	}
	return o, nil
}

// compare prints every scenario's result and returns an error naming each
// new failure and each stale baseline entry.
func compare(w io.Writer, baseline map[string]string, outcomes map[string]outcome) error {
	var unexpected, stale []string
	for _, key := range slices.Sorted(mapKeys(outcomes)) {
		o := outcomes[key]
		reason, listed := baseline[key]
		switch {
		case len(o.failed) == 0 && listed:
			fmt.Fprintf(w, "PASS  %s (listed in the baseline: remove it)\n", key)
			stale = append(stale, key)
		case len(o.failed) == 0:
			fmt.Fprintf(w, "PASS  %s\n", key)
		case listed:
			fmt.Fprintf(w, "XFAIL %s (%s)\n", key, reason)
		default:
			fmt.Fprintf(w, "FAIL  %s\n", key)
			for _, f := range o.failed {
				fmt.Fprintf(w, "        %s\n", f)
			}
			unexpected = append(unexpected, key)
		}
	}
	for _, key := range slices.Sorted(mapKeys(baseline)) {
		if _, ran := outcomes[key]; !ran {
			fmt.Fprintf(w, "NORUN %s (listed in the baseline but not run: remove it)\n", key)
			stale = append(stale, key)
		}
	}
	var errs []error
	if len(unexpected) > 0 {
		errs = append(errs, fmt.Errorf("%d scenarios failed that the baseline does not list: %s", len(unexpected), strings.Join(unexpected, ", ")))
	}
	if len(stale) > 0 {
		errs = append(errs, fmt.Errorf("%d baseline entries are stale: %s", len(stale), strings.Join(stale, ", ")))
	}
	return errors.Join(errs...)
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
