package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// keyOnce holds a run's prompt cache key, made once its header is.
type keyOnce struct {
	once sync.Once
	key  string
}

// cacheKey is the prompt cache key of a run's requests: the same for every
// request of a suite shown the same tools, and naming neither (a hash).
func (r *run) cacheKey() string {
	if r.header == nil || r.key == nil {
		return ""
	}
	r.key.once.Do(func() {
		sum := sha256.Sum256([]byte(r.cfg.Suite.Name + "\x00" + r.header.ToolsHash))
		r.key.key = "mcpeval-" + hex.EncodeToString(sum[:8])
	})
	return r.key.key
}

// MinCachePrefix returns the fewest tokens a prompt prefix must hold for
// the model's provider to cache it, as the providers document it (see
// docs/performance.md), and false when the provider's minimum is not known.
func MinCachePrefix(info model.Info) (int, bool) {
	name := strings.ToLower(info.Name)
	switch info.Provider {
	case "openai", "azure-openai", "gemini":
		return 1024, true
	case "anthropic", "bedrock":
		if info.Provider == "bedrock" && !strings.Contains(name, "claude") {
			return 0, false
		}
		for _, m := range []struct {
			part string
			min  int
		}{
			{"opus-4-5", 4096}, {"opus-4-6", 4096}, {"haiku-4-5", 4096},
			{"opus-4-7", 2048}, {"3-5-haiku", 2048}, {"3-haiku", 2048}, {"haiku-3", 2048},
			{"opus-5", 512},
		} {
			if strings.Contains(name, m.part) {
				return m.min, true
			}
		}
		return 1024, true
	}
	return 0, false
}

// EstimateTokens estimates the tokens of the prefix every request of a run
// shares, the system prompt and the tool definitions, at four characters a
// token.
func EstimateTokens(system string, tools []record.Tool) int {
	n := len(system)
	for _, t := range tools {
		n += len(t.Name) + len(t.Title) + len(t.Description) + len(t.InputSchema)
	}
	return n / 4
}

// CacheWarning returns a warning when the prefix every request of a run
// shares (system prompt and tools) is estimated under the least the
// model's provider caches, so that marking it for the cache buys nothing;
// "" otherwise. A conversation that grows past the minimum on later turns
// is still cached from there.
func CacheWarning(info model.Info, system string, tools []record.Tool) string {
	least, ok := MinCachePrefix(info)
	if !ok || info.Fake {
		return ""
	}
	if est := EstimateTokens(system, tools); est < least {
		return fmt.Sprintf("the prompt prefix every attempt shares (system prompt and %d tools) is about %d tokens, under the %d tokens %s caches at least: "+
			"no attempt will read it from the prompt cache, and single-turn cases pay full price for it (see docs/performance.md)",
			len(tools), est, least, info.Provider+":"+info.Name)
	}
	return ""
}
