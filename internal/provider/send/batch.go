package send

import (
	"time"

	"github.com/mcpeval/mcpeval/model"
)

// BatchTimeout bounds one request of a batch API (a submission or upload
// of hundreds of MB, a download of the results), which may take longer
// than a turn.
const BatchTimeout = 10 * time.Minute

// Limits are a batch API's limits on one batch.
type Limits struct {
	// Requests is the most requests a batch may hold.
	Requests int
	// Bytes is the most bytes its requests may take.
	Bytes int
}

// Names are the MCP names of req's tools, in order: what a provider maps
// to the names its API accepts, for a turn and for a batched request
// alike.
func Names(req *model.Request) []string {
	names := make([]string, len(req.Tools))
	for i, t := range req.Tools {
		names[i] = t.Name
	}
	return names
}

// Split sends reqs in batches within lim, in order, and returns the
// batches accepted. encode makes a request's entry in a batch and says how
// many bytes it adds; submit sends one batch of entries and returns its
// id. An entry larger than lim.Bytes goes alone. With an error, the batches returned were
// accepted and the requests after them were not sent.
func Split[E any](reqs []model.BatchRequest, lim Limits,
	encode func(model.BatchRequest) (E, int, error),
	submit func([]E) (string, error),
) ([]model.Batch, error) {
	var (
		out   []model.Batch
		chunk []E
		size  int
	)
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		id, err := submit(chunk)
		if err != nil {
			return err
		}
		out = append(out, model.Batch{ID: id, Requests: len(chunk)})
		chunk, size = nil, 0
		return nil
	}
	for _, r := range reqs {
		e, n, err := encode(r)
		if err != nil {
			return out, err
		}
		if len(chunk) > 0 && (len(chunk) >= lim.Requests || size+n > lim.Bytes) {
			if err := flush(); err != nil {
				return out, err
			}
		}
		chunk = append(chunk, e)
		size += n
	}
	return out, flush()
}

// Submitted are the requests of a batch by their ids, by which its
// answers are read back.
type Submitted map[string]*model.Request

// Index indexes reqs by their ids.
func Index(reqs []model.BatchRequest) Submitted {
	s := make(Submitted, len(reqs))
	for _, r := range reqs {
		s[r.ID] = r.Request
	}
	return s
}

// Request is the request submitted under id, or an empty one (no tools,
// so no names to map back) for an id that was not submitted.
func (s Submitted) Request(id string) *model.Request {
	if r := s[id]; r != nil {
		return r
	}
	return &model.Request{}
}
