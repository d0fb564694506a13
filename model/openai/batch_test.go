package openai

import (
	"testing"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
)

// The Batch API client passes the checks every batch client passes,
// against the stand-in of the API: an input file uploaded, then a batch
// of it created.
func TestBatches(t *testing.T) {
	const key = "sk-PLANTED-openai-batch-0123"
	providertest.Batches(t, providertest.BatchClient{
		API: wiremodel.OpenAI, Key: key,
		Open: func(t *testing.T, url string, policy retry.Policy) (model.Batcher, error) {
			return providertest.Open(t, "openai:gpt-test", Config{APIKey: key, BaseURL: url + "/v1", Retry: policy}, New)
		},
		MaxRequests: MaxBatchRequests, MaxBytes: MaxBatchBytes,
		Limits:     &batchLimits,
		Ended:      "completed",
		StopReason: "tool_calls",
		Upload:     "/v1/files", Create: "/v1/batches",
		Results:     func(string) string { return "/v1/files/" },
		SubmitError: "uploading a batch of 2 requests for openai:gpt-test",
		Errored:     "errored: status 400: invalid_request_error: wiremodel: no case has the prompt",
	})
}
