package runner

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/testkit/npm"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// docsServer is a go-sdk server with two documents as resources and one
// tool, served over streamable HTTP; withListResources adds a tool of its
// own named list_resources.
func docsServer(t *testing.T, withListResources bool) string {
	t.Helper()
	// One resource a page, so that list_resources must follow pagination.
	s := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1"}, &mcp.ServerOptions{PageSize: 1})
	s.AddResource(&mcp.Resource{URI: "file:///docs/logo.png", Name: "logo.png", MIMEType: "image/png"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///docs/logo.png", MIMEType: "image/png", Blob: []byte("\x89PNG")}}}, nil
		})
	for uri, text := range map[string]string{
		"file:///docs/checklist.md": "Release checklist: tag the commit, build, sign the archive.",
		"file:///docs/oncall.md":    "On call this week: Priya.",
	} {
		s.AddResource(&mcp.Resource{URI: uri, Name: uri[len("file:///docs/"):], MIMEType: "text/markdown"},
			func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}, nil
			})
	}
	names := []string{"ping"}
	if withListResources {
		names = append(names, ListResourcesTool)
	}
	for _, name := range names {
		s.AddTool(&mcp.Tool{Name: name, Description: "Answers pong.", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil
			})
	}
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

const resourcesSuite = `name: docs
resources: true
cases:
  - id: docs/checklist
    prompt: What does the release checklist say to do?
    tools: {required: [read_resource]}
    key:
      calls: [{tool: read_resource, args: {uri: "file:///docs/checklist.md"}}]
      answer: Tag the commit, build, sign the archive.
  - id: docs/list
    prompt: Which documents are there?
    tools: {required: [list_resources]}
    key: {calls: [{tool: list_resources}], answer: "checklist.md and oncall.md."}
  - id: docs/logo
    prompt: What is in the logo?
    tools: {required: [read_resource]}
    key:
      calls: [{tool: read_resource, args: {uri: "file:///docs/logo.png"}}]
      answer: An image.
  - id: docs/missing
    prompt: What does the missing page say?
    tools: {required: [read_resource]}
    key:
      calls: [{tool: read_resource, args: {uri: "file:///docs/missing.md"}}]
      answer: There is no such page.
`

func runResources(t *testing.T, s *suite.Suite, spec string) (*record.Run, error) {
	t.Helper()
	perfect, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), Config{
		Target: target.Config{Spec: spec},
		Suite:  s, Model: perfect, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true}, Attempts: 1,
		OutDir: t.TempDir(), Now: clock(), NewID: func() string { return "run-resources" },
	})
}

// TestResourceTools runs a suite with resources: true against a go-sdk
// server over streamable HTTP: the model is offered list_resources and
// read_resource beside the server's tools, the reads reach the server's
// resources, the record marks them, and a key can require a read.
func TestResourceTools(t *testing.T) {
	s := loadSuite(t, resourcesSuite)
	rec, err := runResources(t, s, docsServer(t, false)+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range rec.Header.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "ping,list_resources,read_resource" {
		t.Errorf("header tools %v", names)
	}
	got := map[string]record.Call{}
	for _, a := range rec.Attempts {
		if a.End == record.EndError {
			t.Errorf("%s: %+v", a.Case, a.Error)
		}
		for _, c := range a.Calls() {
			got[a.Case] = c
		}
	}
	if c := got["docs/checklist"]; c.Kind != record.CallResource || c.IsError || !strings.Contains(c.Result, "sign the archive") {
		t.Errorf("the checklist read was recorded as %+v", c)
	}
	if c := got["docs/list"]; c.Kind != record.CallResource || strings.Count(c.Result, `"uri"`) != 3 || !strings.Contains(c.Result, "file:///docs/oncall.md") || !strings.Contains(c.Result, "text/markdown") {
		t.Errorf("the listing (three resources, one a page) was recorded as %+v", c)
	}
	if c := got["docs/logo"]; c.Result != "[file:///docs/logo.png: 4 bytes of image/png, not shown]" {
		t.Errorf("the binary resource was shown as %q", c.Result)
	}
	if c := got["docs/missing"]; c.Kind != record.CallResource || !c.IsError || c.Result == "" {
		t.Errorf("the read of a missing resource was recorded as %+v; want the server's refusal, shown to the model", c)
	}

	passed := func(res *grade.Result) map[string]bool {
		m := map[string]bool{}
		for _, a := range res.Attempts {
			m[a.Case] = a.Outcome == grade.Pass
			if a.Outcome != grade.Pass {
				t.Logf("%s: %s %v", a.Case, a.Outcome, a.Reasons)
			}
		}
		return m
	}
	if p := passed(grade.Run(s, rec)); !p["docs/checklist"] || !p["docs/list"] || p["docs/missing"] {
		t.Errorf("passed %v, want the checklist read and the listing to pass, and the read of a missing page to fail", p)
	}
	// An answer given without reading the resource fails the key.
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		if a.Case == "docs/checklist" {
			for j := range a.Turns {
				a.Turns[j].Calls = nil
			}
		}
	}
	if p := passed(grade.Run(s, rec)); p["docs/checklist"] || !p["docs/list"] {
		t.Errorf("with the checklist not read: passed %v, want docs/checklist to fail", p)
	}
}

// TestResourceToolsOff: without resources: true the model is offered the
// server's tools alone.
func TestResourceToolsOff(t *testing.T) {
	s := loadSuite(t, `name: docs
cases:
  - id: net/ping
    prompt: Ping.
    tools: {required: [ping]}
    key: {calls: [{tool: ping}], answer: pong}
`)
	rec, err := runResources(t, s, docsServer(t, false)+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Header.Tools) != 1 {
		t.Errorf("header tools %v, want ping alone", rec.Header.Tools)
	}
}

// TestResourceToolNameTaken: a server tool named like a resource tool
// stops the run before any model request.
func TestResourceToolNameTaken(t *testing.T) {
	s := loadSuite(t, resourcesSuite)
	_, err := runResources(t, s, docsServer(t, true)+"/mcp")
	if err == nil || !strings.Contains(err.Error(), "a tool of its own named list_resources") {
		t.Fatalf("got %v", err)
	}
}

// TestResourcesOfServerEverything reads a document server-everything
// lists, over stdio, as it ships on npm.
func TestResourcesOfServerEverything(t *testing.T) {
	entry := npm.Server(t, "server-everything")
	s := loadSuite(t, `name: everything-docs
resources: true
tools:
  include: [echo, list_resources, read_resource]
cases:
  - id: docs/architecture
    prompt: How is the everything server built?
    tools: {required: [read_resource]}
    key:
      calls: [{tool: read_resource, args: {uri: "demo://resource/static/document/architecture.md"}}]
      answer: See its architecture document.
  - id: docs/list
    prompt: Which documents does it have?
    tools: {required: [list_resources]}
    key: {calls: [{tool: list_resources}], answer: "architecture.md and others."}
`)
	rec, err := runResources(t, s, "stdio:node "+entry)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range rec.Attempts {
		for _, c := range a.Calls() {
			if c.Kind != record.CallResource || c.IsError {
				t.Errorf("%s: %+v", a.Case, c)
			}
			if a.Case == "docs/architecture" && !strings.Contains(c.Result, "Architecture") {
				t.Errorf("architecture.md read as %q", c.Result)
			}
			if a.Case == "docs/list" && !strings.Contains(c.Result, "demo://resource/static/document/architecture.md") {
				t.Errorf("listing %q", c.Result)
			}
		}
	}
	if res := grade.Run(s, rec); res.Totals.Passed != 2 {
		t.Errorf("graded %+v, want 2 of 2 passed", res.Totals)
	}
}

// TestResourcesOfSeveralServersRefused: with several servers, which one a
// read means is not known, so the run is refused before any model request.
func TestResourcesOfSeveralServersRefused(t *testing.T) {
	s := loadSuite(t, resourcesSuite)
	a, b := docsServer(t, false), docsServer(t, false)
	perfect, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Config{
		Target: target.Several([]target.Server{{Name: "a", Config: target.Config{Spec: a + "/mcp"}}, {Name: "b", Config: target.Config{Spec: b + "/mcp"}}}),
		Suite:  s, Model: perfect, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true}, Attempts: 1,
		OutDir: t.TempDir(), Now: clock(),
	})
	if err == nil || !strings.Contains(err.Error(), "its target is 2 servers") {
		t.Fatalf("got %v", err)
	}
}
