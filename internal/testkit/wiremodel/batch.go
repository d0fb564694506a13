package wiremodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Batches acts as a provider's batch API over its documented wire format,
// answering each request of a batch as Model (a Handler of the same API)
// answers it sent alone, refusals included:
//
//   - Anthropic's Message Batches API: POST /v1/messages/batches, GET
//     /v1/messages/batches/ID, and the JSONL of GET results_url
//     (/v1/messages/batches/ID/results), each line's result succeeded,
//     errored (with the Messages API's error body), canceled or expired.
//   - OpenAI's Batch API: POST /v1/files (multipart, purpose=batch, a
//     JSONL of {custom_id, method, url, body}), POST /v1/batches, GET
//     /v1/batches/ID, and GET /v1/files/ID/content for the output file
//     (answers with status 200) and the error file (the others, and
//     batch_expired).
//
// A batch moves on only when it is polled: each poll ends PerPoll more of
// its requests (all of them when PerPoll is 0), so a test decides how
// many polls a batch takes. ExpireAt makes a batch expire at its nth poll,
// its requests not yet ended expired. Faults apply to the batch API's own
// requests in the order they arrive (Model's Faults to the requests it
// answers). Mount it on an httptest.Server as the provider's base URL: it
// passes requests to the ordinary API on to Model.
type Batches struct {
	// Model answers each request of a batch. Its API is the batch API's.
	Model *Handler
	// Faults are applied to the first len(Faults) requests.
	Faults []Fault
	// PerPoll is how many requests of a batch end at each poll; 0 ends
	// them all at the first.
	PerPoll int
	// ExpireAt, when positive, makes every batch expire at its nth poll.
	ExpireAt int

	mu       sync.Mutex
	requests []Request
	batches  map[string]*standInBatch
	files    map[string][]byte
	ids      int
}

// standInBatch is one batch and how far it has come.
type standInBatch struct {
	id      string
	created time.Time
	polls   int
	reqs    []batchItem // in the order submitted
	results []batchDone // in the order they ended
	expired bool
	input   string // OpenAI: the input file
	output  string // OpenAI: the output and error files, once ended
	errors  string
}

// batchItem is one request of a batch: its custom_id and body.
type batchItem struct {
	id   string
	body json.RawMessage
}

// batchDone is how one request ended: the answer's status and body, or
// expired.
type batchDone struct {
	id      string
	status  int
	body    json.RawMessage
	expired bool
}

// NewBatches returns a batch API for model's wire format (Anthropic or
// OpenAI).
func NewBatches(model *Handler) *Batches { return &Batches{Model: model} }

// Requests returns a copy of every request the batch API received (not
// those Model answered).
func (b *Batches) Requests() []Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Request(nil), b.requests...)
}

// Count returns how many requests with method had path, or a path under
// it when path ends in "/".
func (b *Batches) Count(method, path string) int {
	n := 0
	for _, r := range b.Requests() {
		if r.Method == method && (r.Path == path || strings.HasSuffix(path, "/") && strings.HasPrefix(r.Path, path)) {
			n++
		}
	}
	return n
}

// ServeHTTP answers one request of the batch API; a request to the
// ordinary API (POST /v1/messages, POST /v1/chat/completions) goes to
// Model, as a provider serves both at one address.
func (b *Batches) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p := r.URL.Path; p == "/v1/messages" || p == "/v1/chat/completions" {
		b.Model.ServeHTTP(w, r)
		return
	}
	body, err := readBody(r)
	fault, rw, end := receive(&b.mu, &b.requests, &b.Faults, w, r, body)
	defer end()
	h := b.Model
	if err != nil {
		h.fail(rw, http.StatusBadRequest, "invalid_request_error", "reading the body: "+err.Error())
		return
	}
	if fault != nil && h.applyFault(rw, *fault) {
		return
	}
	if !h.checkKey(r) {
		p := h.problemOf(http.StatusUnauthorized)
		h.fail(rw, http.StatusUnauthorized, p.kind, p.msg)
		return
	}
	switch h.API {
	case Anthropic:
		b.serveAnthropic(rw, r, body)
	case OpenAI:
		b.serveOpenAI(rw, r, body)
	default:
		http.Error(rw, "wiremodel: no batch API for "+string(h.API), http.StatusInternalServerError)
	}
}

func (b *Batches) nextID() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ids++
	return b.ids
}

// batch returns the batch with id, or nil.
func (b *Batches) batch(id string) *standInBatch {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.batches[id]
}

func (b *Batches) add(bt *standInBatch) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.batches == nil {
		b.batches = map[string]*standInBatch{}
	}
	b.batches[bt.id] = bt
}

// poll moves bt on by one poll: it expires at ExpireAt, else PerPoll more
// of its requests end, each answered by Model at path with header.
func (b *Batches) poll(bt *standInBatch, path string, header http.Header) {
	b.mu.Lock()
	if bt.ended() {
		b.mu.Unlock()
		return
	}
	bt.polls++
	if b.ExpireAt > 0 && bt.polls >= b.ExpireAt {
		for _, it := range bt.reqs[len(bt.results):] {
			bt.results = append(bt.results, batchDone{id: it.id, expired: true})
		}
		bt.expired = true
		b.mu.Unlock()
		return
	}
	todo := bt.reqs[len(bt.results):]
	if b.PerPoll > 0 && len(todo) > b.PerPoll {
		todo = todo[:b.PerPoll]
	}
	b.mu.Unlock()
	var done []batchDone
	for _, it := range todo {
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(it.body))
		req.Header = header.Clone()
		rec := httptest.NewRecorder()
		b.Model.ServeHTTP(rec, req)
		done = append(done, batchDone{id: it.id, status: rec.Code, body: bytes.TrimSpace(rec.Body.Bytes())})
	}
	b.mu.Lock()
	bt.results = append(bt.results, done...)
	b.mu.Unlock()
}

// forward is the header a batched request is answered with: the poll's
// own (its key and API version), as a JSON request.
func forward(h http.Header) http.Header {
	out := h.Clone()
	out.Del("Content-Length")
	out.Set("Content-Type", "application/json")
	return out
}

func (bt *standInBatch) ended() bool { return bt.expired || len(bt.results) == len(bt.reqs) }

// counts returns how many requests succeeded, errored and expired so far.
func (bt *standInBatch) counts() (ok, errored, expired int) {
	for _, d := range bt.results {
		switch {
		case d.expired:
			expired++
		case d.status == http.StatusOK:
			ok++
		default:
			errored++
		}
	}
	return
}

// The Message Batches API.

func (b *Batches) serveAnthropic(w *statusWriter, r *http.Request, body []byte) {
	h := b.Model
	if r.Header.Get("Anthropic-Version") == "" {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", "anthropic-version: header is required")
		return
	}
	const root = "/v1/messages/batches"
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && p == root:
		b.antCreate(w, r, body)
	case r.Method == http.MethodGet && strings.HasPrefix(p, root+"/") && strings.HasSuffix(p, "/results"):
		b.antResults(w, strings.TrimSuffix(strings.TrimPrefix(p, root+"/"), "/results"))
	case r.Method == http.MethodGet && strings.HasPrefix(p, root+"/") && !strings.Contains(p[len(root)+1:], "/"):
		bt := b.batch(p[len(root)+1:])
		if bt == nil {
			h.fail(w, http.StatusNotFound, "not_found_error", "The requested resource could not be found.")
			return
		}
		b.poll(bt, "/v1/messages", forward(r.Header))
		h.writeJSON(w, b.antBatch(bt, r))
	default:
		h.fail(w, http.StatusNotFound, "not_found_error", "Not Found")
	}
}

var customIDRE = toolNameRE // the same rule: [a-zA-Z0-9_-]{1,64}

func (b *Batches) antCreate(w *statusWriter, r *http.Request, body []byte) {
	h := b.Model
	var in struct {
		Requests []struct {
			CustomID string          `json:"custom_id"`
			Params   json.RawMessage `json:"params"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("There was an error parsing the body: %v", err))
		return
	}
	if len(in.Requests) == 0 {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", "requests: List should have at least 1 item after validation, not 0")
		return
	}
	bt := &standInBatch{created: time.Now().UTC()}
	seen := map[string]bool{}
	for i, rq := range in.Requests {
		switch {
		case !customIDRE.MatchString(rq.CustomID):
			h.fail(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("requests.%d.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", i))
			return
		case seen[rq.CustomID]:
			h.fail(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("Duplicate custom_id: %s", rq.CustomID))
			return
		case len(bytes.TrimSpace(rq.Params)) == 0 || rq.Params[0] != '{':
			h.fail(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("requests.%d.params: Field required", i))
			return
		}
		seen[rq.CustomID] = true
		bt.reqs = append(bt.reqs, batchItem{id: rq.CustomID, body: rq.Params})
	}
	bt.id = fmt.Sprintf("msgbatch_wm%06d", b.nextID())
	b.add(bt)
	h.writeJSON(w, b.antBatch(bt, r))
}

// antBatch is a MessageBatch object.
func (b *Batches) antBatch(bt *standInBatch, r *http.Request) map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	ok, errored, expired := bt.counts()
	out := map[string]any{
		"id":                  bt.id,
		"type":                "message_batch",
		"processing_status":   "in_progress",
		"request_counts":      map[string]any{"processing": len(bt.reqs) - len(bt.results), "succeeded": ok, "errored": errored, "canceled": 0, "expired": expired},
		"created_at":          bt.created.Format(time.RFC3339),
		"expires_at":          bt.created.Add(24 * time.Hour).Format(time.RFC3339),
		"ended_at":            nil,
		"archived_at":         nil,
		"cancel_initiated_at": nil,
		"results_url":         nil,
	}
	if bt.ended() {
		out["processing_status"] = "ended"
		out["ended_at"] = time.Now().UTC().Format(time.RFC3339)
		out["results_url"] = "http://" + r.Host + "/v1/messages/batches/" + bt.id + "/results"
	}
	return out
}

func (b *Batches) antResults(w *statusWriter, id string) {
	h := b.Model
	bt := b.batch(id)
	if bt == nil {
		h.fail(w, http.StatusNotFound, "not_found_error", "The requested resource could not be found.")
		return
	}
	b.mu.Lock()
	if !bt.ended() {
		b.mu.Unlock()
		h.fail(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("Message Batch %s has not yet ended. Results are available once processing has ended.", id))
		return
	}
	var out bytes.Buffer
	for _, d := range bt.results {
		var result any
		switch {
		case d.expired:
			result = map[string]any{"type": "expired"}
		case d.status == http.StatusOK:
			result = map[string]any{"type": "succeeded", "message": d.body}
		default:
			result = map[string]any{"type": "errored", "error": d.body}
		}
		line, _ := json.Marshal(map[string]any{"custom_id": d.id, "result": result})
		out.Write(line)
		out.WriteByte('\n')
	}
	b.mu.Unlock()
	w.Header().Set("Content-Type", "application/binary")
	w.WriteHeader(http.StatusOK)
	w.Write(out.Bytes())
}

// The Batch API.

func (b *Batches) serveOpenAI(w *statusWriter, r *http.Request, body []byte) {
	h := b.Model
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && p == "/v1/files":
		b.oaUpload(w, r, body)
	case r.Method == http.MethodGet && strings.HasPrefix(p, "/v1/files/") && strings.HasSuffix(p, "/content"):
		id := strings.TrimSuffix(strings.TrimPrefix(p, "/v1/files/"), "/content")
		b.mu.Lock()
		data, ok := b.files[id]
		b.mu.Unlock()
		if !ok {
			h.fail(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("No such File object: %s", id))
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(http.StatusOK)
		w.Write(data)
	case r.Method == http.MethodPost && p == "/v1/batches":
		b.oaCreate(w, body)
	case r.Method == http.MethodGet && strings.HasPrefix(p, "/v1/batches/") && !strings.Contains(p[len("/v1/batches/"):], "/"):
		bt := b.batch(p[len("/v1/batches/"):])
		if bt == nil {
			h.fail(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("No batch found with id '%s'.", p[len("/v1/batches/"):]))
			return
		}
		b.poll(bt, "/v1/chat/completions", forward(r.Header))
		h.writeJSON(w, b.oaBatch(bt))
	default:
		h.fail(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("Invalid URL (%s %s)", r.Method, p))
	}
}

// oaUpload takes a batch input file: multipart with purpose=batch and a
// JSONL file of requests.
func (b *Batches) oaUpload(w *statusWriter, r *http.Request, body []byte) {
	h := b.Model
	bad := func(msg string) { h.fail(w, http.StatusBadRequest, "invalid_request_error", msg) }
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		bad("Expected a multipart/form-data request.")
		return
	}
	form, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(256 << 20)
	if err != nil {
		bad("Could not parse multipart form: " + err.Error())
		return
	}
	if p := form.Value["purpose"]; len(p) != 1 || p[0] != "batch" {
		bad(fmt.Sprintf("'%s' is not one of ['fine-tune', 'assistants', 'batch', 'user_data', 'responses', 'vision', 'evals'] - 'purpose'", strings.Join(p, ",")))
		return
	}
	fhs := form.File["file"]
	if len(fhs) != 1 {
		bad("Missing required parameter: 'file'.")
		return
	}
	f, err := fhs[0].Open()
	if err != nil {
		bad(err.Error())
		return
	}
	defer f.Close()
	var data bytes.Buffer
	data.ReadFrom(f)
	for i, line := range bytes.Split(bytes.TrimSpace(data.Bytes()), []byte("\n")) {
		var l batchLine
		if err := json.Unmarshal(line, &l); err != nil || l.CustomID == "" || len(l.Body) == 0 || l.Body[0] != '{' {
			bad(fmt.Sprintf("Invalid batch input file: line %d is not a request object with custom_id, method, url and body.", i+1))
			return
		}
	}
	id := fmt.Sprintf("file-wm%06d", b.nextID())
	b.mu.Lock()
	if b.files == nil {
		b.files = map[string][]byte{}
	}
	b.files[id] = data.Bytes()
	b.mu.Unlock()
	h.writeJSON(w, map[string]any{
		"id": id, "object": "file", "bytes": data.Len(), "created_at": time.Now().Unix(),
		"filename": fhs[0].Filename, "purpose": "batch", "status": "processed", "expires_at": nil, "status_details": nil,
	})
}

// batchLine is one line of an OpenAI batch input file.
type batchLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

func (b *Batches) oaCreate(w *statusWriter, body []byte) {
	h := b.Model
	bad := func(msg string) { h.fail(w, http.StatusBadRequest, "invalid_request_error", msg) }
	var in struct {
		InputFileID      string `json:"input_file_id"`
		Endpoint         string `json:"endpoint"`
		CompletionWindow string `json:"completion_window"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		bad(fmt.Sprintf("We could not parse the JSON body of your request. (%v)", err))
		return
	}
	if in.CompletionWindow != "24h" {
		bad(fmt.Sprintf("Invalid value for 'completion_window': '%s'. Supported values are: '24h'.", in.CompletionWindow))
		return
	}
	if in.Endpoint != "/v1/chat/completions" {
		bad(fmt.Sprintf("Invalid value for 'endpoint': '%s'.", in.Endpoint))
		return
	}
	b.mu.Lock()
	data, ok := b.files[in.InputFileID]
	b.mu.Unlock()
	if !ok {
		h.fail(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("No such File object: %s", in.InputFileID))
		return
	}
	bt := &standInBatch{created: time.Now().UTC(), input: in.InputFileID}
	seen := map[string]bool{}
	for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var l batchLine
		json.Unmarshal(line, &l)
		switch {
		case l.Method != http.MethodPost || l.URL != in.Endpoint:
			bad(fmt.Sprintf("Line %d: the request's method and url must be POST %s, the batch's endpoint.", i+1, in.Endpoint))
			return
		case seen[l.CustomID]:
			bad(fmt.Sprintf("Line %d: the custom_id %s is not unique in the file.", i+1, l.CustomID))
			return
		}
		seen[l.CustomID] = true
		bt.reqs = append(bt.reqs, batchItem{id: l.CustomID, body: l.Body})
	}
	bt.id = fmt.Sprintf("batch_wm%06d", b.nextID())
	b.add(bt)
	h.writeJSON(w, b.oaBatch(bt))
}

// oaBatch is a Batch object; an ended batch gets its output and error
// files.
func (b *Batches) oaBatch(bt *standInBatch) map[string]any {
	b.mu.Lock()
	ok, errored, expired := bt.counts()
	status := "in_progress"
	if bt.polls == 0 {
		status = "validating"
	}
	ended := bt.ended()
	b.mu.Unlock()
	if ended {
		status = "completed"
		if bt.expired {
			status = "expired"
		}
		b.oaFiles(bt)
	}
	b.mu.Lock()
	output, errFile, polls := bt.output, bt.errors, bt.polls
	b.mu.Unlock()
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	now := time.Now().Unix()
	out := map[string]any{
		"id": bt.id, "object": "batch", "endpoint": "/v1/chat/completions", "errors": nil,
		"input_file_id": bt.input, "completion_window": "24h", "status": status,
		"output_file_id": null(output), "error_file_id": null(errFile),
		"created_at": bt.created.Unix(), "in_progress_at": nil, "expires_at": bt.created.Add(24 * time.Hour).Unix(),
		"finalizing_at": nil, "completed_at": nil, "failed_at": nil, "expired_at": nil, "cancelling_at": nil, "cancelled_at": nil,
		"request_counts": map[string]any{"total": len(bt.reqs), "completed": ok, "failed": errored + expired},
		"metadata":       nil,
	}
	if polls > 0 {
		out["in_progress_at"] = bt.created.Unix()
	}
	switch status {
	case "completed":
		out["finalizing_at"], out["completed_at"] = now, now
	case "expired":
		out["expired_at"] = now
	}
	return out
}

// oaFiles writes an ended batch's output file (answers with status 200)
// and error file (the others), once.
func (b *Batches) oaFiles(bt *standInBatch) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if bt.output != "" || bt.errors != "" {
		return
	}
	var out, errs bytes.Buffer
	for i, d := range bt.results {
		l := map[string]any{"id": fmt.Sprintf("batch_req_wm%06d", i+1), "custom_id": d.id, "response": nil, "error": nil}
		dst := &errs
		switch {
		case d.expired:
			l["error"] = map[string]any{"code": "batch_expired", "message": "This request could not be executed before the completion window expired."}
		default:
			l["response"] = map[string]any{"status_code": d.status, "request_id": fmt.Sprintf("req_wm%06d", i+1), "body": d.body}
			if d.status == http.StatusOK {
				dst = &out
			}
		}
		line, _ := json.Marshal(l)
		dst.Write(line)
		dst.WriteByte('\n')
	}
	if b.files == nil {
		b.files = map[string][]byte{}
	}
	b.ids++
	if out.Len() > 0 {
		bt.output = fmt.Sprintf("file-wm%06d", b.ids)
		b.files[bt.output] = out.Bytes()
	}
	b.ids++
	if errs.Len() > 0 {
		bt.errors = fmt.Sprintf("file-wm%06d", b.ids)
		b.files[bt.errors] = errs.Bytes()
	}
}

// ValidCustomID reports whether id is a custom_id the Message Batches API
// accepts: 1 to 64 of [a-zA-Z0-9_-] (OpenAI's Batch API takes any).
func ValidCustomID(id string) bool { return customIDRE.MatchString(id) }
