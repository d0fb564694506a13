// Package wiremodel provides http.Handlers that act as a model over the real
// wire formats of the providers mcpeval speaks: Anthropic's Messages API
// (POST /v1/messages), OpenAI's chat completions (POST
// /v1/chat/completions, or Azure OpenAI's POST
// /openai/deployments/NAME/chat/completions?api-version=V with an api-key
// header), Google's generateContent (the Gemini API's POST
// /v1beta/models/NAME:generateContent with x-goog-api-key, or Vertex AI's
// /v1beta1/projects/P/locations/L/publishers/google/models/NAME:generateContent
// with a bearer token; the first call of a turn carries a thought signature
// that must come back) and Amazon Bedrock's Converse (POST
// /model/ID/converse, refused without a well-formed SigV4 signature). Mount
// one on an httptest.Server and point the provider's base URL at it
// (ANTHROPIC_BASE_URL=srv.URL, OPENAI_BASE_URL=srv.URL+"/v1",
// GOOGLE_GEMINI_BASE_URL=srv.URL, AWS_ENDPOINT_URL_BEDROCK_RUNTIME=srv.URL,
// AZURE_OPENAI_ENDPOINT=srv.URL).
//
// The model they act as answers correctly from a suite's key, as fake:perfect
// does: it finds the case by the conversation's first user message (the
// case's prompt), then replays Key.Calls one per turn (or all in the first
// turn, with Parallel) under the tool names the request offers on the wire,
// and then gives Key.Answer (or fake.PerfectAnswer's text when the key has
// none). The probe's prompt (package model/probe) is answered too.
//
// Like the real APIs, the handlers refuse what the real APIs refuse, with
// their error bodies: a request without a model or max_tokens, a tool name
// outside [a-zA-Z0-9_-]{1,64}, a tool_use (tool_calls) not answered by a
// tool result in the next message, a tool result answering no call, a wrong
// API key (when Handler.APIKey is set), a stream request; and with Anthropic
// thinking enabled, an assistant turn whose thinking block did not come back
// with its signature intact. Usage is counted as bytes/4 and reports prompt
// caching: the first request with a given system-and-tools prefix writes it
// (Anthropic: only when the request marks it with cache_control), later ones
// read it.
//
// Faults are applied to the first len(Faults) requests in the order they
// arrive (a zero Fault answers normally), and every request is kept, body and
// headers, for assertions. A Handler is safe for concurrent use; set its
// fields before it serves.
package wiremodel

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/internal/probe"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/suite"
)

// API names a wire format.
type API string

// The wire formats a Handler speaks.
const (
	Anthropic   API = "anthropic"
	OpenAI      API = "openai"
	Gemini      API = "gemini"       // generateContent, Gemini API and Vertex AI paths
	Bedrock     API = "bedrock"      // Converse, SigV4 signed
	AzureOpenAI API = "azure-openai" // chat completions under /openai/deployments/NAME
	// AnthropicBedrock is the Messages API body sent to Bedrock's
	// InvokeModel (POST /model/ID/invoke), SigV4 signed.
	AnthropicBedrock API = "anthropic-bedrock"
	// AnthropicVertex is the Messages API body sent to Vertex AI's
	// rawPredict, with a bearer token.
	AnthropicVertex API = "anthropic-vertex"
)

// Fault is how one request is answered instead of (or before) the model's
// answer. The zero Fault answers normally.
type Fault struct {
	// Status is the HTTP status to answer with; 0 means no error status.
	Status int
	// RetryAfter and RetryAfterMS set the retry-after (seconds or an HTTP
	// date) and retry-after-ms headers when not empty.
	RetryAfter, RetryAfterMS string
	// Body is the body sent with Status; empty means the provider's own
	// error body for that status (529 is Anthropic's overloaded_error).
	Body string
	// Malformed answers 200 with a body cut off in the middle of the JSON
	// (Body, when set, instead).
	Malformed bool
	// Reset closes the connection without an answer.
	Reset bool
	// Delay is waited before answering (or until the client gives up).
	Delay time.Duration
}

func (f Fault) zero() bool {
	return f.Status == 0 && !f.Malformed && !f.Reset && f.Delay == 0
}

// Request is a request the handler received.
type Request struct {
	// N counts requests from 1 in the order they arrived.
	N      int
	Method string
	Path   string
	Header http.Header
	Body   []byte
	// Fault is the fault it was answered with; nil when it was answered
	// normally.
	Fault *Fault
	// Status is the HTTP status of the answer (0 for a reset).
	Status int
}

// Handler acts as a model over one wire format.
type Handler struct {
	// API is the wire format.
	API API
	// Keys are the correct answers, by prompt.
	Keys map[string]suite.Key
	// Faults are applied to the first len(Faults) requests.
	Faults []Fault
	// APIKey, when set, is the key every request must carry (as
	// Authorization: Bearer, or Anthropic's x-api-key); other requests get
	// a 401.
	APIKey string
	// Parallel makes all of a key's calls in the first turn, as parallel
	// tool calls, instead of one per turn.
	Parallel bool

	mu       sync.Mutex
	requests []Request
	prefixes map[string]bool
	ids      int
}

// NewAnthropic returns a Messages API handler answering s's cases and the
// probe.
func NewAnthropic(s *suite.Suite) *Handler { return newHandler(Anthropic, s) }

// NewOpenAI returns a chat completions handler answering s's cases and the
// probe.
func NewOpenAI(s *suite.Suite) *Handler { return newHandler(OpenAI, s) }

func newHandler(api API, s *suite.Suite) *Handler {
	h := &Handler{API: api, Keys: Keys(s)}
	return h
}

// ProbeKey is the correct answer to the probe's prompt.
var ProbeKey = suite.Key{
	Calls:  []suite.KeyCall{{Tool: probe.Tool.Name, Args: map[string]any{"word": "ping"}}},
	Answer: "ping",
}

// Keys returns the keys of s's cases by prompt (the first case wins when two
// share a prompt), each with its answer filled in as fake:perfect gives it,
// and the probe's key. s may be nil.
func Keys(s *suite.Suite) map[string]suite.Key {
	keys := map[string]suite.Key{probe.Prompt: ProbeKey}
	if s == nil {
		return keys
	}
	for _, c := range s.Cases {
		if _, dup := keys[c.Prompt]; dup || c.Prompt == "" {
			continue
		}
		k := c.Key
		k.Answer = fake.PerfectAnswer(c)
		keys[c.Prompt] = k
	}
	return keys
}

// Count returns how many requests the handler has received.
func (h *Handler) Count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.requests)
}

// receive records r, with its body, as the next request of *log and the
// fault *faults plans for it (nil for none), under mu; it returns the
// fault, the writer to answer through, and end, which records the status
// answered.
func receive(mu *sync.Mutex, log *[]Request, faults *[]Fault, w http.ResponseWriter, r *http.Request, body []byte) (*Fault, *statusWriter, func()) {
	mu.Lock()
	n := len(*log) + 1
	var fault *Fault
	if fs := *faults; n <= len(fs) && !fs[n-1].zero() {
		f := fs[n-1]
		fault = &f
	}
	*log = append(*log, Request{N: n, Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Fault: fault})
	mu.Unlock()
	rw := &statusWriter{ResponseWriter: w}
	return fault, rw, func() {
		mu.Lock()
		(*log)[n-1].Status = rw.status
		mu.Unlock()
	}
}

// Requests returns a copy of every request received so far.
func (h *Handler) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Request, len(h.requests))
	copy(out, h.requests)
	return out
}

// ServeHTTP answers one request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	fault, rw, end := receive(&h.mu, &h.requests, &h.Faults, w, r, body)
	defer end()
	if err != nil {
		h.fail(rw, http.StatusBadRequest, "invalid_request_error", "reading the body: "+err.Error())
		return
	}
	if fault != nil {
		if fault.Delay > 0 {
			select {
			case <-time.After(fault.Delay):
			case <-r.Context().Done():
				return
			}
		}
		if h.applyFault(rw, *fault) {
			return
		}
	}
	h.serve(rw, r, body)
}

// applyFault answers with f and reports whether it did (a Delay alone
// answers normally afterwards).
func (h *Handler) applyFault(w *statusWriter, f Fault) bool {
	switch {
	case f.Reset:
		if hj, ok := w.ResponseWriter.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return true
			}
		}
		panic(http.ErrAbortHandler)
	case f.Status != 0:
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		if f.RetryAfterMS != "" {
			w.Header().Set("Retry-After-Ms", f.RetryAfterMS)
		}
		body := f.Body
		if body == "" {
			body = h.errorBody(f.Status)
		}
		h.write(w, f.Status, []byte(body))
		return true
	case f.Malformed:
		body := f.Body
		if body == "" {
			body = h.malformed()
		}
		h.write(w, http.StatusOK, []byte(body))
		return true
	}
	return false
}

func (h *Handler) serve(w *statusWriter, r *http.Request, body []byte) {
	switch h.API {
	case Anthropic:
		h.serveAnthropic(w, r, body)
	case OpenAI:
		h.serveOpenAI(w, r, body)
	case Gemini:
		h.serveGemini(w, r, body)
	case Bedrock:
		h.serveBedrock(w, r, body)
	case AnthropicBedrock:
		h.serveAnthropicBedrock(w, r, body)
	case AnthropicVertex:
		h.serveAnthropicVertex(w, r, body)
	case AzureOpenAI:
		h.serveAzure(w, r, body)
	default:
		http.Error(w, "wiremodel: no API set", http.StatusInternalServerError)
	}
}

// reply is what the model says in one turn.
type reply struct {
	calls []call
	text  string
}

type call struct {
	wire string
	args json.RawMessage
}

// answer decides the model's turn: turn counts the assistant turns already
// in the conversation; offered are the wire names of the tools offered.
func (h *Handler) answer(prompt string, turn int, offered []string) (reply, error) {
	key, ok := h.Keys[prompt]
	if !ok {
		return reply{}, fmt.Errorf("wiremodel: no case has the prompt %q", short(prompt, 80))
	}
	mk := func(k suite.KeyCall) call {
		args := k.Args
		if args == nil {
			args = map[string]any{}
		}
		b, _ := json.Marshal(args)
		return call{wire: WireName(k.Tool, offered), args: b}
	}
	switch {
	case h.Parallel && turn == 0 && len(key.Calls) > 0:
		var cs []call
		for _, k := range key.Calls {
			cs = append(cs, mk(k))
		}
		return reply{calls: cs}, nil
	case !h.Parallel && turn < len(key.Calls):
		return reply{calls: []call{mk(key.Calls[turn])}}, nil
	}
	return reply{text: key.Answer}, nil
}

// WireName returns the name under which the MCP tool name appears among the
// offered wire names: the name itself, or the form package toolname maps a
// name to that a provider refuses (invalid characters replaced by "_", or
// that cut short with "_" and a hash of the name). A name not found is
// returned as it is, as a model calling a tool it was not shown would.
func WireName(name string, offered []string) string {
	have := map[string]bool{}
	for _, o := range offered {
		have[o] = true
	}
	s := sanitize(name)
	cands := []string{name, s}
	sum := sha256.Sum256([]byte(name))
	hx := hex.EncodeToString(sum[:])
	for _, n := range []int{8, 12, 16, 24, 32} {
		w := s
		if len(w) > 63-n {
			w = w[:63-n]
		}
		cands = append(cands, w+"_"+hx[:n])
	}
	for _, c := range cands {
		if have[c] {
			return c
		}
	}
	// Gemini's names start with a letter or an underscore: the provider
	// puts an underscore before (or in place of the first character of)
	// a name that does not.
	for _, c := range cands {
		for _, g := range []string{"_" + c, "_" + c[1:]} {
			if have[g] {
				return g
			}
		}
	}
	for _, o := range offered {
		if strings.HasPrefix(o, "tool_"+hx[:16]+"_") {
			return o
		}
	}
	return name
}

func sanitize(name string) string {
	if name == "" {
		return "tool"
	}
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// cache counts a prompt of total tokens whose first prefix tokens are
// cacheable under key: it returns the tokens written to and read from the
// cache (one of them zero).
func (h *Handler) cache(key string, prefix int64) (write, read int64) {
	if key == "" || prefix == 0 {
		return 0, 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.prefixes == nil {
		h.prefixes = map[string]bool{}
	}
	if h.prefixes[key] {
		return 0, prefix
	}
	h.prefixes[key] = true
	return prefix, 0
}

func (h *Handler) nextID() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ids++
	return h.ids
}

// tokens estimates the tokens of n bytes.
func tokens(n int) int64 { return int64(n+3) / 4 }

func hashOf(parts ...[]byte) string {
	s := sha256.New()
	for _, p := range parts {
		s.Write(p)
		s.Write([]byte{0})
	}
	return hex.EncodeToString(s.Sum(nil))
}

func (h *Handler) write(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	if h.bedrock() && status >= 400 && w.Header().Get("X-Amzn-Errortype") == "" {
		w.Header().Set("X-Amzn-Errortype", bedrockErrorType(status))
	}
	if h.API == Anthropic {
		w.Header().Set("Request-Id", fmt.Sprintf("req_wiremodel_%06d", h.nextID()))
	} else {
		w.Header().Set("X-Request-Id", fmt.Sprintf("req_wiremodel_%06d", h.nextID()))
	}
	w.WriteHeader(status)
	w.Write(body)
}

func (h *Handler) writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		h.fail(w, http.StatusInternalServerError, "api_error", err.Error())
		return
	}
	h.write(w, http.StatusOK, b)
}

// fail answers an error in the provider's error format.
func (h *Handler) fail(w http.ResponseWriter, status int, kind, msg string) {
	if h.bedrock() {
		w.Header().Set("X-Amzn-Errortype", kind)
	}
	h.write(w, status, []byte(h.errorJSON(status, kind, msg)))
}

func (h *Handler) errorJSON(status int, kind, msg string) string {
	switch h.API {
	case Gemini:
		return geminiError(status, kind, msg)
	case Bedrock, AnthropicBedrock:
		return bedrockError(msg)
	}
	var v any
	if h.API == Anthropic {
		v = map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": msg}, "request_id": "req_wiremodel_error"}
	} else {
		var code any
		if status == http.StatusTooManyRequests {
			code = "rate_limit_exceeded"
		} else if status == http.StatusUnauthorized {
			code = "invalid_api_key"
		}
		v = map[string]any{"error": map[string]any{"message": msg, "type": kind, "param": nil, "code": code}}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func (h *Handler) malformed() string {
	switch h.API {
	case Gemini:
		return `{"candidates":[{"content":{"role":"model","parts":[{"te`
	case Bedrock:
		return `{"output":{"message":{"role":"assistant","content":[{"te`
	}
	if h.API == Anthropic {
		return `{"id":"msg_wiremodel_cut","type":"message","role":"assistant","content":[{"type":"te`
	}
	return `{"id":"chatcmpl-wiremodel-cut","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis`
}

// checkKey reports whether the request carries the expected key.
func (h *Handler) checkKey(r *http.Request) bool {
	if h.APIKey == "" {
		return true
	}
	if h.API == Anthropic && r.Header.Get("X-Api-Key") == h.APIKey {
		return true
	}
	if h.API == Gemini && r.Header.Get("X-Goog-Api-Key") == h.APIKey {
		return true
	}
	if h.API == AzureOpenAI {
		return r.Header.Get("Api-Key") == h.APIKey
	}
	if h.API == AnthropicBedrock {
		return true // the SigV4 signature was checked
	}
	// Both APIs take a bearer token (anthropic-sdk-go/v2 sends the key so).
	return r.Header.Get("Authorization") == "Bearer "+h.APIKey
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	defer r.Body.Close()
	return io.ReadAll(r.Body)
}

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// apiError is a refusal in the words a provider's API uses, capitals and
// full stops included, so that a provider's error handling is tested
// against the text it will really get.
type apiError string

func (e apiError) Error() string { return string(e) }
