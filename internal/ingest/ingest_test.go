package ingest

import (
	"bytes"
	"strings"
	"testing"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

func str(k, v string) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}}
}

// request is an ExportTraceServiceRequest holding spans, as an OTLP/HTTP
// body carries it.
func request(t *testing.T, spans ...*tracepb.Span) []byte {
	t.Helper()
	rs, err := proto.Marshal(&tracepb.ResourceSpans{ScopeSpans: []*tracepb.ScopeSpans{{Spans: spans}}})
	if err != nil {
		t.Fatal(err)
	}
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(b, rs)
}

// TestProtobufBody reads one OTLP/HTTP request body saved as a file: an
// agent span with its prompt and answer and a tool span whose error status
// makes a tool error, without an error.type.
func TestProtobufBody(t *testing.T) {
	tid := bytes.Repeat([]byte{7}, 16)
	body := request(t,
		&tracepb.Span{TraceId: tid, SpanId: []byte{1, 1, 1, 1, 1, 1, 1, 1}, Name: "invoke_agent", StartTimeUnixNano: 1e18, EndTimeUnixNano: 1e18 + 2e9,
			Attributes: []*commonpb.KeyValue{str(keyOperation, "invoke_agent"), str("my.case", "q/net"),
				str(keyInputMessages, `[{"role":"user","parts":[{"type":"text","content":"net worth?"}]}]`),
				str(keyOutputMessages, `[{"role":"assistant","parts":[{"type":"text","content":"2 million"}]}]`)}},
		&tracepb.Span{TraceId: tid, SpanId: []byte{2, 1, 1, 1, 1, 1, 1, 1}, ParentSpanId: []byte{1, 1, 1, 1, 1, 1, 1, 1}, Name: "execute_tool get_net_worth",
			StartTimeUnixNano: 1e18 + 1e9, EndTimeUnixNano: 1e18 + 1e9 + 5e5, Status: &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: "boom"},
			Attributes: []*commonpb.KeyValue{str(keyOperation, "execute_tool"), str(keyToolResult, "boom")}},
	)
	var sp Spans
	if err := sp.ReadFile(bytes.NewReader(body)); err != nil {
		t.Fatal(err)
	}
	convs, skipped := sp.Conversations()
	if len(convs) != 1 || skipped != 0 {
		t.Fatalf("%d conversations, %d skipped; want 1, 0", len(convs), skipped)
	}
	a := convs[0].Attempt
	if a.Prompt != "net worth?" || a.Answer != "2 million" || a.DurationMS != 2000 {
		t.Errorf("prompt %q, answer %q, %d ms", a.Prompt, a.Answer, a.DurationMS)
	}
	calls := a.Calls()
	if len(calls) != 1 || calls[0].Name != "get_net_worth" || !calls[0].IsError || calls[0].Result != "boom" || calls[0].DurationUS != 500 || string(calls[0].Args) != "{}" {
		t.Errorf("calls %+v", calls)
	}
	s := &suite.Suite{Cases: []*suite.Case{{ID: "q/net", Prompt: "net worth?"}}}
	res, err := Match{By: ByAttribute, Key: "my.case"}.Apply(s, convs)
	if err != nil || len(res.Attempts) != 1 || res.Attempts[0].Case != "q/net" || res.Attempts[0].N != 1 {
		t.Errorf("matched by my.case: %+v, %v", res, err)
	}
}

// TestJSONLines reads OTLP/JSON as the collector's file exporter writes
// it, one request a line, with integers as numbers or strings; a trace
// holding no GenAI span is counted, not made a conversation.
func TestJSONLines(t *testing.T) {
	in := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"aa","spanId":"01","name":"chat m","startTimeUnixNano":1000000000,"endTimeUnixNano":"3000000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":12}},{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"hi\"}]}]"}},{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"hello\"},{\"type\":\"tool_call\",\"id\":\"c1\",\"name\":\"t\",\"arguments\":\"{\\\"x\\\":1}\"}]}]"}}]}]}]}]}
{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"bb","spanId":"02","name":"GET /","startTimeUnixNano":"5","endTimeUnixNano":"6"}]}]}]}
`
	var sp Spans
	if err := sp.ReadFile(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	convs, skipped := sp.Conversations()
	if len(convs) != 1 || skipped != 1 {
		t.Fatalf("%d conversations, %d skipped; want 1, 1", len(convs), skipped)
	}
	a := convs[0].Attempt
	if a.Prompt != "hi" || len(a.Turns) != 1 || a.Turns[0].Usage.Input != 12 || a.Turns[0].LatencyMS != 2000 {
		t.Errorf("attempt %+v", a)
	}
	calls := a.Calls()
	if len(calls) != 1 || string(calls[0].Args) != `{"x":1}` || !calls[0].Shown {
		t.Errorf("calls from the output message: %+v", calls)
	}
}

// TestJSONLShown: a JSONL line's call that does not say shown was shown;
// one that says false was not; the case it names is kept as an attribute.
func TestJSONLShown(t *testing.T) {
	in := `{"case":"q/net","prompt":"p","turns":[{"calls":[{"name":"a"},{"name":"b","shown":false}]}],"answer":"x"}` + "\n"
	convs, err := ReadJSONL(strings.NewReader(in), "in.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	cs := convs[0].Attempt.Calls()
	if !cs[0].Shown || cs[1].Shown || convs[0].Attrs[CaseAttribute] != "q/net" || convs[0].Attempt.End != record.EndAnswered {
		t.Errorf("read %+v, calls %+v", convs[0], cs)
	}
	if _, err := ReadJSONL(strings.NewReader("{}\n"), "in.jsonl"); err == nil || !strings.Contains(err.Error(), "in.jsonl:1:") {
		t.Errorf("an empty attempt: %v, want an error at in.jsonl:1", err)
	}
}

// TestAddProtobufLikeJSON: an OTLP/HTTP protobuf body whose ResourceSpans
// is 123 bytes long starts "\n{", which is not JSON: the content type says
// what a body is.
func TestAddProtobufLikeJSON(t *testing.T) {
	for n := 1; n < 200; n++ {
		body := request(t, &tracepb.Span{TraceId: bytes.Repeat([]byte{9}, 16), SpanId: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Name: "chat " + strings.Repeat("m", n),
			Attributes: []*commonpb.KeyValue{str(keyOperation, "chat")}})
		if len(body) < 2 || body[1] != '{' {
			continue
		}
		var sp Spans
		if err := sp.Add(body, "application/x-protobuf"); err != nil {
			t.Fatalf("a protobuf body starting %q: %v", body[:2], err)
		}
		if sp.Len() != 1 {
			t.Fatalf("read %d spans, want 1", sp.Len())
		}
		return
	}
	t.Fatal("no body of that length made")
}
