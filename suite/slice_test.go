package suite

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func catalog(n int) []string {
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("%s_%03d", []string{"container", "image", "volume", "user"}[i%4], i))
	}
	return names
}

// TestSliceFor: a slice holds the case's named tools and their domain,
// fills up to the cap with distractors in the target's order, and is the
// same for the same seed and case, other for another seed or case.
func TestSliceFor(t *testing.T) {
	s := &Suite{Slice: &Slice{MaxTools: 120, Seed: 7, Domains: map[string][]string{
		"image": {"image_*"}, "user": {"user_*"}, "volume": {"volume_*"},
	}}}
	c := &Case{ID: "a/b", Tools: ToolRules{Required: []string{"image_001"}, Forbidden: []string{"container_000"}, Domains: []string{"user"}}}
	all := catalog(200)
	got, err := s.SliceFor(c, all)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 120 {
		t.Errorf("slice of %d tools, want the cap 120", len(got))
	}
	for _, n := range all {
		inDomain := strings.HasPrefix(n, "image_") || strings.HasPrefix(n, "user_") || n == "container_000"
		if inDomain && !slices.Contains(got, n) {
			t.Errorf("slice lacks %s, which the case names or its domains hold", n)
		}
	}
	distractors := 0
	for _, n := range got {
		if strings.HasPrefix(n, "volume_") || strings.HasPrefix(n, "container_") && n != "container_000" {
			distractors++
		}
	}
	if distractors != 120-101 {
		t.Errorf("slice has %d distractors, want the 19 that fill it to the cap", distractors)
	}
	if !slices.IsSortedFunc(got, func(a, b string) int { return slices.Index(all, a) - slices.Index(all, b) }) {
		t.Errorf("slice is not in the target's order: %v", got)
	}
	again, _ := s.SliceFor(c, all)
	if !slices.Equal(got, again) {
		t.Errorf("the same seed gave two slices")
	}
	s.Slice.Seed = 8
	other, _ := s.SliceFor(c, all)
	if slices.Equal(got, other) {
		t.Errorf("another seed gave the same distractors")
	}
	s.Slice.Seed = 7
	c2 := *c
	c2.ID = "a/c"
	if o, _ := s.SliceFor(&c2, all); slices.Equal(got, o) {
		t.Errorf("another case gave the same distractors")
	}
	// A catalog within the cap is shown whole.
	if small, _ := s.SliceFor(c, all[:100]); !slices.Equal(small, all[:100]) {
		t.Errorf("a small catalog was sliced: %v", small)
	}
	// Domains beyond the cap are an error, not a silent cut.
	c.Tools.Domains = []string{"user", "volume"}
	if _, err := s.SliceFor(c, all); err == nil || !strings.Contains(err.Error(), "case a/b: its slice needs 151 tools (2 it names, 149 more of their domains), more than slice.max_tools 120") {
		t.Errorf("err %v", err)
	}
}

// TestLoadSliceAndChoiceErrors: the slice, tool_choice and target from
// settings are checked where they are written.
func TestLoadSliceAndChoiceErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"negative cap", "slice: {max_tools: -1}\n", "s.yaml:2: slice.max_tools is -1"},
		{"empty domain", "slice: {domains: {image: []}}\n", "slice.domains.image lists no tool"},
		{"unknown domain", "slice: {domains: {image: [get_*]}}\n", `case a/b: tools.domains names "user", which the suite's slice.domains does not define (have image)`},
		{"domains without slice", "", "tools.domains goes with the suite's slice"},
		{"from with spec", "target: {from: mcp.json, spec: builtin:household}\n", "s.yaml:2: target: from mcp.json gives the server's command or URL"},
		{"name without from", "target: {name: github}\n", `target: name "github" goes with from`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := "name: s\n" + tc.body + "cases:\n  - id: a/b\n    prompt: p\n    tools: {required: [get_x], domains: [user]}\n"
			_, err := Load(write(t, t.TempDir(), "s.yaml", body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ choice, extra, want string }{
		{"sometimes", "", `tool_choice "sometimes": want auto, any, none or {tool: NAME}`},
		{"{tool: get_y}", "", "names get_y, but the tools filter"},
		{"none", "mode: tool-call\n    expect_tools: [get_x]\n    ", "tool_choice none forbids the tool call"},
		{"{tool: get_z}", "mode: tool-call\n    expect_tools: [get_x]\n    ", "tool_choice makes the model call get_z, which expect_tools does not list"},
		{"[a]", "", "tool_choice: want auto, any, none or {tool: NAME}"},
	} {
		t.Run(tc.choice, func(t *testing.T) {
			body := "name: s\ncases:\n  - id: a/b\n    prompt: p\n    " + tc.extra + "tools: {required: [get_x], include: [get_x, get_z]}\n    tool_choice: " + tc.choice + "\n"
			_, err := Load(write(t, t.TempDir(), "s.yaml", body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
	good := "name: s\ncases:\n  - id: a/b\n    prompt: p\n    tools: {required: [get_x]}\n    tool_choice: {tool: get_x}\n  - id: a/c\n    prompt: p\n    tools: {required: [get_x]}\n    tool_choice: any\n"
	s, err := Load(write(t, t.TempDir(), "s.yaml", good))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Cases[0].ToolChoice.String() + " " + s.Cases[1].ToolChoice.String(); got != "tool:get_x any" {
		t.Errorf("choices %q", got)
	}
}
