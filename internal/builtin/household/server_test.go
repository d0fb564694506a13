package household

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves srv over in-memory transports and returns a client session.
func connect(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func newSession(t *testing.T, opts *Options) *mcp.ClientSession {
	t.Helper()
	return connect(t, NewServer(mustFixture(t), opts))
}

func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	return tools
}

// call calls a tool and returns its structured content, decoded, and its
// text; a tool error fails the test.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError {
		t.Fatalf("%s returned a tool error: %s", name, text.String())
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: structured content %s is not a JSON object: %v", name, b, err)
	}
	return out, text.String()
}

// at resolves a dotted path ("history.5.net_worth_sgd") in decoded JSON.
func at(t *testing.T, v any, path string) any {
	t.Helper()
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				t.Fatalf("path %s: no element %s", path, p)
			}
			v = x[i]
		default:
			t.Fatalf("path %s: %s is not inside an object or array", path, p)
		}
	}
	return v
}

func TestToolsListed(t *testing.T) {
	for _, tt := range []struct {
		opts *Options
		want []string
	}{
		{nil, ReadTools},
		{&Options{}, ReadTools},
		{&Options{Writable: true}, append(slices.Clone(ReadTools), WriteTools...)},
	} {
		tools := listTools(t, newSession(t, tt.opts))
		var got []string
		for name, tool := range tools {
			got = append(got, name)
			a := tool.Annotations
			write := slices.Contains(WriteTools, name)
			switch {
			case a == nil:
				t.Errorf("%s has no annotations", name)
			case a.ReadOnlyHint == write:
				t.Errorf("%s: ReadOnlyHint %v, want %v", name, a.ReadOnlyHint, !write)
			case write && a.DestructiveHint == nil:
				t.Errorf("%s: a write tool without DestructiveHint", name)
			}
			if !write && tool.OutputSchema == nil {
				t.Errorf("%s publishes no output schema", name)
			}
			if len(tool.Description) < 80 {
				t.Errorf("%s: description %q is too short to tell a model what it returns", name, tool.Description)
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tt.want))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("tools listed with %+v (-want +got):\n%s", tt.opts, diff)
		}
	}
	if d := listTools(t, newSession(t, &Options{Writable: true}))["update_balance"].Annotations; *d.DestructiveHint != true {
		t.Errorf("update_balance replaces a figure but is not marked destructive")
	}
}

// TestEveryReadTool calls each read tool and checks it returns structured
// content and a text rendering, that neither mentions a price, and a
// figure from each.
func TestEveryReadTool(t *testing.T) {
	cs := newSession(t, nil)
	want := map[string]map[string]any{
		"get_net_worth":         {"net_worth_sgd": 2394755.0, "as_of": "2026-09-30"},
		"get_accounts":          {"accounts.2.balance": 307500.0, "accounts.2.balance_sgd": 412665.0, "accounts.3.balance_sgd": 37840.0, "total_sgd": 2394755.0},
		"get_net_worth_history": {"months": 6.0, "from": "2026-04", "history.5.net_worth_sgd": 2394755.0},
		"get_fx_exposure":       {"exposures.2.currency": "JPY", "exposures.2.value_sgd": 37840.0, "foreign_share_pct": 18.81},
		"get_holdings":          {"holdings.0.symbol": "VOO", "holdings.0.units": 450.0, "holdings.1.units": 600.0},
		"get_upcoming_vests":    {"next_vest.date": "2031-03-14", "next_vest.units": 400.0, "total_units": 2400.0},
		"get_rsu_schedule":      {"grants.0.total_units": 2400.0, "grants.0.unvested_units": 2400.0},
		"get_cashflow":          {"monthly_inflow_sgd": 28200.0, "monthly_outflow_sgd": 16880.0, "lines.7.amount_sgd": 780.0},
		"get_returns":           {"months": 12.0, "monthly.3.return_pct": -1.37, "cumulative_return_pct": 14.86},
	}
	for _, name := range ReadTools {
		out, text := call(t, cs, name, nil)
		if len(out) == 0 {
			t.Errorf("%s: no structured content", name)
		}
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "{") {
			t.Errorf("%s: text %q is not a rendering for a reader", name, text)
		}
		b, _ := json.Marshal(out)
		if s := strings.ToLower(string(b) + text); strings.Contains(s, "price") {
			t.Errorf("%s: output mentions a price: %s\n%s", name, b, text)
		}
		if want[name] == nil {
			t.Errorf("%s: no expectation in this test", name)
		}
		for path, v := range want[name] {
			if got := at(t, out, path); got != v {
				t.Errorf("%s: %s = %v, want %v", name, path, got, v)
			}
		}
	}
}

func TestHistoryMonths(t *testing.T) {
	cs := newSession(t, nil)
	schema, err := json.Marshal(listTools(t, cs)["get_net_worth_history"].InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]struct {
			Type    string `json:"type"`
			Default any    `json:"default"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	if m := s.Properties["months"]; m.Type != "integer" || m.Default != float64(DefaultHistoryMonths) {
		t.Errorf("months in the input schema %s: want an integer with default %d", schema, DefaultHistoryMonths)
	}
	for _, tt := range []struct {
		args     map[string]any
		n        int
		from     string
		hasMarch bool
	}{
		{nil, 6, "2026-04", false}, // sent as "arguments": null
		{map[string]any{"months": 6}, 6, "2026-04", false},
		{map[string]any{"months": 7}, 7, "2026-03", true},
		{map[string]any{"months": 24}, 12, "2025-10", true},
	} {
		out, text := call(t, cs, "get_net_worth_history", tt.args)
		h := out["history"].([]any)
		if len(h) != tt.n || at(t, out, "from") != tt.from || at(t, out, "to") != "2026-09" {
			t.Errorf("months %v: %d months from %v to %v, want %d from %s to 2026-09", tt.args, len(h), out["from"], out["to"], tt.n, tt.from)
		}
		if got := strings.Contains(text, "2,261,924"); got != tt.hasMarch {
			t.Errorf("months %v: text shows March's 2,261,924: %v, want %v", tt.args, got, tt.hasMarch)
		}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_net_worth_history", Arguments: map[string]any{"months": 0}})
	if err != nil || !res.IsError {
		t.Errorf("months 0 was not refused as a tool error: %v %v", res, err)
	}
}

func TestReturnsMonths(t *testing.T) {
	cs := newSession(t, nil)
	out, _ := call(t, cs, "get_returns", map[string]any{"months": 6})
	if at(t, out, "from") != "2026-04" || at(t, out, "cumulative_return_pct") != 9.02 {
		t.Errorf("6 months of returns: %v", out)
	}
}

// TestWritesStayInTheirServer checks that writes change the writing
// server's copy and nothing else.
func TestWritesStayInTheirServer(t *testing.T) {
	d := mustFixture(t)
	w := connect(t, NewServer(d, &Options{Writable: true}))
	other := connect(t, NewServer(d, &Options{Writable: true}))

	out, _ := call(t, w, "update_balance", map[string]any{"account": "operating-cash", "balance": 94250})
	if out["net_worth_sgd"] != 2404755.0 {
		t.Errorf("update_balance result %v: want net worth 2,404,755", out)
	}
	if nw, _ := call(t, w, "get_net_worth", nil); nw["net_worth_sgd"] != 2404755.0 {
		t.Errorf("after update_balance the writing server says %v", nw["net_worth_sgd"])
	}
	if nw, _ := call(t, other, "get_net_worth", nil); nw["net_worth_sgd"] != 2394755.0 {
		t.Errorf("another server from the same Data says %v after a write", nw["net_worth_sgd"])
	}
	if got, _ := d.NetWorth("2026-09"); got != 2394755 {
		t.Errorf("a write changed the Data the server was made from: %v", got)
	}

	call(t, w, "add_cashflow", map[string]any{"name": "Piano lessons", "direction": "outflow", "amount_sgd": 320})
	if cf, _ := call(t, w, "get_cashflow", nil); cf["monthly_outflow_sgd"] != 17200.0 || len(cf["lines"].([]any)) != 9 {
		t.Errorf("after add_cashflow: %v", cf)
	}
	if cf, _ := call(t, other, "get_cashflow", nil); cf["monthly_outflow_sgd"] != 16880.0 {
		t.Errorf("add_cashflow on one server changed another: %v", cf["monthly_outflow_sgd"])
	}
	if len(d.Cashflow) != 8 {
		t.Errorf("add_cashflow changed the Data the server was made from")
	}

	res, err := w.CallTool(context.Background(), &mcp.CallToolParams{Name: "update_balance", Arguments: map[string]any{"account": "nope", "balance": 1}})
	if err != nil || !res.IsError {
		t.Errorf("update_balance of an unknown account was not a tool error: %v %v", res, err)
	}
}

func TestStreamableHTTP(t *testing.T) {
	srv := NewServer(mustFixture(t), nil)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo; got.Name != "household" || got.Version != "1.0.0" {
		t.Errorf("server info %+v: want household 1.0.0", got)
	}
	if n := len(listTools(t, cs)); n != len(ReadTools) {
		t.Errorf("%d tools over HTTP, want %d", n, len(ReadTools))
	}
	out, _ := call(t, cs, "get_net_worth", nil)
	if out["net_worth_sgd"] != 2394755.0 {
		t.Errorf("net worth over HTTP: %v", out)
	}
}

func TestMoney(t *testing.T) {
	for x, want := range map[float64]string{
		0: "0", 999: "999", 1000: "1,000", 2394755: "2,394,755", 2271631.6: "2,271,631.60", -16880: "-16,880", 412665.004: "412,665",
	} {
		if got := money(x); got != want {
			t.Errorf("money(%v) = %q, want %q", x, got, want)
		}
	}
}
