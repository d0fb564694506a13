package shard

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

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
	if len(shards) == 0 {
		return nil, nil, errors.New("no shards to merge")
	}
	for _, s := range shards {
		if s.Header.Shard == nil {
			return nil, nil, fmt.Errorf("%s is not a shard's record (it was not run with --shard K/N)", name(s))
		}
	}
	n := shards[0].Header.Shard.N
	byK := map[int]*record.Run{}
	for _, s := range shards {
		sh := s.Header.Shard
		if sh.N != n {
			return nil, nil, fmt.Errorf("%s is shard %d/%d but %s is shard %d/%d: shards of one run are cut the same number of ways", name(s), sh.K, sh.N, name(shards[0]), shards[0].Header.Shard.K, n)
		}
		if sh.K < 1 || sh.K > sh.N {
			return nil, nil, fmt.Errorf("%s claims to be shard %d/%d, which does not exist", name(s), sh.K, sh.N)
		}
		if prev, dup := byK[sh.K]; dup {
			return nil, nil, fmt.Errorf("shard %d/%d is given twice (%s and %s): shards must not overlap", sh.K, n, name(prev), name(s))
		}
		byK[sh.K] = s
	}
	var missing []string
	for k := 1; k <= n; k++ {
		if byK[k] == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("missing shard%s %s: a merged run needs all %d shards", plural(len(missing)), strings.Join(missing, ", "), n)
	}
	ordered := make([]*record.Run, n)
	for k, s := range byK {
		ordered[k-1] = s
	}
	first := Provenance(&ordered[0].Header)
	for _, s := range ordered[1:] {
		for i, f := range Provenance(&s.Header) {
			if f.Value != first[i].Value {
				return nil, nil, fmt.Errorf("%s and %s differ in %s (%q, %q): they are not shards of the same run", name(ordered[0]), name(s), f.Name, clip(first[i].Value), clip(f.Value))
			}
		}
	}
	// Shard K holds plan[i] for i % n == K-1, in order: interleave them back.
	total := 0
	for _, s := range ordered {
		total += len(s.Header.Planned)
	}
	for k, s := range ordered {
		want := (total - k + n - 1) / n
		if len(s.Header.Planned) != want {
			return nil, nil, fmt.Errorf("%s plans %d attempts, but the %d attempts of all shards split %d ways give shard %d/%d %d: the shards were not cut from the same plan", name(s), len(s.Header.Planned), total, n, k+1, n, want)
		}
	}
	plan := make([]record.Planned, total)
	seen := map[record.Planned]bool{}
	for i := range plan {
		p := ordered[i%n].Header.Planned[i/n]
		if seen[p] {
			return nil, nil, fmt.Errorf("attempt %s #%d is planned by more than one shard: the shards overlap", p.Case, p.N)
		}
		seen[p] = true
		plan[i] = p
	}
	for _, s := range ordered {
		own := map[record.Planned]bool{}
		for _, p := range s.Header.Planned {
			own[p] = true
		}
		for _, a := range s.Attempts {
			if !own[record.Planned{Case: a.Case, N: a.N}] {
				return nil, nil, fmt.Errorf("%s records attempt %s #%d, which it did not plan", name(s), a.Case, a.N)
			}
		}
	}
	return ordered, plan, nil
}

// Merge checks shards (see Check) and writes one run record into dir
// holding every attempt of every shard, in plan order, under a header
// with the shards' shared provenance and the whole plan. The merged run
// is complete when every shard is, and invalid when any shard's preflight
// failed. It returns the merged record as read back.
func Merge(dir string, shards []*record.Run, opts Options) (*record.Run, error) {
	ordered, plan, err := Check(shards)
	if err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := ordered[0].Header
	h.Shard = nil
	h.Planned = plan
	h.Extra = cloneExtra(h.Extra)
	if opts.RunID != "" {
		h.RunID = opts.RunID
	} else {
		h.RunID = "merged-" + ordered[0].Header.RunID
	}
	var infos []Info
	end := &record.End{Complete: true}
	var reasons []string
	skipped := map[string]int{}
	for _, s := range ordered {
		sh := s.Header
		if sh.Start.Before(h.Start) {
			h.Start = sh.Start
		}
		if !sh.Preflight.Valid && h.Preflight.Valid {
			h.Preflight = sh.Preflight
		}
		info := Info{K: sh.Shard.K, N: sh.Shard.N, RunID: sh.RunID, Start: sh.Start}
		switch {
		case s.End == nil:
			end.Complete = false
			reasons = append(reasons, fmt.Sprintf("shard %d/%d did not finish", sh.Shard.K, sh.Shard.N))
		default:
			info.Finish = s.End.Finish
			if s.End.Finish.After(end.Finish) {
				end.Finish = s.End.Finish
			}
			if !s.End.Complete {
				end.Complete = false
				why := s.End.Reason
				if why == "" {
					why = "incomplete"
				}
				reasons = append(reasons, fmt.Sprintf("shard %d/%d: %s", sh.Shard.K, sh.Shard.N, why))
			}
			for k, v := range s.End.Skipped {
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
		return nil, fmt.Errorf("encoding shard list: %w", err)
	}
	h.Extra["shards"] = b

	byKey := map[record.Planned]*record.Attempt{}
	for _, s := range ordered {
		for i := range s.Attempts {
			a := &s.Attempts[i]
			byKey[record.Planned{Case: a.Case, N: a.N}] = a
		}
	}
	w, err := record.Create(dir, &h)
	if err != nil {
		return nil, err
	}
	for _, p := range plan {
		if a := byKey[p]; a != nil {
			if err := w.Attempt(a); err != nil {
				w.Close()
				return nil, err
			}
		}
	}
	if err := w.End(end); err != nil {
		return nil, err
	}
	return record.Read(dir)
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

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
