package runner

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
)

func TestCacheWarning(t *testing.T) {
	tools := []record.Tool{{Name: "get_total", Description: "the total", InputSchema: []byte(`{"type":"object"}`)}}
	long := strings.Repeat("Use the tools. ", 1200) // 18,000 characters: about 4,500 tokens
	for _, tc := range []struct {
		spec, system string
		want         string // in the warning; "" for none
	}{
		{"anthropic:claude-haiku-4-5", "Use the tools.", "under the 4096 tokens anthropic:claude-haiku-4-5 caches"},
		{"anthropic:claude-sonnet-4-5", "Use the tools.", "under the 1024 tokens"},
		{"anthropic:claude-haiku-4-5", long, ""},
		{"openai:gpt-5.5", "Use the tools.", "under the 1024 tokens openai:gpt-5.5"},
		{"openai:gpt-5.5", long, ""},
		{"fake:perfect", "Use the tools.", ""},
		{"script:answers.yaml", "Use the tools.", ""},
	} {
		info, err := model.ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		info.Fake = info.Provider == "fake" || info.Provider == "script"
		got := CacheWarning(info, tc.system, tools)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s with %d characters of system prompt: warning %q, want one saying %q", tc.spec, len(tc.system), got, tc.want)
		}
	}
}

// keyModel records the cache keys of the requests it is sent.
type keyModel struct {
	m    model.Model
	mu   sync.Mutex
	keys map[string]int
}

func (k *keyModel) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	k.mu.Lock()
	k.keys[req.CacheKey]++
	k.mu.Unlock()
	return k.m.Generate(ctx, req)
}

// TestCacheKeyAndWarning: every request of a run carries one cache key,
// which names neither the suite nor its tools, and a prefix too short to
// cache is warned of before the attempts start.
func TestCacheKeyAndWarning(t *testing.T) {
	s := loadSuite(t, testSuite)
	f, _ := fake.New("perfect", s)
	km := &keyModel{m: f, keys: map[string]int{}}
	var warnings []string
	info := model.Info{Spec: "openai:gpt-5.5", Provider: "openai", Name: "gpt-5.5"}
	_, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: km, ModelInfo: info, OutDir: t.TempDir(),
		Attempts: 3, Cases: []string{"g/total"}, Warn: func(w string) { warnings = append(warnings, w) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(km.keys) != 1 {
		t.Fatalf("cache keys %v, want one for every request", km.keys)
	}
	for k := range km.keys {
		if !strings.HasPrefix(k, "mcpeval-") || len(k) != len("mcpeval-")+16 || strings.Contains(k, s.Name) {
			t.Errorf("cache key %q", k)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "under the 1024 tokens") {
		t.Errorf("warnings %q, want one of a prefix too short to cache", warnings)
	}
}
