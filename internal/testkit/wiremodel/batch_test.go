package wiremodel_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
)

// exchange is one request to a batch stand-in and what it must answer.
type exchange struct {
	name, method, path, body string
	header                   []string // name, value, ...
	status                   int
	want                     string // in the body
}

func play(t *testing.T, h http.Handler, api wiremodel.API, xs []exchange) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, x := range xs {
		req, err := http.NewRequest(x.method, srv.URL+x.path, strings.NewReader(x.body))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(x.header); i += 2 {
			req.Header.Set(x.header[i], x.header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != x.status || !strings.Contains(string(b), x.want) {
			t.Errorf("%s %s: %d %s, want %d saying %q", api, x.name, resp.StatusCode, b, x.status, x.want)
		}
	}
}

// The Message Batches stand-in refuses what the API refuses, and serves a
// batch's results only once it has ended.
func TestAnthropicBatchRefusals(t *testing.T) {
	b := wiremodel.NewBatches(&wiremodel.Handler{API: wiremodel.Anthropic, Keys: cloudKeys, APIKey: "k"})
	b.PerPoll = 1
	ok := []string{"Anthropic-Version", "2023-06-01", "X-Api-Key", "k"}
	params := `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"Hi."}]}`
	play(t, b, wiremodel.Anthropic, []exchange{
		{"no version", "POST", "/v1/messages/batches", `{}`, []string{"X-Api-Key", "k"}, 400, "anthropic-version: header is required"},
		{"wrong key", "POST", "/v1/messages/batches", `{}`, []string{"Anthropic-Version", "2023-06-01", "X-Api-Key", "x"}, 401, "authentication_error"},
		{"not JSON", "POST", "/v1/messages/batches", `{`, ok, 400, "There was an error parsing the body"},
		{"no requests", "POST", "/v1/messages/batches", `{"requests":[]}`, ok, 400, "at least 1 item"},
		{"bad custom_id", "POST", "/v1/messages/batches", `{"requests":[{"custom_id":"a/1","params":` + params + `}]}`, ok, 400, "requests.0.custom_id: String should match pattern"},
		{"duplicate custom_id", "POST", "/v1/messages/batches", `{"requests":[{"custom_id":"a","params":` + params + `},{"custom_id":"a","params":` + params + `}]}`, ok, 400, "Duplicate custom_id: a"},
		{"no params", "POST", "/v1/messages/batches", `{"requests":[{"custom_id":"a"}]}`, ok, 400, "requests.0.params: Field required"},
		{"created", "POST", "/v1/messages/batches", `{"requests":[{"custom_id":"a","params":` + params + `},{"custom_id":"b","params":` + params + `}]}`, ok, 200, `"processing_status":"in_progress"`},
		{"results too soon", "GET", "/v1/messages/batches/msgbatch_wm000001/results", ``, ok, 400, "has not yet ended"},
		{"first poll", "GET", "/v1/messages/batches/msgbatch_wm000001", ``, ok, 200, `"processing":1,"succeeded":1`},
		{"second poll", "GET", "/v1/messages/batches/msgbatch_wm000001", ``, ok, 200, `"processing_status":"ended"`},
		{"results", "GET", "/v1/messages/batches/msgbatch_wm000001/results", ``, ok, 200, `{"custom_id":"a","result":{"message":{`},
		{"unknown batch", "GET", "/v1/messages/batches/msgbatch_nope", ``, ok, 404, "not_found_error"},
		{"unknown route", "DELETE", "/v1/messages/batches/msgbatch_wm000001", ``, ok, 404, "not_found_error"},
	})
}

// The Batch API stand-in refuses what the API refuses: an upload that is
// not a batch file, a batch of a file it does not have, or for another
// endpoint or window, and lines that do not fit the batch.
func TestOpenAIBatchRefusals(t *testing.T) {
	b := wiremodel.NewBatches(&wiremodel.Handler{API: wiremodel.OpenAI, Keys: cloudKeys, APIKey: "k"})
	auth := []string{"Authorization", "Bearer k"}
	line := func(id, url string) string {
		return `{"custom_id":"` + id + `","method":"POST","url":"` + url + `","body":{"model":"m","messages":[{"role":"user","content":"Hi."}]}}`
	}
	upload := func(purpose, file string) (string, []string) {
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		w.WriteField("purpose", purpose)
		if file != "" {
			fw, _ := w.CreateFormFile("file", "in.jsonl")
			fw.Write([]byte(file))
		}
		w.Close()
		return body.String(), append([]string{"Content-Type", w.FormDataContentType()}, auth...)
	}
	wrongPurpose, h1 := upload("fine-tune", line("a", "/v1/chat/completions"))
	noFile, h2 := upload("batch", "")
	badLine, h3 := upload("batch", "not json\n")
	good, h4 := upload("batch", line("a", "/v1/chat/completions")+"\n"+line("b", "/v1/chat/completions")+"\n")
	otherURL, h5 := upload("batch", line("a", "/v1/embeddings")+"\n")
	dup, h6 := upload("batch", line("a", "/v1/chat/completions")+"\n"+line("a", "/v1/chat/completions")+"\n")
	create := func(file string) string {
		return `{"input_file_id":"` + file + `","endpoint":"/v1/chat/completions","completion_window":"24h"}`
	}
	play(t, b, wiremodel.OpenAI, []exchange{
		{"wrong key", "POST", "/v1/batches", `{}`, []string{"Authorization", "Bearer x"}, 401, "Incorrect API key"},
		{"not multipart", "POST", "/v1/files", `{}`, auth, 400, "multipart/form-data"},
		{"wrong purpose", "POST", "/v1/files", wrongPurpose, h1, 400, "'purpose'"},
		{"no file", "POST", "/v1/files", noFile, h2, 400, "Missing required parameter: 'file'"},
		{"bad line", "POST", "/v1/files", badLine, h3, 400, "line 1 is not a request object"},
		{"uploaded", "POST", "/v1/files", good, h4, 200, `"id":"file-wm000001"`},
		{"other url", "POST", "/v1/files", otherURL, h5, 200, `"id":"file-wm000002"`},
		{"duplicates", "POST", "/v1/files", dup, h6, 200, `"id":"file-wm000003"`},
		{"bad window", "POST", "/v1/batches", `{"input_file_id":"file-wm000001","endpoint":"/v1/chat/completions","completion_window":"1h"}`, auth, 400, "completion_window"},
		{"bad endpoint", "POST", "/v1/batches", `{"input_file_id":"file-wm000001","endpoint":"/v1/nope","completion_window":"24h"}`, auth, 400, "'endpoint'"},
		{"unknown file", "POST", "/v1/batches", create("file-nope"), auth, 404, "No such File object: file-nope"},
		{"line for another endpoint", "POST", "/v1/batches", create("file-wm000002"), auth, 400, "Line 1: the request's method and url must be POST /v1/chat/completions"},
		{"duplicate custom_id", "POST", "/v1/batches", create("file-wm000003"), auth, 400, "Line 2: the custom_id a is not unique"},
		{"created", "POST", "/v1/batches", create("file-wm000001"), auth, 200, `"status":"validating"`},
		{"polled", "GET", "/v1/batches/batch_wm000004", ``, auth, 200, `"status":"completed"`},
		{"output", "GET", "/v1/files/file-wm000005/content", ``, auth, 200, `"custom_id":"b","error":null,"id":"batch_req_wm000002","response":{"body":{"choices"`},
		{"unknown batch", "GET", "/v1/batches/batch_nope", ``, auth, 404, "No batch found"},
		{"unknown content", "GET", "/v1/files/file-nope/content", ``, auth, 404, "No such File object"},
	})
}
