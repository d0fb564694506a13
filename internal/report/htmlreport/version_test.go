package htmlreport

import (
	"bytes"
	"strings"
	"testing"
)

// TestFooterVersion checks that a page's footer names the version its
// caller gives, and "dev" when it gives none: the version is an option of
// the page, not a setting of the package.
func TestFooterVersion(t *testing.T) {
	for _, v := range []string{"v1.2.3", ""} {
		want := "Made by mcpeval " + v + "."
		if v == "" {
			want = "Made by mcpeval dev."
		}
		p := fixture(t)
		p.Version = v
		if page := render(t, p); !strings.Contains(page, want) {
			t.Errorf("run page with version %q lacks %q", v, want)
		}
		var b bytes.Buffer
		if err := Ledger(&b, &LedgerPage{Version: v}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("ledger page with version %q lacks %q", v, want)
		}
	}
}
