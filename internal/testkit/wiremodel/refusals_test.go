package wiremodel_test

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
)

// refusal is a request a real API refuses with a 400, and what its error
// message says.
type refusal struct {
	name, body, want string
}

// checkRefusals sends each refusal to a handler for api at path and wants a
// 400 whose body says what the refusal wants.
func checkRefusals(t *testing.T, api wiremodel.API, path string, header []string, cases []refusal) {
	t.Helper()
	h := &wiremodel.Handler{API: api, Keys: cloudKeys}
	for _, c := range cases {
		if status, _, b := send(t, h, path, c.body, header...); status != 400 || !strings.Contains(b, c.want) {
			t.Errorf("%s %s: %d %s, want 400 saying %q", api, c.name, status, b, c.want)
		}
	}
}

// TestAnthropicRefusals: each check of a Messages API request refuses what
// the API refuses.
func TestAnthropicRefusals(t *testing.T) {
	req := func(extra, msgs string) string {
		return `{"model":"m","max_tokens":10,` + extra + `"messages":[{"role":"user","content":"Hi."}` + msgs + `]}`
	}
	tool := `{"name":"t","input_schema":{"type":"object"}}`
	checkRefusals(t, wiremodel.Anthropic, "/v1/messages", []string{"Anthropic-Version", "2023-06-01"}, []refusal{
		{"no max_tokens", `{"model":"m","messages":[{"role":"user","content":"Hi."}]}`, "max_tokens: Field required"},
		{"assistant first", `{"model":"m","max_tokens":10,"messages":[{"role":"assistant","content":"Hi."}]}`, `first message must use the \"user\" role`},
		{"duplicate tool", req(`"tools":[`+tool+`,`+tool+`],`, ``), "Tool names must be unique"},
		{"schema not object", req(`"tools":[{"name":"t","input_schema":{"type":"string"}}],`, ``), "tools.0.custom.input_schema.type"},
		{"bad role", req(``, `,{"role":"system","content":"x"}`), "messages.1.role: Input should be 'user' or 'assistant'"},
		{"input not object", req(``, `,{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"t","input":[]}]}`), "messages.1.content.0.tool_use.input"},
		{"forged thinking", req(``, `,{"role":"assistant","content":[{"type":"thinking","thinking":"x","signature":"y"}]}`), "Invalid `signature` in `thinking` block"},
		{"thinking not first", req(`"thinking":{"type":"enabled"},`, `,{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"t","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]}`),
			"Expected `thinking` or `redacted_thinking`, but found `tool_use`"},
		{"unanswered", req(``, `,{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"t","input":{}}]},{"role":"user","content":"go on"}`), "without `tool_result` blocks immediately after: a."},
		{"stray result", req(``, `,{"role":"assistant","content":"ok"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"x"}]}`), "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: x."},
	})
}

// TestGeminiRefusals: each check of a generateContent request refuses what
// the API refuses.
func TestGeminiRefusals(t *testing.T) {
	user := `{"role":"user","parts":[{"text":"Hi."}]}`
	call := `{"functionCall":{"name":"t","args":{}},"thoughtSignature":"` + wiremodel.Sign("gemini call\x00t") + `"}`
	response := `{"functionResponse":{"name":"t","response":{}}}`
	decl := `{"name":"t","parameters":{"type":"object"}}`
	checkRefusals(t, wiremodel.Gemini, "/v1beta/models/g:generateContent", nil, []refusal{
		{"no contents", `{"contents":[]}`, "contents is not specified"},
		{"bad name", `{"contents":[` + user + `],"tools":[{"functionDeclarations":[{"name":"1t"}]}]}`, "function_declarations[0].name: Invalid function name"},
		{"duplicate", `{"contents":[` + user + `],"tools":[{"functionDeclarations":[` + decl + `,` + decl + `]}]}`, "function_declarations[1].name: Duplicate function declaration found: t"},
		{"parameters not object", `{"contents":[` + user + `],"tools":[{"functionDeclarations":[{"name":"t","parametersJsonSchema":[]}]}]}`, "function_declarations[0].parameters: must be an object"},
		{"bad role", `{"contents":[{"role":"system","parts":[{"text":"Hi."}]}]}`, "Please use a valid role"},
		{"no parts", `{"contents":[` + user + `,{"role":"model","parts":[]}]}`, "contents[1].parts: contents.parts must not be empty"},
		{"model first", `{"contents":[{"role":"model","parts":[{"text":"Hi."}]}]}`, "starting with user"},
		{"call from user", `{"contents":[{"role":"user","parts":[{"text":"Hi."},` + call + `]}]}`, "contents[0].parts[1]: a function call must come from the model"},
		{"args not object", `{"contents":[` + user + `,{"role":"model","parts":[{"functionCall":{"name":"t","args":[]}}]}]}`, "contents[1].parts[0].function_call.args: must be an object"},
		{"too few responses", `{"contents":[` + user + `,{"role":"model","parts":[` + call + `,{"functionCall":{"name":"t"}}]},{"role":"user","parts":[` + response + `]}]}`, "equal to the number of function call parts"},
	})
}

// TestBedrockRefusals: each check of a Converse request refuses what the
// API refuses.
func TestBedrockRefusals(t *testing.T) {
	user := `{"role":"user","content":[{"text":"Hi."}]}`
	tool := `{"toolSpec":{"name":"t","inputSchema":{"json":{"type":"object"}}}}`
	withTools := func(tools string) string {
		return `{"messages":[` + user + `],"toolConfig":{"tools":[` + tools + `]}}`
	}
	checkRefusals(t, wiremodel.Bedrock, "/model/m/converse", []string{"Authorization", goodSig, "X-Amz-Date", "20261130T101010Z"}, []refusal{
		{"no messages", `{"messages":[]}`, "A conversation must start with a user message."},
		{"no toolSpec", withTools(`{"cachePoint":{"type":"default"}},{}`), "Value at 'toolConfig.tools.2' failed to satisfy constraint: Member must have one of toolSpec, cachePoint"},
		{"bad name", withTools(`{"toolSpec":{"name":"a b","inputSchema":{"json":{"type":"object"}}}}`), "'toolConfig.tools.1.member.toolSpec.name'"},
		{"duplicate", withTools(tool + `,` + tool), "unique tool names"},
		{"schema not object", withTools(`{"toolSpec":{"name":"t","inputSchema":{"json":{}}}}`), "toolConfig.tools.0.toolSpec.inputSchema.json.type must be object"},
		{"not alternating", `{"messages":[` + user + `,` + user + `]}`, "must alternate between user and assistant roles"},
		{"empty content", `{"messages":[{"role":"user","content":[]}]}`, "Message object at messages.0 is empty"},
		{"toolUse from user", `{"messages":[{"role":"user","content":[{"toolUse":{"toolUseId":"a","name":"t","input":{}}}]}]}`, "messages.0.content.0: toolUse blocks are allowed only in assistant messages"},
		{"input not object", `{"messages":[` + user + `,{"role":"assistant","content":[{"toolUse":{"toolUseId":"a","name":"t","input":"x"}}]}]}`, "messages.1.content.0.toolUse.input is invalid"},
		{"unanswered", `{"messages":[` + user + `,{"role":"assistant","content":[{"toolUse":{"toolUseId":"b","name":"t","input":{}}},{"toolUse":{"toolUseId":"a","name":"t","input":{}}}]},{"role":"user","content":[{"text":"go on"}]}]}`,
			"messages.2.content for the following Ids: a, b"},
	})
}

// TestOpenAIRefusals: each check of a chat completions request refuses
// what the API refuses.
func TestOpenAIRefusals(t *testing.T) {
	user := `{"role":"user","content":"Hi."}`
	fn := `{"type":"function","function":{"name":"t","parameters":{"type":"object"}}}`
	checkRefusals(t, wiremodel.OpenAI, "/v1/chat/completions", nil, []refusal{
		{"no model", `{"messages":[` + user + `]}`, "you must provide a model parameter"},
		{"no messages", `{"model":"m","messages":[]}`, "[] is too short - 'messages'"},
		{"not a function", `{"model":"m","messages":[` + user + `],"tools":[{"type":"retrieval"}]}`, "Invalid value for 'tools[0].type'"},
		{"duplicate", `{"model":"m","messages":[` + user + `],"tools":[` + fn + `,` + fn + `]}`, `duplicate function name \"t\"`},
		{"parameters not object", `{"model":"m","messages":[` + user + `],"tools":[{"type":"function","function":{"name":"t","parameters":"x"}}]}`, "Invalid type for 'tools[0].function.parameters'"},
		{"bad content", `{"model":"m","messages":[{"role":"user","content":5}]}`, "Invalid 'messages[0].content'"},
		{"bad role", `{"model":"m","messages":[{"role":"robot","content":"x"}]}`, "Invalid value: 'robot'."},
		{"stray tool", `{"model":"m","messages":[` + user + `,{"role":"tool","tool_call_id":"x","content":"r"}]}`, "messages with role 'tool' must be a response"},
		{"unanswered", `{"model":"m","messages":[` + user + `,{"role":"assistant","tool_calls":[{"id":"b","type":"function","function":{"name":"t","arguments":"{}"}},{"id":"a","type":"function","function":{"name":"t","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"r"},` + user + `]}`,
			`did not have response messages: b"`},
		{"no user", `{"model":"m","messages":[{"role":"system","content":"Be brief."}]}`, "the conversation has no user message"},
	})
}

// TestAnthropicCachesOnlyWhenMarked: a repeated tools prefix is read from
// the cache only when a tool (or the system prompt) carries cache_control.
func TestAnthropicCachesOnlyWhenMarked(t *testing.T) {
	hdr := []string{"Anthropic-Version", "2023-06-01"}
	for _, c := range []struct {
		tool   string
		cached bool
	}{
		{`{"name":"t","input_schema":{"type":"object"}}`, false},
		{`{"name":"t","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral"}}`, true},
	} {
		h := &wiremodel.Handler{API: wiremodel.Anthropic, Keys: cloudKeys}
		body := `{"model":"m","max_tokens":10,"tools":[` + c.tool + `],"messages":[{"role":"user","content":"Hi."}]}`
		send(t, h, "/v1/messages", body, hdr...)
		status, _, b := send(t, h, "/v1/messages", body, hdr...)
		if cached := !strings.Contains(b, `"cache_read_input_tokens":0,`); status != 200 || cached != c.cached {
			t.Errorf("%s: %d %s, want cached %v", c.tool, status, b, c.cached)
		}
	}
}
