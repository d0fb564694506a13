// Package send is how every real provider sends a model turn: the tool
// names mapped to ones its API accepts, the API's request built once, sent
// under the retry policy, and the refused tries kept on the answer; and how
// the providers with a batch API split requests into batches and read
// their answers back.
package send

import (
	"bytes"
	"context"
	"fmt"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
)

// Turn sends req for the model who names ("anthropic:claude-sonnet-4-5",
// in errors): mapNames maps the MCP names of req's tools to wire names,
// build makes the API's request from req under that mapping, and try sends
// it once, as often as policy allows. The answer carries the tries that
// were refused before it.
func Turn[M, P any](ctx context.Context, policy retry.Policy, who string, req *model.Request,
	mapNames func([]string) M,
	build func(*model.Request, M) (P, error),
	try func(context.Context, P, M) (*model.Response, error),
) (*model.Response, error) {
	mp := mapNames(Names(req))
	params, err := build(req, mp)
	if err != nil {
		return nil, fmt.Errorf("building the request for %s: %w", who, err)
	}
	resp, tries, err := retry.Do(ctx, policy, func(ctx context.Context) (*model.Response, error) {
		return try(ctx, params, mp)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", who, err)
	}
	resp.Tries = tries
	return resp, nil
}

// CallName is the name a call of the model's goes back to the API under:
// its tool's wire name in this request's mapping mp, or, where mp does
// not know the tool (it passes the name through: a tool this request does
// not offer), the name the model called it by, as recorded.
func CallName(mp interface{ Wire(string) string }, c *model.Call) string {
	name := mp.Wire(c.Name)
	if name == c.Name && c.WireName != "" {
		return c.WireName
	}
	return name
}

// InputSchema is tool t's input schema as a provider sends it: trimmed,
// and the empty object's schema when the tool gives none. Whether it is a
// JSON object is the provider's to check, in its own words.
func InputSchema(t model.Tool) []byte {
	if schema := bytes.TrimSpace(t.InputSchema); len(schema) > 0 {
		return schema
	}
	return []byte(`{"type":"object","properties":{}}`)
}
