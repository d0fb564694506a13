package anthropic

import (
	"testing"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
)

// The Message Batches API client passes the checks every batch client
// passes, against the stand-in of the API.
func TestBatches(t *testing.T) {
	const key = "sk-ant-PLANTED-batch-0123"
	providertest.Batches(t, providertest.BatchClient{
		API: wiremodel.Anthropic, Key: key,
		Open: func(t *testing.T, url string, policy retry.Policy) (model.Batcher, error) {
			return providertest.Open(t, "anthropic:claude-test", Config{APIKey: key, BaseURL: url, Retry: policy}, New)
		},
		MaxRequests: MaxBatchRequests, MaxBytes: MaxBatchBytes,
		Limits:     &batchLimits,
		Ended:      "ended",
		StopReason: "tool_use",
		Upload:     "/v1/messages/batches", Create: "/v1/messages/batches",
		Results:     func(batch string) string { return "/v1/messages/batches/" + batch + "/results" },
		SubmitError: "submitting a batch of 2 requests to anthropic:claude-test",
		Errored:     "errored: invalid_request_error: ",
	})
}
