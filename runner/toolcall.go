package runner

// onlyToolCalls reports whether every case cfg selects (by case filter and
// dataset) is a tool-call case. Nothing a model calls executes in a
// tool-call case, so showing it write tools writes nothing: the read-only
// guard does not apply to such a run.
func onlyToolCalls(cfg Config) bool {
	if cfg.Suite == nil || cfg.Resume != nil {
		return false
	}
	plan := Plan(cfg.Suite, 1, cfg.Cases)
	if cfg.Dataset != "" {
		plan = filterDataset(cfg.Suite, plan, cfg.Dataset)
	}
	for _, p := range plan {
		if c := cfg.Suite.Case(p.Case); c == nil || !c.IsToolCall() {
			return false
		}
	}
	return len(plan) > 0
}
