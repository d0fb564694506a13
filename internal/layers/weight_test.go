package layers

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	// What mcpeval links beyond the packages layers_test.go names, so
	// that a change to them invalidates this test's cached result too.
	_ "github.com/mcpeval/mcpeval/internal/export/otlp"
	_ "github.com/mcpeval/mcpeval/internal/pipeline"
	_ "github.com/mcpeval/mcpeval/internal/provider"
)

// The budgets of the mcpeval binary, each set a little above what it was
// when last measured (docs/performance.md, "Start-up and build"). Raise
// one only for a reason worth its cost, and say which in the commit.
const (
	// maxDeps is how many packages outside the standard library
	// cmd/mcpeval links: what a fresh clone compiles.
	maxDeps = 612
	// maxBinaryBytes is the size of a default `go build` of cmd/mcpeval.
	maxBinaryBytes = 130 << 20
	// maxOwnInitBytes and maxOwnInitAllocs are what the module's own
	// package initialisers may allocate before main: regexps, templates,
	// schemas and tables are made on first use, not at start-up, so that
	// `mcpeval version` and every serve-target process do not pay for them.
	maxOwnInitBytes  = 30 << 10
	maxOwnInitAllocs = 280
	// maxInitBytes and maxInitAllocs are what every initialiser linked
	// allocates, dependencies included: a new dependency that does heavy
	// work at start-up shows here.
	maxInitBytes  = 4100 << 10
	maxInitAllocs = 36500
)

// TestBinaryWeight keeps what mcpeval costs to build and to start within
// its budgets. The dependency count needs only go list; the size and the
// start-up allocations need a build of the binary, skipped under -short.
// Allocations are counted with GODEBUG=inittrace=1, which reports bytes
// and allocations per initialiser: unlike clock times, they do not depend
// on the machine's load.
func TestBinaryWeight(t *testing.T) {
	t.Run("deps", func(t *testing.T) {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "../../cmd/mcpeval").Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		if n := len(strings.Fields(string(out))); n > maxDeps {
			t.Errorf("cmd/mcpeval links %d packages outside the standard library, budget %d: see go list -deps ./cmd/mcpeval", n, maxDeps)
		}
	})
	if testing.Short() {
		t.Skip("building mcpeval: skipped under -short")
	}
	bin := filepath.Join(t.TempDir(), "mcpeval")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/mcpeval").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Run("size", func(t *testing.T) {
		fi, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > maxBinaryBytes {
			t.Errorf("mcpeval is %.1f MiB, budget %.1f MiB", float64(fi.Size())/(1<<20), float64(maxBinaryBytes)/(1<<20))
		}
	})
	t.Run("init", func(t *testing.T) {
		cmd := exec.Command(bin, "version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("mcpeval version: %v\n%s", err, stderr.Bytes())
		}
		inits, err := parseInitTrace(&stderr)
		if err != nil {
			t.Fatal(err)
		}
		if len(inits) == 0 {
			t.Fatal("GODEBUG=inittrace=1 reported no initialiser")
		}
		for _, e := range checkInits(inits) {
			t.Error(e)
		}
	})
}

// initCost is one line of GODEBUG=inittrace=1: a package's initialiser and
// what it allocated.
type initCost struct {
	pkg           string
	bytes, allocs int64
}

// parseInitTrace reads the lines of GODEBUG=inittrace=1
// ("init PKG @T ms, C ms clock, B bytes, A allocs") among other output.
func parseInitTrace(r io.Reader) ([]initCost, error) {
	var inits []initCost
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.ParseInt(f[7], 10, 64)
		a, err2 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("reading inittrace line %q: bad counts", sc.Text())
		}
		inits = append(inits, initCost{f[1], b, a})
	}
	return inits, sc.Err()
}

// checkInits says which budgets the initialisers exceed, naming the
// module's own heaviest ones.
func checkInits(inits []initCost) []string {
	var own, all initCost
	var heavy []string
	for _, c := range inits {
		all.bytes += c.bytes
		all.allocs += c.allocs
		if c.pkg+"/" == mod || strings.HasPrefix(c.pkg, mod) {
			own.bytes += c.bytes
			own.allocs += c.allocs
			if c.bytes > 4<<10 {
				heavy = append(heavy, fmt.Sprintf("%s (%d bytes, %d allocs)", c.pkg, c.bytes, c.allocs))
			}
		}
	}
	var errs []string
	if own.bytes > maxOwnInitBytes || own.allocs > maxOwnInitAllocs {
		errs = append(errs, fmt.Sprintf("the module's initialisers allocate %d bytes in %d allocs before main, budget %d bytes and %d allocs; make what only some commands need lazy (sync.OnceValue, internal/lazyregexp); the heaviest: %s",
			own.bytes, own.allocs, maxOwnInitBytes, maxOwnInitAllocs, strings.Join(heavy, ", ")))
	}
	if all.bytes > maxInitBytes || all.allocs > maxInitAllocs {
		errs = append(errs, fmt.Sprintf("all %d initialisers allocate %d bytes in %d allocs before main, budget %d bytes and %d allocs: see GODEBUG=inittrace=1 mcpeval version",
			len(inits), all.bytes, all.allocs, maxInitBytes, maxInitAllocs))
	}
	return errs
}

func TestParseInitTrace(t *testing.T) {
	in := "mcpeval v1.2.3\n" +
		"init github.com/mcpeval/mcpeval/grade @470 ms, 29 ms clock, 1378272 bytes, 7326 allocs\n" +
		"init runtime @0.38 ms, 13 ms clock, 0 bytes, 0 allocs\n" +
		"init github.com/santhosh-tekuri/jsonschema/v6 @290 ms, 179 ms clock, 1701688 bytes, 21289 allocs\n"
	inits, err := parseInitTrace(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []initCost{{"github.com/mcpeval/mcpeval/grade", 1378272, 7326}, {"runtime", 0, 0}, {"github.com/santhosh-tekuri/jsonschema/v6", 1701688, 21289}}
	if fmt.Sprint(inits) != fmt.Sprint(want) {
		t.Errorf("parseInitTrace = %v, want %v", inits, want)
	}
	// The module's grade package, as its regexps made it allocate at
	// start-up, is over the module's budget; the dependency is not
	// counted against it.
	errs := checkInits(inits)
	if len(errs) != 1 || !strings.Contains(errs[0], "mcpeval/grade (1378272 bytes") {
		t.Errorf("checkInits = %q, want the module's budget exceeded by grade alone", errs)
	}
}

// TestPerformanceDocStatesBudgets checks that docs/performance.md states
// the budgets TestBinaryWeight holds the binary to.
func TestPerformanceDocStatesBudgets(t *testing.T) {
	doc, err := os.ReadFile("../../docs/performance.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ") // as read, not as wrapped
	for _, want := range []string{
		fmt.Sprintf("at most %d packages outside the standard library", maxDeps),
		fmt.Sprintf("%d MiB for a default build", maxBinaryBytes>>20),
		fmt.Sprintf("%d KiB in %d allocations for the module's own", maxOwnInitBytes>>10, maxOwnInitAllocs),
		fmt.Sprintf("(%d KiB in %d for all of them)", maxInitBytes>>10, maxInitAllocs),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("docs/performance.md does not say %q", want)
		}
	}
}
