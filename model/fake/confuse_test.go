package fake

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

func TestConfuseCallsTheOtherTool(t *testing.T) {
	s := &suite.Suite{Name: "t", Cases: []*suite.Case{{ID: "c", Key: suite.Key{Calls: []suite.KeyCall{{Tool: "a", Args: map[string]any{"x": 1}}, {Tool: "c"}}}}}}
	m, err := NewWithOptions(Confuse, map[string]string{"want": "a", "call": "b"}, s)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	req := &model.Request{CaseID: "c", Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "q"}}}}}
	for range 2 {
		resp, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range resp.Message.Calls() {
			got = append(got, c.Name+string(c.Args))
		}
		req.Messages = append(req.Messages, resp.Message)
	}
	if want := []string{`b{"x":1}`, `c{}`}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("calls %v, want %v", got, want)
	}
}

func TestConfuseOptions(t *testing.T) {
	s := &suite.Suite{Name: "t", Cases: []*suite.Case{{ID: "c", Key: suite.Key{Calls: []suite.KeyCall{{Tool: "a"}}}}}}
	for _, tc := range []struct {
		name string
		opts map[string]string
		err  string
	}{
		{Confuse, nil, "needs both want=TOOL"},
		{Confuse, map[string]string{"want": "a"}, "needs both"},
		{Confuse, map[string]string{"want": "a", "call": "a"}, "nothing to confuse"},
		{Confuse, map[string]string{"want": "zz", "call": "a"}, `no case of suite t has a key that calls "zz"`},
		{Confuse, map[string]string{"want": "a", "call": "b", "with": "c"}, `unknown option "with"`},
		{"perfect", map[string]string{"want": "a"}, "fake:perfect takes no options"},
	} {
		if _, err := NewWithOptions(tc.name, tc.opts, s); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s %v: error %v, want one saying %q", tc.name, tc.opts, err, tc.err)
		}
	}
	if _, err := NewWithOptions("perfect", nil, s); err != nil {
		t.Errorf("perfect: %v", err)
	}
}
