package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
)

// BatchOptions configures a run whose attempts go through the model's
// batch API (Config.Batch): every attempt's first request, built exactly
// as a run without it builds it, is submitted in one batch (or as few as
// the provider's size limits allow), the batch ids are written to the
// record's header before anything is polled, and each result is recorded
// as the attempt it answers. Only tool-call cases can be batched: they end
// at the model's first turn.
type BatchOptions struct {
	// Poll is the first wait between polls (default 10s); each later wait
	// is half as long again, up to MaxPoll (default 2 minutes).
	Poll, MaxPoll time.Duration
	// Status, when set, is told how the batches are getting on after each
	// poll, one line a batch: "batch msgbatch_…: 120/190 done".
	Status func(string)
}

// withDefaults fills in the documented defaults: a first wait of 10s,
// growing to at most 2 minutes.
func (o BatchOptions) withDefaults() BatchOptions {
	if o.Poll <= 0 {
		o.Poll = 10 * time.Second
	}
	if o.MaxPoll <= 0 {
		o.MaxPoll = 2 * time.Minute
	}
	o.MaxPoll = max(o.MaxPoll, o.Poll)
	return o
}

// next is the wait after one of d: half as long again, up to MaxPoll.
func (o BatchOptions) next(d time.Duration) time.Duration {
	return min(d+d/2, o.MaxPoll)
}

// ErrBatch is returned (wrapped) when a run cannot be batched: the model
// has no batch API, or a case selected needs a turn after the first.
var ErrBatch = errors.New("cannot batch this run")

// batcher returns the model's batch API, or nil when it has none.
func batcher(m model.Model) model.Batcher {
	if a, ok := m.(*adaptive); ok {
		m = a.m
	}
	b, _ := m.(model.Batcher)
	return b
}

// CheckBatch says why cfg cannot be batched (wrapping ErrBatch), or nil:
// its model must have a batch API and every case it selects must be a
// tool-call case, which ends at the model's first turn. A resumed run is
// batched as its record says, and is not checked here.
func CheckBatch(cfg Config) error {
	if batcher(cfg.Model) == nil {
		return fmt.Errorf("%w: %s has no batch API mcpeval speaks (anthropic and openai have)", ErrBatch, cfg.ModelInfo.Spec)
	}
	if cfg.Resume != nil || cfg.Suite == nil {
		return nil
	}
	plan := Plan(cfg.Suite, 1, cfg.Cases)
	if cfg.Dataset != "" {
		plan = filterDataset(cfg.Suite, plan, cfg.Dataset)
	}
	var multi []string
	for _, p := range plan {
		if c := cfg.Suite.Case(p.Case); c == nil || !c.IsToolCall() {
			multi = append(multi, p.Case)
		}
	}
	if len(multi) > 0 {
		more := ""
		if len(multi) > 3 {
			more = fmt.Sprintf(" and %d more", len(multi)-3)
			multi = multi[:3]
		}
		return fmt.Errorf("%w: case %s%s may need a turn after the first (only mode: tool-call cases can be batched; choose them with --dataset or --case)",
			ErrBatch, strings.Join(multi, ", "), more)
	}
	return nil
}

// batchID is the id an attempt's request carries in a batch (the
// providers' custom_id, 1 to 64 of [A-Za-z0-9_-]): the case id made safe
// and cut short, the attempt number, and a hash of both so that two cases
// made alike stay apart.
func batchID(p record.Planned) string {
	safe := []byte(p.Case)
	for i, c := range safe {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			safe[i] = '_'
		}
	}
	if len(safe) > 36 {
		safe = safe[:36]
	}
	sum := sha256.Sum256([]byte(p.Key().ID()))
	return fmt.Sprintf("%s-%d-%s", safe, p.N, hex.EncodeToString(sum[:4]))
}

// batchRequests builds the first request of each planned attempt, as
// attempt builds it.
func (r *run) batchRequests(planned []record.Planned) ([]model.BatchRequest, error) {
	out := make([]model.BatchRequest, 0, len(planned))
	for _, p := range planned {
		c := r.cfg.Suite.Case(p.Case)
		if c == nil {
			return nil, fmt.Errorf("case %s is not in the suite", p.Case)
		}
		out = append(out, model.BatchRequest{ID: batchID(p), Request: r.forCase(c).firstRequest(c, c.Prompt)})
	}
	return out, nil
}

// submitBatches submits the planned attempts and writes the batches the
// provider accepted into the header, which is written before any poll.
// Only when no batch was accepted does it return an error; requests left
// unsent after a failure are recorded as errors (batched).
func (r *run) submitBatches(ctx context.Context) error {
	b := batcher(r.cfg.Model)
	if b == nil {
		return CheckBatch(r.cfg)
	}
	reqs, err := r.batchRequests(r.planned)
	if err != nil {
		return fmt.Errorf("building the batch: %w", err)
	}
	batches, err := b.Submit(ctx, reqs)
	for _, bt := range batches {
		r.header.Batches = append(r.header.Batches, record.Batch{Provider: r.cfg.ModelInfo.Provider, ID: bt.ID, Requests: bt.Requests, Submitted: r.cfg.Now().UTC()})
	}
	if err != nil {
		if len(batches) == 0 {
			return fmt.Errorf("submitting the batch (nothing was recorded): %w", err)
		}
		r.unsent = err
	}
	return nil
}

// batched records the planned attempts from the run's batches: it polls
// each batch until it has ended, with a growing wait, and records each
// planned attempt its results answer. On a resumed run an attempt its
// batch did not answer (an error, an expired request), or that no batch
// holds, is run the ordinary way.
func (r *run) batched(ctx context.Context, conn *target.Conn, planned []record.Planned) *record.End {
	cfg := r.cfg
	opts := BatchOptions{}
	if cfg.Batch != nil {
		opts = *cfg.Batch
	}
	opts = opts.withDefaults()
	t := &tally{total: len(planned), skipped: map[string]int{}}
	w := &worker{r: r, t: t}
	end := func(reason string) *record.End { return t.end(cfg.Now(), reason) }
	b := batcher(cfg.Model)
	if b == nil {
		t.skip("no batch API", len(planned))
		return end(fmt.Sprintf("the record's batches cannot be read: %s has no batch API", cfg.ModelInfo.Spec))
	}
	bs := r.batchesOf(planned)
	reqs, err := r.batchRequests(bs.mine)
	if err != nil {
		t.skip("batch", len(planned))
		return end(err.Error())
	}
	for i, p := range bs.mine {
		bs.byID[reqs[i].ID] = p
	}
	r.pollBatches(ctx, b, opts, bs, reqs, t)
	rest := bs.rest
	resumed := cfg.Resume != nil
	for _, p := range bs.mine {
		res, ok := bs.got[p]
		i := bs.owner[p]
		if _, ended := bs.status[i]; !ended {
			continue // interrupted, or the poll failed: counted below
		}
		if resumed && (!ok || res.Response == nil) {
			rest = append(rest, p) // asked again, the ordinary way
			continue
		}
		if !ok {
			res = model.BatchResult{ID: batchID(p), Error: fmt.Sprintf("the batch ended (%s) without a result for this attempt", bs.status[i])}
		}
		w.keep(r.fromBatch(context.WithoutCancel(ctx), conn, p, r.header.Batches[i].ID, res))
	}
	if r.unsent != nil {
		for _, p := range rest {
			w.keep(r.fromBatch(context.WithoutCancel(ctx), conn, p, "", model.BatchResult{ID: batchID(p), Error: "not submitted: " + r.unsent.Error()}))
		}
		rest = nil
	}
	if ctx.Err() != nil {
		n := 0
		for _, p := range bs.mine {
			if _, ended := bs.status[bs.owner[p]]; !ended {
				n++
			}
		}
		if n -= t.skipped["batch poll failed"]; n > 0 {
			t.skip("interrupted", n)
		}
		t.skip("interrupted", len(rest))
		return end("interrupted")
	}
	reason := ""
	if t.skipped["batch poll failed"] > 0 {
		reason = "a batch could not be polled"
	}
	if len(rest) > 0 {
		e := r.attempts(ctx, conn, rest)
		for k, v := range e.Skipped {
			t.skipped[k] += v
		}
		if reason == "" {
			reason = e.Reason
		}
		if !e.Complete && e.Reason != "" && t.writeErr == nil {
			reason = e.Reason
		}
	}
	return end(reason)
}

// batchState is what a run knows of its batches while it reads them.
type batchState struct {
	owner  map[record.Planned]int // the batch each submitted attempt is in
	mine   []record.Planned       // the planned attempts some batch holds
	rest   []record.Planned       // the planned attempts no batch holds
	byID   map[string]record.Planned
	got    map[record.Planned]model.BatchResult
	status map[int]string // how each batch that ended, ended
}

// batchesOf says which batch holds each planned attempt: they were
// submitted in plan order.
func (r *run) batchesOf(planned []record.Planned) *batchState {
	bs := &batchState{owner: map[record.Planned]int{}, byID: map[string]record.Planned{},
		got: map[record.Planned]model.BatchResult{}, status: map[int]string{}}
	offset := 0
	all := r.header.Planned
	for i, bt := range r.header.Batches {
		for _, p := range all[min(offset, len(all)):min(offset+bt.Requests, len(all))] {
			bs.owner[p] = i
		}
		offset += bt.Requests
	}
	for _, p := range planned {
		if _, ok := bs.owner[p]; ok {
			bs.mine = append(bs.mine, p)
		} else {
			bs.rest = append(bs.rest, p)
		}
	}
	return bs
}

// pollBatches polls every batch that holds one of bs.mine until it has
// ended, or ctx ends, waiting longer between rounds; a batch whose poll
// fails is given up (its attempts skipped, to be read on resume).
func (r *run) pollBatches(ctx context.Context, b model.Batcher, opts BatchOptions, bs *batchState, reqs []model.BatchRequest, t *tally) {
	open := map[int]bool{}
	for _, p := range bs.mine {
		open[bs.owner[p]] = true
	}
	wait := opts.Poll
	for first := true; len(open) > 0 && ctx.Err() == nil; first = false {
		if !first {
			if err := retry.Sleep(ctx, wait); err != nil {
				return
			}
			wait = opts.next(wait)
		}
		for i, bt := range r.header.Batches {
			if !open[i] {
				continue
			}
			st, err := b.Poll(ctx, bt.ID, reqs)
			if err != nil {
				if ctx.Err() == nil {
					t.skip("batch poll failed", countOwned(bs.mine, bs.owner, i))
					delete(open, i)
					if r.cfg.Warn != nil {
						r.cfg.Warn(fmt.Sprintf("%v (mcpeval run --resume reads the batch again)", err))
					}
				}
				continue
			}
			if opts.Status != nil {
				opts.Status(fmt.Sprintf("batch %s: %d/%d done", bt.ID, st.Done, st.Total))
			}
			if !st.Ended {
				continue
			}
			delete(open, i)
			bs.status[i] = st.Status
			for _, res := range st.Results {
				if p, ok := bs.byID[res.ID]; ok && bs.owner[p] == i {
					bs.got[p] = res
				}
			}
		}
	}
}

// countOwned counts the attempts of mine that batch i holds.
func countOwned(mine []record.Planned, owner map[record.Planned]int, i int) int {
	n := 0
	for _, p := range mine {
		if owner[p] == i {
			n++
		}
	}
	return n
}

// fromBatch records attempt p as the ordinary path records it, with the
// batch's result as the model's answer to its first request.
func (r *run) fromBatch(ctx context.Context, conn *target.Conn, p record.Planned, batch string, res model.BatchResult) *record.Attempt {
	rr := *r
	rr.cfg.Model = batchAnswer{res: res, batch: batch}
	a := rr.attempt(ctx, conn, p)
	a.Batch = true
	return a
}

// batchAnswer is a model that gives one batch result as its answer.
type batchAnswer struct {
	res   model.BatchResult
	batch string
}

func (m batchAnswer) Generate(context.Context, *model.Request) (*model.Response, error) {
	if m.res.Response == nil {
		if m.batch == "" {
			return nil, errors.New(m.res.Error)
		}
		return nil, fmt.Errorf("batch %s: %s", m.batch, m.res.Error)
	}
	resp := *m.res.Response
	return &resp, nil
}
