package send

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
)

func TestTurn(t *testing.T) {
	req := &model.Request{Tools: []model.Tool{{Name: "list containers"}, {Name: "stop"}}}
	var mapped []string
	mapNames := func(names []string) []string { mapped = names; return names }
	build := func(r *model.Request, mp []string) (string, error) { return "params for " + strings.Join(mp, ","), nil }
	sent := 0
	try := func(ctx context.Context, p string, mp []string) (*model.Response, error) {
		sent++
		if p != "params for list containers,stop" {
			t.Errorf("sent %q", p)
		}
		if sent == 1 {
			return nil, &retry.Refusal{Status: 529, Message: "overloaded", Again: true}
		}
		return &model.Response{StopReason: "end_turn"}, nil
	}
	policy := retry.Policy{MaxTries: 3, Sleep: func(context.Context, time.Duration) error { return nil }}
	resp, err := Turn(context.Background(), policy, "x:m", req, mapNames, build, try)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(mapped, []string{"list containers", "stop"}) {
		t.Errorf("names mapped: %q", mapped)
	}
	if sent != 2 || len(resp.Tries) != 1 || resp.Tries[0].Status != 529 {
		t.Errorf("%d sent, tries %+v; want the refused try kept on the answer", sent, resp.Tries)
	}

	bad := func(*model.Request, []string) (string, error) { return "", errors.New("tool_use block without a call") }
	if _, err := Turn(context.Background(), policy, "x:m", req, mapNames, bad, try); err == nil || err.Error() != "building the request for x:m: tool_use block without a call" {
		t.Errorf("a request that cannot be built: %v", err)
	}
	refused := func(context.Context, string, []string) (*model.Response, error) {
		return nil, &retry.Refusal{Status: 401, Message: "invalid x-api-key"}
	}
	_, err = Turn(context.Background(), policy, "x:m", req, mapNames, build, refused)
	var pe *model.ProviderError
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "x:m: ") {
		t.Errorf("a refusal: %v, want a *model.ProviderError named after the model", err)
	}
}
