package shard

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/record"
)

// Parse reads a shard as written on the command line: "K/N", 1 ≤ K ≤ N.
func Parse(s string) (record.Shard, error) {
	ks, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil {
		return record.Shard{}, fmt.Errorf("shard %q: want K/N, e.g. 2/4", s)
	}
	if n < 1 || k < 1 || k > n {
		return record.Shard{}, fmt.Errorf("shard %q: want 1 ≤ K ≤ N", s)
	}
	return record.Shard{K: k, N: n}, nil
}

// Options are Merge's settings; zero values take the documented defaults.
type Options struct {
	// RunID is the merged run's id (default: "merged-" and the first
	// shard's id).
	RunID string
	// Now is the clock (default time.Now), for the merged record's times
	// when no shard has one.
	Now func() time.Time
}

// Provenance is what every shard of a run must share, by name.
func Provenance(h *record.Header) []Field {
	model, _ := json.Marshal(h.Model)
	overlay := "none"
	if h.Overlay != nil {
		overlay = h.Overlay.Hash
	}
	return []Field{
		{"suite hash", h.Suite.Hash},
		{"suite name", h.Suite.Name},
		{"tools hash", h.ToolsHash},
		{"server tools hash", h.ServerToolsHash},
		{"overlay", overlay},
		{"model spec and options", string(model)},
		{"target", h.Target.Spec},
		{"target server", h.Target.Server.Name + " " + h.Target.Server.Version},
		{"attempts", strconv.Itoa(h.Attempts)},
		{"turn cap", strconv.Itoa(h.TurnCap)},
		{"system prompt", h.SystemPrompt},
		{"dataset", h.Dataset},
		{"case filter", h.Filter},
		{"read-only", strconv.FormatBool(h.Target.ReadOnly)},
		{"mcpeval build", h.Tool.Version + " " + h.Tool.Commit},
	}
}

// Field is one named piece of provenance.
type Field struct{ Name, Value string }

// Info records one shard in the merged record's header, under
// Extra["shards"].
type Info struct {
	K      int       `json:"k"`
	N      int       `json:"n"`
	RunID  string    `json:"run_id"`
	Start  time.Time `json:"start"`
	Finish time.Time `json:"finish,omitzero"`
}

// Check verifies that shards are the N slices of one run, each exactly
// once, with the same provenance, and returns them in K order with the
// whole plan they were cut from, in plan order.
func Check(shards []*record.Run) ([]*record.Run, []record.Planned, error) {
	vs := make([]view, len(shards))
	for i, s := range shards {
		vs[i] = view{label: name(s), h: &s.Header}
		for _, a := range s.Attempts {
			vs[i].keys = append(vs[i].keys, a.Key())
		}
	}
	order, plan, err := check(vs)
	if err != nil {
		return nil, nil, err
	}
	ordered := make([]*record.Run, len(order))
	for k, i := range order {
		ordered[k] = shards[i]
	}
	return ordered, plan, nil
}

// view is what checking a shard needs: its name in messages, its header
// and the attempts it recorded.
type view struct {
	label string
	h     *record.Header
	keys  []record.AttemptKey
}

// check is Check over views; it returns the views' indexes in K order.
func check(vs []view) ([]int, []record.Planned, error) {
	if len(vs) == 0 {
		return nil, nil, errors.New("no shards to merge")
	}
	for _, v := range vs {
		if v.h.Shard == nil {
			return nil, nil, fmt.Errorf("%s is not a shard's record (it was not run with --shard K/N)", v.label)
		}
	}
	n := vs[0].h.Shard.N
	byK := map[int]int{}
	for i, v := range vs {
		sh := v.h.Shard
		if sh.N != n {
			return nil, nil, fmt.Errorf("%s is shard %d/%d but %s is shard %d/%d: shards of one run are cut the same number of ways", v.label, sh.K, sh.N, vs[0].label, vs[0].h.Shard.K, n)
		}
		if sh.K < 1 || sh.K > sh.N {
			return nil, nil, fmt.Errorf("%s claims to be shard %d/%d, which does not exist", v.label, sh.K, sh.N)
		}
		if prev, dup := byK[sh.K]; dup {
			return nil, nil, fmt.Errorf("shard %d/%d is given twice (%s and %s): shards must not overlap", sh.K, n, vs[prev].label, v.label)
		}
		byK[sh.K] = i
	}
	var missing []string
	for k := 1; k <= n; k++ {
		if _, ok := byK[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("missing shard%s %s: a merged run needs all %d shards", format.S(len(missing)), strings.Join(missing, ", "), n)
	}
	order := make([]int, n)
	for k, i := range byK {
		order[k-1] = i
	}
	first := Provenance(vs[order[0]].h)
	for _, i := range order[1:] {
		for j, f := range Provenance(vs[i].h) {
			if f.Value != first[j].Value {
				return nil, nil, fmt.Errorf("%s and %s differ in %s (%q, %q): they are not shards of the same run", vs[order[0]].label, vs[i].label, f.Name, clip(first[j].Value), clip(f.Value))
			}
		}
	}
	// Shard K holds plan[i] for i % n == K-1, in order: interleave them back.
	total := 0
	for _, i := range order {
		total += len(vs[i].h.Planned)
	}
	for k, i := range order {
		want := (total - k + n - 1) / n
		if got := len(vs[i].h.Planned); got != want {
			return nil, nil, fmt.Errorf("%s plans %d attempts, but the %d attempts of all shards split %d ways give shard %d/%d %d: the shards were not cut from the same plan", vs[i].label, got, total, n, k+1, n, want)
		}
	}
	plan := make([]record.Planned, total)
	seen := map[record.AttemptKey]bool{}
	for i := range plan {
		p := vs[order[i%n]].h.Planned[i/n]
		if seen[p.Key()] {
			return nil, nil, fmt.Errorf("attempt %s is planned by more than one shard: the shards overlap", p.Key())
		}
		seen[p.Key()] = true
		plan[i] = p
	}
	for _, i := range order {
		own := map[record.AttemptKey]bool{}
		for _, p := range vs[i].h.Planned {
			own[p.Key()] = true
		}
		for _, k := range vs[i].keys {
			if !own[k] {
				return nil, nil, fmt.Errorf("%s records attempt %s, which it did not plan", vs[i].label, k)
			}
		}
	}
	return order, plan, nil
}

// Merge checks shards (see Check) and writes one run record into dir
// holding every attempt of every shard, in plan order, under a header
// with the shards' shared provenance and the whole plan. The merged run
// is complete when every shard is, and invalid when any shard's preflight
// failed. It returns the merged record as read back. MergeDirs does the
// same from the shards' directories without holding their attempts.
func Merge(dir string, shards []*record.Run, opts Options) (*record.Run, error) {
	ordered, plan, err := Check(shards)
	if err != nil {
		return nil, err
	}
	heads := make([]*record.Header, len(ordered))
	ends := make([]*record.End, len(ordered))
	byKey := map[record.AttemptKey]*record.Attempt{}
	for k, s := range ordered {
		heads[k], ends[k] = &s.Header, s.End
		for i := range s.Attempts {
			a := &s.Attempts[i]
			byKey[a.Key()] = a
		}
	}
	h, end, err := merged(heads, ends, plan, opts)
	if err != nil {
		return nil, err
	}
	h.Suite.Rebase(ordered[0].Dir, dir)
	get := func(k record.AttemptKey) (*record.Attempt, error) { return byKey[k], nil }
	if _, err := write(dir, &h, end, plan, get); err != nil {
		return nil, err
	}
	return record.Read(dir)
}

// merged makes the merged run's header and end from the shards' headers
// and ends (nil for a shard that did not finish), in K order.
func merged(heads []*record.Header, ends []*record.End, plan []record.Planned, opts Options) (record.Header, *record.End, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := *heads[0]
	h.Shard = nil
	h.Planned = plan
	h.Extra = cloneExtra(h.Extra)
	if opts.RunID != "" {
		h.RunID = opts.RunID
	} else {
		h.RunID = "merged-" + heads[0].RunID
	}
	var infos []Info
	end := &record.End{Complete: true}
	var reasons []string
	skipped := map[string]int{}
	for i, sh := range heads {
		if sh.Start.Before(h.Start) {
			h.Start = sh.Start
		}
		if !sh.Preflight.Valid && h.Preflight.Valid {
			h.Preflight = sh.Preflight
		}
		info := Info{K: sh.Shard.K, N: sh.Shard.N, RunID: sh.RunID, Start: sh.Start}
		switch e := ends[i]; {
		case e == nil:
			end.Complete = false
			reasons = append(reasons, fmt.Sprintf("shard %d/%d did not finish", sh.Shard.K, sh.Shard.N))
		default:
			info.Finish = e.Finish
			if e.Finish.After(end.Finish) {
				end.Finish = e.Finish
			}
			if !e.Complete {
				end.Complete = false
				why := e.Reason
				if why == "" {
					why = "incomplete"
				}
				reasons = append(reasons, fmt.Sprintf("shard %d/%d: %s", sh.Shard.K, sh.Shard.N, why))
			}
			for k, v := range e.Skipped {
				skipped[k] += v
			}
		}
		infos = append(infos, info)
	}
	if !h.Preflight.Valid {
		end.Complete = false
		reasons = append([]string{"invalid"}, reasons...)
	}
	if end.Finish.IsZero() {
		end.Finish = opts.Now().UTC()
	}
	end.Reason = strings.Join(reasons, "; ")
	if len(skipped) > 0 {
		end.Skipped = skipped
	}
	b, err := json.Marshal(infos)
	if err != nil {
		return record.Header{}, nil, fmt.Errorf("encoding shard list: %w", err)
	}
	h.Extra["shards"] = b
	return h, end, nil
}

// write writes the merged record into dir: h, then the attempt get
// returns for each planned attempt (nil for one never made), one at a
// time, then end. It returns how many attempts it wrote.
func write(dir string, h *record.Header, end *record.End, plan []record.Planned, get func(record.AttemptKey) (*record.Attempt, error)) (int, error) {
	w, err := record.Create(dir, h)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range plan {
		a, err := get(p.Key())
		if err == nil && a != nil {
			err = w.Attempt(a)
			n++
		}
		if err != nil {
			w.Close()
			return n, err
		}
	}
	if err := w.End(end); err != nil {
		return n, err
	}
	return n, nil
}

// Shards returns the shard list a merged record's header carries, or nil.
func Shards(h *record.Header) []Info {
	var infos []Info
	if raw, ok := h.Extra["shards"]; ok {
		json.Unmarshal(raw, &infos)
	}
	return infos
}

func cloneExtra(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func name(s *record.Run) string {
	label := s.Dir
	if label == "" {
		label = s.Header.RunID
	}
	if sh := s.Header.Shard; sh != nil {
		return fmt.Sprintf("%s (shard %d/%d)", label, sh.K, sh.N)
	}
	return label
}

func clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}
