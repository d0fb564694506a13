package runner

import "sync"

// StoppedEarly begins the reason a run ended (record.End.Reason, and the
// key its skipped attempts are counted under) when a stop rule given to
// StopWhen decided before every planned attempt had run.
const StoppedEarly = "stopped early"

// StopWhen makes a run with cfg ask decide about every finished attempt,
// once it is recorded (with the Progress cfg.Progress is told of). Once
// decide returns a reason, no further attempt starts: the attempts in
// flight finish and are recorded, and the run ends incomplete with the
// reason "stopped early: " and decide's answer. decide is called from one
// goroutine at a time and is not asked again once it has answered.
// cfg.Progress and cfg.BeforeAttempt, when set, are still called; a
// sampling request an attempt in flight gets after the decision is refused
// as BeforeAttempt refuses it.
func StopWhen(cfg *Config, decide func(Progress) string) {
	var mu sync.Mutex
	why := ""
	progress, before := cfg.Progress, cfg.BeforeAttempt
	cfg.Progress = func(p Progress) {
		if progress != nil {
			progress(p)
		}
		mu.Lock()
		defer mu.Unlock()
		if why == "" {
			if s := decide(p); s != "" {
				why = StoppedEarly + ": " + s
			}
		}
	}
	cfg.BeforeAttempt = func() string {
		mu.Lock()
		s := why
		mu.Unlock()
		if s == "" && before != nil {
			return before()
		}
		return s
	}
}
