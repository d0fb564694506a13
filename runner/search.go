package runner

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// A run on a search surface (suite.Surface.Search) shows the model none of
// the server's tools. It shows three tools the harness serves itself over
// the tools the case would have been shown: search_tools finds them by
// words, describe_tool gives one's description and input schema, and
// call_tool calls one on the server. Searches and descriptions are
// answered here and never reach the server; a call_tool is sent as the
// call of the tool it names, and recorded as the model made it (see
// record.Surface). Any other name the model calls is an unknown tool.
const (
	SearchToolsTool  = suite.SearchToolsTool
	DescribeToolTool = suite.DescribeToolTool
	CallToolTool     = suite.CallToolTool
)

// Search results: how many a search returns unless it asks, and at most.
const (
	searchLimit    = 5
	searchMaxLimit = 20
	summaryBytes   = 160
)

// searchToolDefs are the tools the model is shown on a search surface.
func searchToolDefs() []model.Tool {
	return []model.Tool{
		{
			Name:        SearchToolsTool,
			Description: "Searches the tools available to you by words, and lists the best matches, best first: each tool's name with a one-line summary. Call describe_tool for a tool's full description and input schema, and call_tool to call it.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"Words describing what you want to do, as \"create a volume\"."},"limit":{"type":"integer","description":"How many tools to list at most (default 5, at most 20)."}},"required":["query"]}`),
		},
		{
			Name:        DescribeToolTool,
			Description: "Gives one tool's full description and input schema (the arguments call_tool passes it), as JSON.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"The tool's name, as search_tools lists it."}},"required":["name"]}`),
		},
		{
			Name:        CallToolTool,
			Description: "Calls one tool by name with its arguments, and returns the tool's result.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"The tool's name, as search_tools lists it."},"arguments":{"type":"object","description":"The tool's arguments, as its input schema (describe_tool) asks."}},"required":["name"]}`),
		},
	}
}

// searching reports whether the run is on a search surface.
func (r *run) searching() bool { return r.cfg.Surface.Search() }

// modelTools are the tools the model is shown: the harness's search
// tools on a search surface, else the run's tools.
func (r *run) modelTools() []model.Tool {
	if r.searching() {
		return searchToolDefs()
	}
	return r.tools
}

// searchNamesFree refuses a search surface over a target that lists a tool
// named as one of the search tools: the model could not tell the two
// apart.
func (r *run) searchNamesFree() error {
	for _, name := range r.all {
		if name == SearchToolsTool || name == DescribeToolTool || name == CallToolTool {
			return fmt.Errorf("surface %s is a search surface, but its target has a tool of its own named %s, the name of a tool the harness serves on it; nothing was sent", r.cfg.Surface.Name, name)
		}
	}
	return nil
}

// isSearchCall reports whether call is a search or a description on a
// search surface: answered by the harness.
func (r *run) isSearchCall(call model.Call) bool {
	return r.searching() && (call.Name == SearchToolsTool || call.Name == DescribeToolTool)
}

// onlySearches reports whether every call of a turn searches or describes.
func (r *run) onlySearches(calls []model.Call) bool {
	for _, c := range calls {
		if !r.isSearchCall(c) {
			return false
		}
	}
	return len(calls) > 0
}

// onSearch prepares call on a search surface. A search, a description, a
// call_tool that names no tool and a call of any other name are answered
// here (send is nil, rc and res the record and the result). A call_tool
// naming a tool returns the call to send in its place (send); once it is
// sent, asMade records it as the model made it.
func (r *run) onSearch(call model.Call) (send *model.Call, rc record.Call, res *model.Result) {
	rc = record.Call{ID: call.ID, Name: call.Name, WireName: call.WireName, Args: call.Args}
	if !json.Valid(call.Args) {
		rc.Args = jsonString(string(call.Args))
	}
	res = &model.Result{CallID: call.ID, Name: call.Name}
	answer := func(text string, isError bool) (*model.Call, record.Call, *model.Result) {
		if len(text) > r.cfg.MaxResultBytes {
			text, rc.Truncated = truncate(text, r.cfg.MaxResultBytes), true
		}
		rc.Result, rc.IsError = text, isError
		res.Content, res.IsError = text, isError
		return nil, rc, res
	}
	var args map[string]any
	if len(call.Args) > 0 && json.Unmarshal(call.Args, &args) != nil {
		if call.Name == SearchToolsTool || call.Name == DescribeToolTool {
			rc.Kind, rc.Shown = record.CallSearch, true
		}
		rc.Rejected = "invalid arguments: not a JSON object"
		return answer(rc.Rejected, true)
	}
	switch call.Name {
	case SearchToolsTool:
		rc.Kind, rc.Shown = record.CallSearch, true
		query, _ := args["query"].(string)
		if strings.TrimSpace(query) == "" {
			return answer("search_tools needs a query: words describing what you want to do", true)
		}
		limit := searchLimit
		if n, ok := args["limit"].(float64); ok && n >= 1 {
			limit = min(int(n), searchMaxLimit)
		}
		return answer(searchText(query, SearchTools(r.tools, query, limit)), false)
	case DescribeToolTool:
		rc.Kind, rc.Shown = record.CallSearch, true
		name, _ := args["name"].(string)
		t, ok := r.shownTool(name)
		if !ok {
			return answer(fmt.Sprintf("no tool is named %q: search_tools lists the tools there are", name), true)
		}
		b, err := json.Marshal(struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema,omitempty"`
		}{t.Name, t.Description, t.InputSchema})
		if err != nil {
			return answer(fmt.Sprintf("describing tool %q: %v", name, err), true)
		}
		return answer(string(b), false)
	case CallToolTool:
		name, _ := args["name"].(string)
		rc.Shown = r.known[name]
		inner := args["arguments"]
		if inner == nil {
			inner = map[string]any{}
		}
		if _, ok := inner.(map[string]any); !ok || name == "" {
			rc.Rejected = "call_tool needs a name (a string) and arguments (an object)"
			return answer(rc.Rejected, true)
		}
		b, err := json.Marshal(inner)
		if err != nil {
			rc.Rejected = "call_tool: arguments: " + err.Error()
			return answer(rc.Rejected, true)
		}
		return &model.Call{ID: call.ID, Name: name, Args: b}, rc, res
	}
	// A tool of the server called by its name: the surface does not show it.
	rc.Rejected = fmt.Sprintf("unknown tool %q", call.Name)
	return answer(rc.Rejected, true)
}

// asMade records a call_tool sent as the call of the tool it names (sent)
// as the model made it: its name and arguments are the model's, and the
// rest (result, shown, server, timing) is the tool call's.
func asMade(sent record.Call, made record.Call) record.Call {
	sent.Name, sent.WireName, sent.Args = made.Name, made.WireName, made.Args
	return sent
}

// calledThrough returns a recorded call on a search surface as the call
// of the server's tool it made: a call_tool as the tool it names. ok is
// false for a search or a description, which called no tool.
func calledThrough(c record.Call) (record.Call, bool) {
	if c.Kind == record.CallSearch {
		return c, false
	}
	var made struct {
		Name string `json:"name"`
	}
	if c.Name == CallToolTool && json.Unmarshal(c.Args, &made) == nil && made.Name != "" {
		c.Name = made.Name
	}
	return c, true
}

// shownTool returns the tool of the run named name.
func (r *run) shownTool(name string) (model.Tool, bool) {
	for _, t := range r.tools {
		if t.Name == name {
			return t, true
		}
	}
	return model.Tool{}, false
}

// SearchTools returns the tools that match query best, best first, at
// most limit of them. The query and each tool's name and description are
// read as words: runs of letters and digits, lowercased, a name's
// camelCase parts apart, and a word of more than three letters ending in
// a single s without it (volumes is volume). A tool scores 3 for each
// distinct word of the query among its name's words, and 1 for each among
// its description's; tools that score 0 are left out, and tools of equal
// score come in the order of their names.
func SearchTools(tools []model.Tool, query string, limit int) []model.Tool {
	q := wordSet(query)
	type scored struct {
		t     model.Tool
		score int
	}
	var hits []scored
	for _, t := range tools {
		name, desc := wordSet(t.Name), wordSet(t.Description)
		score := 0
		for w := range q {
			if name[w] {
				score += 3
			}
			if desc[w] {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, scored{t, score})
		}
	}
	slices.SortFunc(hits, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return strings.Compare(a.t.Name, b.t.Name)
	})
	var out []model.Tool
	for i := 0; i < len(hits) && i < limit; i++ {
		out = append(out, hits[i].t)
	}
	return out
}

// searchText is what search_tools answers: one line a tool, its name and
// the first line of its description.
func searchText(query string, hits []model.Tool) string {
	if len(hits) == 0 {
		return fmt.Sprintf("no tool matches %q: try other words", query)
	}
	var b strings.Builder
	for _, t := range hits {
		fmt.Fprintf(&b, "%s: %s\n", t.Name, summary(t.Description))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// summary is the first line of a description, cut to summaryBytes.
func summary(desc string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(desc), "\n")
	line = strings.TrimSpace(line)
	if len(line) <= summaryBytes {
		return line
	}
	n := summaryBytes
	for n > 0 && !utf8.RuneStart(line[n]) {
		n--
	}
	return line[:n] + "..."
}

// wordSet returns the distinct words of s (see SearchTools).
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out[stem(strings.ToLower(string(cur)))] = true
			cur = cur[:0]
		}
	}
	prev := rune(0)
	for _, c := range s {
		switch {
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			flush()
		case unicode.IsUpper(c) && unicode.IsLower(prev):
			flush()
			cur = append(cur, c)
		default:
			cur = append(cur, c)
		}
		prev = c
	}
	flush()
	return out
}

// stem drops the final s of a word of more than three letters that ends in
// one s.
func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}
