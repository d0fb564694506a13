package otlp_test

import (
	"context"
	"errors"
	"iter"
	"testing"

	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/testkit/otlptest"
)

// many is n attempts, numbered from 1, of five spans each.
func many(n int) []otlp.Attempt {
	var out []otlp.Attempt
	for i := 1; i <= n; i++ {
		it := items()[0]
		it.Attempt.N = i
		out = append(out, it)
	}
	return out
}

// TestSendSeqSendsTheBatchesSendSends: attempts handed one at a time go
// in the requests a slice of them goes in (batches of 512 spans), every
// span once.
func TestSendSeqSendsTheBatchesSendSends(t *testing.T) {
	attempts := many(205) // 1,025 spans: two full batches and one span
	whole, streamed := otlptest.NewReceiver(t), otlptest.NewReceiver(t)
	if _, err := otlp.Send(context.Background(), attempts, otlp.Options{Endpoint: whole.URL}); err != nil {
		t.Fatal(err)
	}
	st, err := otlp.SendSeq(context.Background(), otlp.Items(attempts), otlp.Options{Endpoint: streamed.URL})
	if err != nil {
		t.Fatal(err)
	}
	if st.Spans != 1025 || st.Sent != 1025 {
		t.Errorf("stats = %+v, want 1025 spans all sent", st)
	}
	if w, s := whole.Requests(), streamed.Requests(); w != 3 || s != w {
		t.Errorf("Send made %d requests, SendSeq %d: want 3 each", w, s)
	}
	seen := map[string]bool{}
	for _, sp := range streamed.Spans() {
		seen[sp.TraceHex()+sp.SpanHex()] = true
	}
	for _, sp := range whole.Spans() {
		if !seen[sp.TraceHex()+sp.SpanHex()] {
			t.Fatalf("span %s of trace %s, sent by Send, not sent by SendSeq", sp.SpanHex(), sp.TraceHex())
		}
	}
	if len(seen) != 1025 {
		t.Errorf("SendSeq sent %d distinct spans, want 1025", len(seen))
	}
}

// TestSendSeqStopsAtAnError: an attempt that cannot be read stops the
// export with its error.
func TestSendSeqStopsAtAnError(t *testing.T) {
	r := otlptest.NewReceiver(t)
	broken := errors.New("reading run: record changed")
	seq := iter.Seq2[otlp.Attempt, error](func(yield func(otlp.Attempt, error) bool) {
		for it := range otlp.Items(many(3)) {
			if !yield(it, nil) {
				return
			}
		}
		if yield(otlp.Attempt{}, broken) {
			t.Error("SendSeq asked for an attempt after an error")
		}
	})
	if _, err := otlp.SendSeq(context.Background(), seq, otlp.Options{Endpoint: r.URL}); !errors.Is(err, broken) {
		t.Errorf("err = %v, want %v", err, broken)
	}
}
