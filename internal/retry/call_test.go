package retry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Call tries again after a server error the exchange saw, explains a
// refusal by the answer's status and message with the secret redacted,
// passes on a refusal of the call's own as it is, and gives each try the
// timeout.
func TestCall(t *testing.T) {
	const secret = "PLANTED-call-secret"
	var n atomic.Int32
	statuses := []int{503, 200}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		st := statuses[min(i, len(statuses)-1)]
		w.WriteHeader(st)
		fmt.Fprintf(w, `{"error":{"type":"e%d","message":"bad key %s"}}`, st, secret)
	}))
	defer srv.Close()
	p := Policy{Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}
	get := func(ctx context.Context, ex *Exchange) (int, error) {
		if _, ok := ctx.Deadline(); !ok {
			t.Error("the try has no timeout")
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		resp, err := ex.Middleware(req, srv.Client().Do)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		if resp.StatusCode >= 400 {
			return 0, errors.New("the sdk's error")
		}
		return resp.StatusCode, nil
	}

	if v, err := Call(context.Background(), p, time.Minute, secret, get); err != nil || v != 200 || n.Load() != 2 {
		t.Errorf("after a 503: %d, %v, %d tries; want 200 on the second", v, err, n.Load())
	}

	n.Store(0)
	statuses = []int{400}
	_, err := Call(context.Background(), p, time.Minute, secret, get)
	if err == nil || !strings.Contains(err.Error(), "status 400") || !strings.Contains(err.Error(), "e400") || strings.Contains(err.Error(), secret) || n.Load() != 1 {
		t.Errorf("after a 400: %v, %d tries; want the status and message once, with no secret", err, n.Load())
	}

	mine := &Refusal{Status: 200, Message: "no id in the answer"}
	_, err = Call(context.Background(), p, time.Minute, secret, func(context.Context, *Exchange) (int, error) { return 0, mine })
	var r *Refusal
	if !errors.As(err, &r) || r != mine {
		t.Errorf("own refusal: %v, want it passed on as it is", err)
	}
}
