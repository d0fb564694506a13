package export

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/testkit/recordtest"
)

// A Langfuse that never answers: --timeout bounds the whole export, every
// phase and retry included, and the error names the timeout.
func TestLangfuseTimeoutBoundsTheWholeExport(t *testing.T) {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer srv.Close()
	defer close(done)
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LANGFUSE_HOST": srv.URL, "LANGFUSE_PUBLIC_KEY": "pk-lf-x", "LANGFUSE_SECRET_KEY": "sk-lf-x"}
	const timeout = time.Second
	start := time.Now()
	_, err = Langfuse(t.Context(), recordtest.Open(t, household(t)), Options{Suite: s, Timeout: timeout, Getenv: func(k string) string { return env[k] }})
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "1s") {
		t.Errorf("err = %v, want one naming the 1s timeout", err)
	}
	if took > 3*timeout {
		t.Errorf("export took %v, want it bounded by --timeout %v", took, timeout)
	}
}
