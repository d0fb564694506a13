package view

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/corpus"
)

// readOnlyRefusal is what a server started read-only answers a write.
const readOnlyRefusal = "the viewer was started with --read-only: it writes nothing (no reviews, no verified cases)"

// acceptPost reads a form posted to the viewer and lets it through only
// from the viewer's own pages (sameOrigin) and when the viewer may write:
// every handler that changes a file goes through it, so none can forget a
// check. Refusals say what was being done (reading, refused).
func (s *Server) acceptPost(w http.ResponseWriter, r *http.Request, reading, refused string) (url.Values, bool) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.fail(w, http.StatusBadRequest, reading+": "+err.Error())
		return nil, false
	}
	if err := s.sameOrigin(r); err != nil {
		s.fail(w, http.StatusForbidden, refused+": "+err.Error())
		return nil, false
	}
	if s.opts.ReadOnly {
		s.fail(w, http.StatusForbidden, refused+": "+readOnlyRefusal)
		return nil, false
	}
	return r.PostForm, true
}

// verifyPost marks the drafted case of an attempt (verified: false)
// checked by the reviewer, in its suite file, as "mcpeval review
// --verify" does.
func (s *Server) verifyPost(w http.ResponseWriter, r *http.Request) {
	f, ok := s.acceptPost(w, r, "reading the request", "verify refused")
	if !ok {
		return
	}
	reviewer := strings.TrimSpace(f.Get("reviewer"))
	switch {
	case reviewer == "":
		s.fail(w, http.StatusBadRequest, "verify refused: name who checked the case")
		return
	case f.Get("checked") == "":
		s.fail(w, http.StatusBadRequest, "verify refused: say that you checked the case's prompt and key")
		return
	}
	n, _ := strconv.Atoi(f.Get("n"))
	caseID := f.Get("case")

	s.reviewing.Lock()
	defer s.reviewing.Unlock()
	run := s.store.get(f.Get("run"))
	switch {
	case run == nil:
		s.fail(w, http.StatusNotFound, "no run "+f.Get("run"))
		return
	case run.Suite == nil:
		s.fail(w, http.StatusConflict, "verify refused: the run's suite could not be loaded: "+run.SuiteErr)
		return
	}
	v, err := corpus.Verify(run.Suite, caseID, reviewer, time.Now())
	if err != nil {
		s.fail(w, http.StatusConflict, "verify refused: "+err.Error())
		return
	}
	s.store.forgetSuiteFile(v.File)
	u := attemptURL(run.Key, caseID, n) + "&" + url.Values{"verified": {fmt.Sprintf("%s:%d", v.File, v.Line)}}.Encode()
	http.Redirect(w, r, u, http.StatusSeeOther)
}
