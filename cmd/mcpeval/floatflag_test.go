package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
)

// floatFlags returns the float flags of every command, read from the flag
// sets the commands build, by command name.
func floatFlags(t *testing.T) map[string][]string {
	t.Helper()
	found := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(commands)) {
		e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
		e.parsed = func(fs *flag.FlagSet) {
			fs.VisitAll(func(f *flag.Flag) {
				if g, ok := f.Value.(flag.Getter); ok {
					if _, ok := g.Get().(float64); ok {
						found[name] = append(found[name], f.Name)
					}
				}
			})
		}
		commands[name].run(context.Background(), e, []string{"--help"})
	}
	return found
}

// TestFloatFlagsRefuseNaN: every float flag of every command refuses NaN,
// the infinities and a negative number when it is parsed, with exit 2 and
// the flag named, before any work starts: a NaN would switch a gate or a
// budget off (every comparison with it is false). The flags are read from
// the commands' own flag sets, so a new one is covered without being named
// here.
func TestFloatFlagsRefuseNaN(t *testing.T) {
	t.Chdir(t.TempDir()) // a flag that took NaN would let its command run here
	found := floatFlags(t)
	n := 0
	for _, fl := range found {
		n += len(fl)
	}
	// run: alpha, min-pass, max-error-rate, budget-usd; score: budget-usd;
	// compare: alpha; ladder: bar.
	if n < 7 {
		t.Fatalf("found %d float flags (%v); the commands' flag sets were not read", n, found)
	}
	for _, name := range slices.Sorted(maps.Keys(found)) {
		for _, fl := range found[name] {
			for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "-1", "-0.5"} {
				var out, errb bytes.Buffer
				code := Main(context.Background(), []string{name, "--" + fl, v}, nil, &out, &errb)
				want := `invalid value "` + v + `" for flag -` + fl
				if code != exitUsage || !strings.Contains(errb.String(), want) {
					t.Errorf("mcpeval %s --%s %s: exit %d, stderr %q; want exit 2 and %q", name, fl, v, code, errb.String(), want)
				}
			}
			// A finite value in range still parses.
			var out, errb bytes.Buffer
			Main(context.Background(), []string{name, "--" + fl, "0.5", "--help"}, nil, &out, &errb)
			if strings.Contains(errb.String(), "invalid value") {
				t.Errorf("mcpeval %s --%s 0.5: %s", name, fl, errb.String())
			}
		}
	}
}
