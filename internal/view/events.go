package view

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// liveRun is what a live page learns of a run as it gains attempts.
type liveRun struct {
	Key      string `json:"key"`
	Status   string `json:"status"`
	Attempts int    `json:"attempts"`
	Planned  int    `json:"planned"`
	// Rate is the running pass rate and count: "75% 3/4".
	Rate     string `json:"rate"`
	Reviewed string `json:"reviewed"`
}

// events streams server-sent events: each time a run changes (an attempt
// lands, the run ends, a review is written), one "runs" event with every
// run's progress, or only run ?run= when given.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported", http.StatusInternalServerError)
		return
	}
	only := r.URL.Query().Get("run")
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 2000\n\n")
	fl.Flush()
	last := ""
	tick := time.NewTicker(s.opts.Poll)
	defer tick.Stop()
	for {
		var list []liveRun
		for _, run := range s.store.all() {
			if only != "" && run.Key != only {
				continue
			}
			row := summarize(run)
			lr := liveRun{Key: run.Key, Status: row.Status, Attempts: row.Attempts, Planned: row.Planned}
			if run.RV != nil {
				lr.Rate = counts(run.RV.AsGraded)
				lr.Reviewed = row.Reviewed
			}
			list = append(list, lr)
		}
		b, _ := json.Marshal(list)
		if string(b) != last {
			last = string(b)
			if _, err := fmt.Fprintf(w, "event: runs\ndata: %s\n\n", b); err != nil {
				return
			}
			fl.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}
