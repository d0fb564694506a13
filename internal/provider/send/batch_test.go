package send

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

func batchReqs(n int) []model.BatchRequest {
	var out []model.BatchRequest
	for i := range n {
		out = append(out, model.BatchRequest{ID: fmt.Sprint(i), Request: &model.Request{Tools: []model.Tool{{Name: fmt.Sprint("t", i)}}}})
	}
	return out
}

// Requests go in order into batches no larger than the limits allow; an
// entry larger than the byte limit goes alone; a refused batch stops the
// split, returning the batches accepted before it.
func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name            string
		requests, bytes int
		sizes           []int
		refuse          int // the batch submit refuses, 1-based; 0: none
		want            string
		wantErr         bool
	}{
		{"one batch", 10, 100, []int{1, 1, 1, 1, 1}, 0, "[[0 1 2 3 4]]", false},
		{"by requests", 2, 100, []int{1, 1, 1, 1, 1}, 0, "[[0 1] [2 3] [4]]", false},
		{"by bytes", 10, 5, []int{2, 2, 2, 3, 2}, 0, "[[0 1] [2 3] [4]]", false},
		{"exactly full", 10, 4, []int{2, 2, 2, 2}, 0, "[[0 1] [2 3]]", false},
		{"too large goes alone", 10, 3, []int{1, 9, 1}, 0, "[[0] [1] [2]]", false},
		{"second refused", 2, 100, []int{1, 1, 1, 1, 1}, 2, "[[0 1]]", true},
		{"none", 2, 100, nil, 0, "[]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reqs := batchReqs(len(tc.sizes))
			var sent [][]string
			encode := func(r model.BatchRequest) (string, int, error) {
				var i int
				fmt.Sscan(r.ID, &i)
				return r.ID, tc.sizes[i], nil
			}
			submit := func(chunk []string) (string, error) {
				if len(sent)+1 == tc.refuse {
					return "", errors.New("refused")
				}
				sent = append(sent, chunk)
				return fmt.Sprint("b", len(sent)), nil
			}
			batches, err := Split(reqs, Limits{tc.requests, tc.bytes}, encode, submit)
			if (err != nil) != tc.wantErr || fmt.Sprint(sent) != tc.want {
				t.Fatalf("sent %v, err %v; want %s", sent, err, tc.want)
			}
			if len(batches) != len(sent) {
				t.Fatalf("batches %+v for %d sent", batches, len(sent))
			}
			for i, b := range batches {
				if b.ID != fmt.Sprint("b", i+1) || b.Requests != len(sent[i]) {
					t.Errorf("batch %d: %+v, want b%d of %d", i, b, i+1, len(sent[i]))
				}
			}
		})
	}
}

// A request that cannot be encoded stops the split before anything of its
// batch is sent.
func TestSplitEncodeError(t *testing.T) {
	calls := 0
	_, err := Split(batchReqs(3), Limits{10, 100},
		func(r model.BatchRequest) (int, int, error) {
			if r.ID == "1" {
				return 0, 0, errors.New("bad request 1")
			}
			return 0, 1, nil
		},
		func([]int) (string, error) { calls++; return "b", nil })
	if err == nil || err.Error() != "bad request 1" || calls != 0 {
		t.Errorf("err %v, %d submits; want the encoding error and none", err, calls)
	}
}

// A submitted request is found by its id; an unknown id gives an empty
// request rather than nil.
func TestSubmitted(t *testing.T) {
	reqs := batchReqs(2)
	s := Index(reqs)
	if s.Request("1") != reqs[1].Request {
		t.Error("request 1 not found")
	}
	if r := s.Request("x"); r == nil || len(r.Tools) != 0 {
		t.Errorf("unknown id: %+v, want an empty request", r)
	}
	if n := Names(reqs[1].Request); len(n) != 1 || n[0] != "t1" {
		t.Errorf("names %q", n)
	}
}
