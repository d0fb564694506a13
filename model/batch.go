package model

import "context"

// BatchRequest is one request of a batch: the first turn of one attempt,
// under the id its result comes back by.
type BatchRequest struct {
	// ID names the request within its batch (the providers' custom_id):
	// 1 to 64 characters of [A-Za-z0-9_-], unique in the batch.
	ID      string
	Request *Request
}

// BatchResult is what a batch gave for one of its requests.
type BatchResult struct {
	// ID is the BatchRequest's ID.
	ID string
	// Response is the model's answer; nil when the request did not
	// succeed.
	Response *Response
	// Error says why it did not: how the provider ended the request
	// (errored, expired, canceled) and its message, with no secret in it.
	Error string
}

// BatchStatus is what one poll found of a batch.
type BatchStatus struct {
	// Ended is true once every request of the batch has ended (succeeded,
	// errored, expired or been canceled); Results then holds them all.
	Ended bool
	// Done counts the requests that have ended, of Total.
	Done, Total int
	// Status is the provider's own word for the batch's state
	// ("in_progress", "ended", "completed", "expired", ...).
	Status string
	// Results are the results of every request, once Ended.
	Results []BatchResult
}

// Batch names one batch a provider accepted.
type Batch struct {
	// ID is the provider's id of the batch.
	ID string
	// Requests is how many requests it holds.
	Requests int
}

// Batcher is a model whose provider also answers requests in batches:
// asynchronously, within a day, at a lower price (Anthropic's Message
// Batches API, OpenAI's Batch API). A batched request is the request
// Generate would send, and its answer reads as Generate's would.
// Implementations must be safe for concurrent use and honour ctx.
type Batcher interface {
	// Submit sends reqs in as few batches as the provider's size limits
	// allow, in order, and returns the batches it accepted: the first
	// Requests of reqs went to the first batch, and so on. With an error
	// the batches returned were still accepted (and will be charged);
	// the requests after them were not sent.
	Submit(ctx context.Context, reqs []BatchRequest) ([]Batch, error)
	// Poll asks how the batch with id is getting on, and once it has
	// ended reads its results. reqs are the requests submitted (those of
	// this batch at least), by which the answers are read back (a tool
	// name a provider refused comes back as its MCP name).
	Poll(ctx context.Context, id string, reqs []BatchRequest) (*BatchStatus, error)
}
