package price

// BatchRate is what a provider's batch API charges for a request, as a
// share of the price of the same request sent on its own, with when and
// where that was read.
type BatchRate struct {
	Provider string
	// Share multiplies every kind of token's rate (input, output, cache
	// writes and reads).
	Share float64
	// Read is the date the rate was read; Source the page it was read
	// from.
	Read   string
	Source string
}

// batchRates are the providers' batch rates, from their own pages.
var batchRates = map[string]BatchRate{
	// "All usage is charged at 50% of standard API prices", input, output
	// and prompt caching alike.
	"anthropic": {Provider: "anthropic", Share: 0.5, Read: "2026-11-30",
		Source: "https://platform.claude.com/docs/en/build-with-claude/batch-processing"},
	// "Each model will be offered at 50% cost discount vs. the
	// synchronous APIs."
	"openai": {Provider: "openai", Share: 0.5, Read: "2026-11-30",
		Source: "https://help.openai.com/en/articles/9197833-batch-api-faq"},
}

// Batch returns the provider's batch rate, and false for a provider
// without a batch API mcpeval speaks.
func Batch(provider string) (BatchRate, bool) {
	r, ok := batchRates[provider]
	return r, ok
}
