package send

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/toolname"
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

// TestCallName: a call goes back under its tool's wire name in this
// request's mapping; a call of a tool the request does not offer goes back
// under the name the model called it by, or its own name when none was
// recorded.
func TestCallName(t *testing.T) {
	mp := toolname.Map([]string{"list containers"})
	for _, c := range []struct {
		call model.Call
		want string
	}{
		{model.Call{Name: "list containers", WireName: "list_containers"}, "list_containers"},
		{model.Call{Name: "list containers"}, "list_containers"},
		{model.Call{Name: "container.stop", WireName: "container_stop"}, "container_stop"},
		{model.Call{Name: "stop"}, "stop"},
	} {
		if got := CallName(mp, &c.call); got != c.want {
			t.Errorf("CallName(%+v) = %q, want %q", c.call, got, c.want)
		}
	}
}
