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

// verifyPost marks the drafted case of an attempt (verified: false)
// checked by the reviewer, in its suite file, as "mcpeval review
// --verify" does.
func (s *Server) verifyPost(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.fail(w, http.StatusBadRequest, "reading the request: "+err.Error())
		return
	}
	if err := s.sameOrigin(r); err != nil {
		s.fail(w, http.StatusForbidden, "verify refused: "+err.Error())
		return
	}
	if s.opts.ReadOnly {
		s.fail(w, http.StatusForbidden, "verify refused: "+readOnlyRefusal)
		return
	}
	f := r.PostForm
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
