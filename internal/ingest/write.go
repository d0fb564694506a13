package ingest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// UnmatchedFile is the file of a run directory that lists, one JSON object
// a line, the conversations mcpeval import matched to no case.
const UnmatchedFile = "unmatched.jsonl"

// Run says what an imported run is made of.
type Run struct {
	// Dir is the run directory to create.
	Dir   string
	RunID string
	Now   time.Time
	Build record.Build
	// Suite is the suite the conversations were matched against, read
	// from SuitePath.
	Suite     *suite.Suite
	SuitePath string
	// From says what was imported ("otlp FILE", "langfuse HOST", ...),
	// kept as the target's spec.
	From string
}

// Write writes res as a run: a record whose header says it holds
// imported traffic (record.SourceImported) and starts when the first
// matched conversation did (Now when none says), with each matched attempt,
// and UnmatchedFile with the rest. models are the conversations' models,
// for the header: the one they share, or "mixed".
func (r Run) Write(res *Result, models []model.Info) error {
	h := &record.Header{
		Format: record.Format, RunID: r.RunID, Start: r.Now.UTC(), Tool: r.Build, Source: record.SourceImported,
		Model:  sharedModel(models),
		Suite:  record.SuiteInfo{Name: r.Suite.Name, Path: r.SuitePath, Hash: r.Suite.Hash, Cases: len(r.Suite.Cases)},
		Target: record.TargetInfo{Spec: r.From}, SystemPrompt: r.Suite.SystemPrompt,
		Attempts: 1, Concurrency: 1, Preflight: record.Preflight{Valid: true},
	}
	h.Suite.SetPaths(r.Dir)
	// The run started when its first conversation did.
	for _, a := range res.Attempts {
		if !a.Start.IsZero() && a.Start.Before(h.Start) {
			h.Start = a.Start.UTC()
		}
	}
	for _, a := range res.Attempts {
		h.Planned = append(h.Planned, record.Planned{Case: a.Case, N: a.N})
	}
	w, err := record.Create(r.Dir, h)
	if err != nil {
		return err
	}
	for i := range res.Attempts {
		if err := w.Attempt(&res.Attempts[i]); err != nil {
			w.Close()
			return err
		}
	}
	if err := w.End(&record.End{Finish: r.Now.UTC(), Complete: true}); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return writeUnmatched(filepath.Join(r.Dir, UnmatchedFile), res.Unmatched)
}

func writeUnmatched(path string, un []Unmatched) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing the unmatched conversations: %w", err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, u := range un {
		if err := enc.Encode(u); err != nil {
			f.Close()
			return fmt.Errorf("writing the unmatched conversations: %w", err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the unmatched conversations: %w", err)
	}
	return nil
}

// sharedModel is the model every conversation names, or "mixed" when they
// name several ("unknown" when none does).
func sharedModel(models []model.Info) model.Info {
	var m model.Info
	for _, x := range models {
		if x.Name == "" {
			continue
		}
		if m.Name != "" && (x.Name != m.Name || x.Provider != m.Provider) {
			return model.Info{Name: "mixed", Spec: "mixed"}
		}
		m = model.Info{Provider: x.Provider, Name: x.Name}
	}
	if m.Name == "" {
		return model.Info{Name: "unknown", Spec: "unknown"}
	}
	m.Spec = m.Name
	if m.Provider != "" {
		m.Spec = m.Provider + ":" + m.Name
	}
	return m
}
