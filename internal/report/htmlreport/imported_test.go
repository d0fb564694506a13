package htmlreport

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestImported: the run page of imported traffic says so; a run's page
// does not.
func TestImported(t *testing.T) {
	const mark = `data-check="imported"`
	for _, source := range []string{record.SourceImported, ""} {
		p := fixture(t)
		p.Run.Header.Source = source
		if got, want := strings.Contains(render(t, p), mark), source == record.SourceImported; got != want {
			t.Errorf("source %q: page shows the imported note %v, want %v", source, got, want)
		}
	}
}
