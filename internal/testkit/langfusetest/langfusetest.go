// Package langfusetest is a Langfuse that speaks its public API as the
// reference documents it, for tests: basic auth with a project's keys,
// datasets upserted by name, items upserted on their id and unique in the
// project, dataset run items that make their run, scores upserted on
// their id with a dataType their value must fit, and its OpenTelemetry
// endpoint; and what it holds read back through the GET endpoints
// (traces, a trace with its observations, datasets and their items),
// paged, with the spans it received turned into observations as Langfuse
// does (times to the millisecond, a span's attributes in its metadata).
package langfusetest

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/testkit/otlptest"
)

// The keys the stand-in takes unless told others.
const (
	PublicKey = "pk-lf-1234567890"
	SecretKey = "sk-lf-abcdefghijklmnop"
)

// Server is the stand-in. Its maps hold what was POSTed, by id (datasets
// by name, run items by "dataset / run"); lock Mu to read them while
// requests may arrive.
type Server struct {
	*httptest.Server
	// Public and Secret are the keys it takes.
	Public, Secret string
	OTel           *otlptest.Receiver
	Mu             sync.Mutex
	Datasets       map[string]map[string]any
	Items          map[string]map[string]any
	Runs           map[string][]map[string]any
	Scores         map[string]map[string]any
	// Bodies are the JSON bodies POSTed, in order.
	Bodies []string
	// Faults are answered first, per path, one a request.
	Faults map[string][]Fault
	// Gets are the GET requests answered, path and query.
	Gets      []string
	itemOrder []string
}

// Fault is an answer a request gets instead of its own.
type Fault struct {
	Status     int
	RetryAfter string
}

// New starts a stand-in with the keys PublicKey and SecretKey, closed when
// the test ends.
func New(t testing.TB) *Server {
	f := &Server{Public: PublicKey, Secret: SecretKey, Datasets: map[string]map[string]any{}, Items: map[string]map[string]any{},
		Runs: map[string][]map[string]any{}, Scores: map[string]map[string]any{}, Faults: map[string][]Fault{},
		OTel: &otlptest.Receiver{Path: "/api/public/otel/v1/traces"}}
	f.Server = httptest.NewServer(f)
	t.Cleanup(f.Server.Close)
	return f
}

func fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"message": msg})
}

func answer(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// ServeHTTP answers in the order Langfuse does: the keys, then any fault
// queued for the path, the OpenTelemetry endpoint, the GET routes, and
// last the JSON bodies POSTed to the routes.
func (f *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(f.Public+":"+f.Secret))
	if r.Header.Get("Authorization") != want {
		fail(w, http.StatusUnauthorized, "Invalid credentials. Confirm that you've configured the correct host.")
		return
	}
	if f.answerFault(w, r) {
		return
	}
	switch {
	case r.URL.Path == f.OTel.Path:
		f.serveOTLP(w, r)
	case r.Method == http.MethodGet:
		f.get(w, r)
	case r.Method != http.MethodPost:
		fail(w, http.StatusMethodNotAllowed, "method not allowed")
	default:
		f.post(w, r)
	}
}

// answerFault answers with the next fault queued for the request's path,
// if there is one.
func (f *Server) answerFault(w http.ResponseWriter, r *http.Request) bool {
	f.Mu.Lock()
	q := f.Faults[r.URL.Path]
	if len(q) == 0 {
		f.Mu.Unlock()
		return false
	}
	f.Faults[r.URL.Path] = q[1:]
	f.Mu.Unlock()
	if q[0].RetryAfter != "" {
		w.Header().Set("Retry-After", q[0].RetryAfter)
	}
	fail(w, q[0].Status, http.StatusText(q[0].Status))
	return true
}

// serveOTLP hands traces to the OpenTelemetry receiver when they carry
// the ingestion version Langfuse wants.
func (f *Server) serveOTLP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("x-langfuse-ingestion-version") != "4" {
		fail(w, http.StatusBadRequest, "want x-langfuse-ingestion-version: 4")
		return
	}
	f.OTel.ServeHTTP(w, r)
}

// posted is a JSON body POSTed to the stand-in, and where to answer it.
type posted struct {
	w    http.ResponseWriter
	body map[string]any
}

func (p posted) str(k string) string { s, _ := p.body[k].(string); return s }

// need refuses the body, as Langfuse does, when one of keys is missing.
func (p posted) need(keys ...string) bool {
	for _, k := range keys {
		if p.str(k) == "" {
			fail(p.w, http.StatusBadRequest, "invalid request data: "+k+" is required")
			return false
		}
	}
	return true
}

// routes store a body POSTed to their path, or answer why not and
// return false.
var routes = map[string]func(*Server, posted) bool{
	"/api/public/v2/datasets":       (*Server).putDataset,
	"/api/public/dataset-items":     (*Server).putItem,
	"/api/public/dataset-run-items": (*Server).putRunItem,
	"/api/public/scores":            (*Server).putScore,
}

// post keeps a POSTed body and stores it by its route, answering its id.
func (f *Server) post(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		fail(w, http.StatusBadRequest, "invalid JSON: "+err.Error())
		return
	}
	raw, _ := json.Marshal(body)
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.Bodies = append(f.Bodies, string(raw))
	put, ok := routes[r.URL.Path]
	if !ok {
		fail(w, http.StatusNotFound, "not found")
		return
	}
	if !put(f, posted{w, body}) {
		return
	}
	answer(w, map[string]any{"id": body["id"]})
}

// putDataset upserts a dataset by name.
func (f *Server) putDataset(p posted) bool {
	if !p.need("name") {
		return false
	}
	f.Datasets[p.str("name")] = p.body
	return true
}

// putItem upserts an item of an existing dataset on its id, which is
// unique in the project.
func (f *Server) putItem(p posted) bool {
	if !p.need("datasetName") {
		return false
	}
	if f.Datasets[p.str("datasetName")] == nil {
		fail(p.w, http.StatusNotFound, "Dataset not found")
		return false
	}
	if old := f.Items[p.str("id")]; old != nil && old["datasetName"] != p.body["datasetName"] {
		fail(p.w, http.StatusConflict, "dataset item id already used in another dataset")
		return false
	}
	if f.Items[p.str("id")] == nil {
		f.itemOrder = append(f.itemOrder, p.str("id"))
	}
	f.Items[p.str("id")] = p.body
	return true
}

// putRunItem adds a run item, making its run, for an existing item and a
// trace.
func (f *Server) putRunItem(p posted) bool {
	if !p.need("runName", "datasetItemId", "traceId") {
		return false
	}
	it := f.Items[p.str("datasetItemId")]
	if it == nil {
		fail(p.w, http.StatusNotFound, "Dataset item not found")
		return false
	}
	k := it["datasetName"].(string) + " / " + p.str("runName")
	f.Runs[k] = append(f.Runs[k], p.body)
	return true
}

// scoreTypes are the scores' dataTypes: which values fit each, and what
// Langfuse says of one that does not.
var scoreTypes = map[string]struct {
	fits func(v any) bool
	msg  string
}{
	"NUMERIC":     {func(v any) bool { _, ok := v.(float64); return ok }, "numeric score needs a number"},
	"BOOLEAN":     {func(v any) bool { return v == 0.0 || v == 1.0 }, "boolean score value must be 0 or 1"},
	"CATEGORICAL": {func(v any) bool { _, ok := v.(string); return ok }, "categorical score needs a string"},
}

// putScore upserts a score on its id when it has a trace, a name and a
// value that fits its dataType.
func (f *Server) putScore(p posted) bool {
	if !p.need("traceId", "name") || p.body["value"] == nil {
		if p.body["value"] == nil {
			fail(p.w, http.StatusBadRequest, "value is required")
		}
		return false
	}
	typ, ok := scoreTypes[p.str("dataType")]
	if !ok {
		fail(p.w, http.StatusBadRequest, "unknown dataType")
		return false
	}
	if !typ.fits(p.body["value"]) {
		fail(p.w, http.StatusBadRequest, typ.msg)
		return false
	}
	f.Scores[p.str("id")] = p.body
	return true
}

// get answers the GET routes: the project, the traces (a page of them, or
// one with its observations), a dataset, a page of a dataset's items.
func (f *Server) get(w http.ResponseWriter, r *http.Request) {
	f.Mu.Lock()
	f.Gets = append(f.Gets, r.URL.RequestURI())
	f.Mu.Unlock()
	p := r.URL.EscapedPath()
	switch {
	case p == "/api/public/projects":
		answer(w, map[string]any{"data": []any{map[string]any{"id": "p1", "name": "evals"}}})
	case p == "/api/public/traces":
		f.listTraces(w, r.URL.Query())
	case strings.HasPrefix(p, "/api/public/traces/"):
		id, _ := url.PathUnescape(strings.TrimPrefix(p, "/api/public/traces/"))
		t, ok := f.traces()[id]
		if !ok {
			fail(w, http.StatusNotFound, "Trace not found within authorized project")
			return
		}
		answer(w, t.full())
	case strings.HasPrefix(p, "/api/public/datasets/"):
		name, _ := url.PathUnescape(strings.TrimPrefix(p, "/api/public/datasets/"))
		f.Mu.Lock()
		ds := f.Datasets[name]
		f.Mu.Unlock()
		if ds == nil {
			fail(w, http.StatusNotFound, "Dataset not found")
			return
		}
		answer(w, map[string]any{"id": "ds-" + name, "name": name, "description": ds["description"], "metadata": ds["metadata"], "projectId": "p1"})
	case p == "/api/public/dataset-items":
		f.listItems(w, r.URL.Query())
	default:
		fail(w, http.StatusNotFound, "not found")
	}
}

// paged answers page (from 1) of data, limit a page (50 when not said),
// with the meta Langfuse gives, or refuses a page or limit below 1.
func paged[T any](w http.ResponseWriter, q url.Values, data []T) {
	page, limit := 1, 50
	var err error
	if v := q.Get("page"); v != "" {
		if page, err = strconv.Atoi(v); err != nil || page < 1 {
			fail(w, http.StatusBadRequest, "page must be a positive integer")
			return
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 100 {
			fail(w, http.StatusBadRequest, "limit must be between 1 and 100")
			return
		}
	}
	lo, hi := min((page-1)*limit, len(data)), min(page*limit, len(data))
	answer(w, map[string]any{
		"data": append([]T{}, data[lo:hi]...),
		"meta": map[string]int{"page": page, "limit": limit, "totalItems": len(data), "totalPages": (len(data) + limit - 1) / limit},
	})
}

func (f *Server) listTraces(w http.ResponseWriter, q url.Values) {
	var from, to time.Time
	for k, t := range map[string]*time.Time{"fromTimestamp": &from, "toTimestamp": &to} {
		if v := q.Get(k); v != "" {
			var err error
			if *t, err = time.Parse(time.RFC3339Nano, v); err != nil {
				fail(w, http.StatusBadRequest, k+" must be an ISO 8601 date")
				return
			}
		}
	}
	var list []trace
	for _, t := range f.traces() {
		switch {
		case q.Get("name") != "" && t.Name != q.Get("name"),
			q.Get("sessionId") != "" && t.SessionID != q.Get("sessionId"),
			!from.IsZero() && t.Timestamp.Before(from),
			!to.IsZero() && !t.Timestamp.Before(to):
			continue
		}
		if slices.ContainsFunc(q["tags"], func(tag string) bool { return !slices.Contains(t.Tags, tag) }) {
			continue
		}
		list = append(list, t)
	}
	// Newest first, as Langfuse lists them.
	slices.SortFunc(list, func(a, b trace) int {
		if c := b.Timestamp.Compare(a.Timestamp); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	out := make([]map[string]any, len(list))
	for i, t := range list {
		out[i] = t.listed()
	}
	paged(w, q, out)
}

func (f *Server) listItems(w http.ResponseWriter, q url.Values) {
	name := q.Get("datasetName")
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if name != "" && f.Datasets[name] == nil {
		fail(w, http.StatusNotFound, "Dataset not found")
		return
	}
	var out []map[string]any
	for _, id := range f.itemOrder {
		it := f.Items[id]
		if name != "" && it["datasetName"] != name {
			continue
		}
		out = append(out, map[string]any{"id": id, "status": "ACTIVE", "datasetName": it["datasetName"], "datasetId": "ds-" + it["datasetName"].(string),
			"input": it["input"], "expectedOutput": it["expectedOutput"], "metadata": it["metadata"]})
	}
	paged(w, q, out)
}

// trace is a trace as Langfuse makes it of the spans it received.
type trace struct {
	ID        string
	Timestamp time.Time
	Name      string
	SessionID string
	Tags      []string
	Input     any
	Output    any
	Metadata  map[string]any
	Obs       []map[string]any
}

func (t trace) listed() map[string]any {
	ids := make([]string, len(t.Obs))
	for i, o := range t.Obs {
		ids[i] = o["id"].(string)
	}
	return map[string]any{"id": t.ID, "timestamp": ms(t.Timestamp), "name": t.Name, "sessionId": nilIfEmpty(t.SessionID), "tags": t.Tags,
		"input": t.Input, "output": t.Output, "metadata": t.Metadata, "observations": ids, "scores": []string{}, "htmlPath": "/project/p1/traces/" + t.ID}
}

func (t trace) full() map[string]any {
	m := t.listed()
	m["observations"] = t.Obs
	return m
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// ms is a time as Langfuse answers it: ISO 8601, to the millisecond.
func ms(t time.Time) string {
	return t.UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}

// observationTypes are the observation types Langfuse gives spans by
// their gen_ai.operation.name.
var observationTypes = map[string]string{"chat": "GENERATION", "execute_tool": "TOOL", "invoke_agent": "AGENT"}

// content are the attributes Langfuse moves out of a span's attributes
// into an observation's own fields.
var content = []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result",
	"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"}

// parsed is a JSON text attribute as Langfuse keeps input and output: the
// value it holds, or the text when it is not JSON.
func parsed(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	var out any
	if json.Unmarshal([]byte(s), &out) == nil {
		return out
	}
	return s
}

// traces are the traces the spans received make, by id.
func (f *Server) traces() map[string]trace {
	out := map[string]trace{}
	for _, sp := range f.OTel.Spans() {
		attrs := otlptest.Attrs(sp.Attributes)
		t := out[sp.TraceHex()]
		t.ID = sp.TraceHex()
		obs := map[string]any{
			"id": sp.SpanHex(), "traceId": t.ID, "name": sp.Name, "type": "SPAN", "parentObservationId": nilIfEmpty(sp.ParentHex()),
			"startTime": ms(time.Unix(0, int64(sp.StartTimeUnixNano))), "endTime": ms(time.Unix(0, int64(sp.EndTimeUnixNano))),
			"level": "DEFAULT", "usageDetails": map[string]int64{},
		}
		op, _ := attrs["gen_ai.operation.name"].(string)
		if typ, ok := observationTypes[op]; ok {
			obs["type"] = typ
		}
		if m, ok := attrs["gen_ai.request.model"]; ok && obs["type"] == "GENERATION" {
			obs["model"] = m
		}
		in, out1 := attrs["gen_ai.input.messages"], attrs["gen_ai.output.messages"]
		if op == "execute_tool" {
			in, out1 = attrs["gen_ai.tool.call.arguments"], attrs["gen_ai.tool.call.result"]
		}
		obs["input"], obs["output"] = parsed(in), parsed(out1)
		usage := obs["usageDetails"].(map[string]int64)
		for k, name := range map[string]string{"gen_ai.usage.input_tokens": "input", "gen_ai.usage.output_tokens": "output"} {
			if n, ok := attrs[k].(int64); ok {
				usage[name] = n
				usage["total"] += n
			}
		}
		if sp.GetStatus().GetCode() == 2 {
			obs["level"], obs["statusMessage"] = "ERROR", sp.GetStatus().GetMessage()
		}
		for _, k := range content {
			delete(attrs, k)
		}
		obs["metadata"] = map[string]any{"attributes": attrs, "resourceAttributes": sp.Resource, "scope": map[string]any{"name": "mcpeval"}}
		t.Obs = append(t.Obs, obs)
		if len(sp.ParentSpanId) == 0 {
			start := time.Unix(0, int64(sp.StartTimeUnixNano)).UTC().Truncate(time.Millisecond)
			t.Timestamp, t.Name, t.Input, t.Output = start, sp.Name, obs["input"], obs["output"]
			if s, ok := attrs["session.id"].(string); ok {
				t.SessionID = s
			}
			if tags, ok := attrs["langfuse.trace.tags"].([]any); ok {
				for _, tag := range tags {
					t.Tags = append(t.Tags, fmt.Sprint(tag))
				}
			}
			t.Metadata = map[string]any{"resourceAttributes": sp.Resource}
		}
		out[t.ID] = t
	}
	for id, t := range out {
		if t.Tags == nil {
			t.Tags = []string{}
		}
		out[id] = t
	}
	return out
}
