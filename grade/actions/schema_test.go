package actions

import (
	"encoding/json"
	"strings"
	"testing"
)

// keywordCases holds, for each JSON Schema keyword a tool's input schema
// may use, arguments a server following the schema accepts and arguments
// it rejects.
var keywordCases = []struct {
	keyword        string
	schema         string
	accept, reject []string
}{
	{"uniqueItems", `{"type":"object","properties":{"tags":{"type":"array","uniqueItems":true}}}`,
		[]string{`{"tags":["a","b"]}`, `{"tags":[]}`, `{"tags":[1,"1"]}`},
		[]string{`{"tags":["a","a"]}`, `{"tags":[{"x":1},{"x":1}]}`}},
	{"prefixItems", `{"type":"object","properties":{"point":{"type":"array","prefixItems":[{"type":"number"},{"type":"string"}],"items":false}}}`,
		[]string{`{"point":[1,"a"]}`, `{"point":[1]}`},
		[]string{`{"point":["a",1]}`, `{"point":[1,"a",3]}`}},
	{"patternProperties", `{"type":"object","patternProperties":{"^x_":{"type":"integer"}},"additionalProperties":false}`,
		[]string{`{"x_a":1}`, `{}`},
		[]string{`{"x_a":"one"}`, `{"y":1}`}},
	{"if/then/else", `{"type":"object","properties":{"kind":{"type":"string"}},
		"if":{"properties":{"kind":{"const":"file"}},"required":["kind"]},"then":{"required":["path"]},"else":{"required":["url"]}}`,
		[]string{`{"kind":"file","path":"/a"}`, `{"kind":"web","url":"u"}`},
		[]string{`{"kind":"file","url":"u"}`, `{"kind":"web","path":"/a"}`}},
	{"dependentRequired", `{"type":"object","dependentRequired":{"start":["end"]}}`,
		[]string{`{"start":1,"end":2}`, `{"end":2}`, `{}`},
		[]string{`{"start":1}`}},
	{"const", `{"type":"object","properties":{"confirm":{"const":true},"mode":{"const":{"a":[1]}}}}`,
		[]string{`{"confirm":true}`, `{"mode":{"a":[1]}}`},
		[]string{`{"confirm":false}`, `{"confirm":"true"}`, `{"mode":{"a":[2]}}`}},
	{"const beyond float64", `{"type":"object","properties":{"id":{"const":9007199254740993}}}`,
		[]string{`{"id":9007199254740993}`},
		[]string{`{"id":9007199254740992}`}},
	{"multipleOf", `{"type":"object","properties":{"qty":{"type":"number","multipleOf":0.5},"n":{"type":"integer","multipleOf":3}}}`,
		[]string{`{"qty":1.5}`, `{"n":9}`, `{"qty":0}`},
		[]string{`{"qty":1.2}`, `{"n":10}`}},
	{"multipleOf beyond float64", `{"type":"object","properties":{"n":{"type":"integer","multipleOf":2}}}`,
		[]string{`{"n":9007199254740994}`},
		[]string{`{"n":9007199254740993}`}},
	{"propertyNames", `{"type":"object","propertyNames":{"pattern":"^[a-z_]+$","maxLength":8}}`,
		[]string{`{"name":1,"a_b":2}`},
		[]string{`{"Name":1}`, `{"much_too_long":1}`}},
	{"minProperties/maxProperties", `{"type":"object","minProperties":1,"maxProperties":2}`,
		[]string{`{"a":1}`, `{"a":1,"b":2}`},
		[]string{`{}`, `{"a":1,"b":2,"c":3}`}},
	{"contains/minContains", `{"type":"object","properties":{"ids":{"type":"array","contains":{"type":"integer"},"minContains":2,"maxContains":3}}}`,
		[]string{`{"ids":[1,2]}`, `{"ids":["a",1,2,3]}`},
		[]string{`{"ids":["a","b"]}`, `{"ids":[1,"a"]}`, `{"ids":[1,2,3,4]}`}},
	{"not/oneOf", `{"type":"object","properties":{"id":{"not":{"type":"null"}},
		"v":{"oneOf":[{"type":"integer"},{"type":"number","minimum":2}]}}}`,
		[]string{`{"id":"a"}`, `{"v":1}`, `{"v":2.5}`},
		[]string{`{"id":null}`, `{"v":3}`, `{"v":"x"}`}},
	{"oneOf over uniqueItems", `{"type":"object","properties":{"to":{"oneOf":[{"type":"string"},{"type":"array","items":{"type":"string"},"uniqueItems":true}]}}}`,
		[]string{`{"to":"a"}`, `{"to":["a","b"]}`},
		[]string{`{"to":["a","a"]}`, `{"to":1}`}},
	{"not over dependentRequired", `{"type":"object","not":{"dependentRequired":{"all":["ids"]}}}`,
		[]string{`{"all":true}`, `{"all":true,"x":1}`},
		[]string{`{"ids":[1]}`, `{}`, `{"all":true,"ids":[1]}`}},
	// The keywords tool schemas use most, kept from the validator this
	// package had before.
	{"type/required/additionalProperties", `{"type":"object","properties":{
		"n":{"type":"integer","minimum":1,"maximum":5},
		"s":{"type":"string","enum":["a","b"]},
		"l":{"type":["null","array"],"items":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}}},
		"required":["n"],"additionalProperties":false}`,
		[]string{`{"n":3}`, `{"n":3.0}`, `{"n":3,"l":null}`, `{"n":3,"l":[{"x":"y"}]}`, `{"n":3,"s":"a"}`},
		[]string{`{}`, `{"n":"3"}`, `{"n":2.5}`, `{"n":9}`, `{"n":3,"s":"c"}`, `{"n":3,"extra":1}`, `{"n":3,"l":[{}]}`, `{"n":3,"l":[{"x":"y","z":1}]}`}},
	{"local $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/pos"}},"$defs":{"pos":{"type":"integer","exclusiveMinimum":0}}}`,
		[]string{`{"a":1}`},
		[]string{`{"a":0}`, `{"a":"1"}`}},
}

func TestValidateArgsKeywords(t *testing.T) {
	for _, tc := range keywordCases {
		t.Run(strings.ReplaceAll(tc.keyword, "/", "_"), func(t *testing.T) {
			for _, a := range tc.accept {
				if err := ValidateArgs(json.RawMessage(tc.schema), json.RawMessage(a)); err != nil {
					t.Errorf("%s: rejected (%v), want accepted", a, err)
				}
			}
			for _, a := range tc.reject {
				if err := ValidateArgs(json.RawMessage(tc.schema), json.RawMessage(a)); err == nil {
					t.Errorf("%s: accepted, want rejected", a)
				}
			}
		})
	}
}

func TestValidateArgsSays(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"},"l":{"type":"array","items":{"type":"string"}}},"required":["id"]}`)
	err := ValidateArgs(schema, json.RawMessage(`{"n":"3","l":["a",2]}`))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"at /: missing property 'id'", "at /l/1: got number, want string", "at /n: got string, want integer"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q is on more than one line", err)
	}
}

// TestValidateArgsNoSchema: arguments are held to nothing when there is
// no schema or one that does not compile, and empty arguments are the
// empty object.
func TestValidateArgsNoSchema(t *testing.T) {
	for _, schema := range []string{``, `null`, `{"type":`, `{"properties":{"a":{"$ref":"https://example.com/a.json"}}}`} {
		if err := ValidateArgs(json.RawMessage(schema), json.RawMessage(`{"a":1}`)); err != nil {
			t.Errorf("schema %q: %v", schema, err)
		}
	}
	req := json.RawMessage(`{"type":"object","required":["a"]}`)
	for _, args := range []string{``, `null`, `{}`} {
		if err := ValidateArgs(req, json.RawMessage(args)); err == nil {
			t.Errorf("arguments %q: accepted without the required argument", args)
		}
	}
	if err := ValidateArgs(json.RawMessage(`{"type":"object"}`), json.RawMessage(``)); err != nil {
		t.Errorf("no arguments: %v", err)
	}
	if err := ValidateArgs(req, json.RawMessage(`{"a":`)); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("broken arguments: %v", err)
	}
}

// TestValidateArgsECMAPattern: a pattern Go cannot compile (schemas made
// for JavaScript servers use lookahead) is not checked, and the rest of
// the schema still is.
func TestValidateArgsECMAPattern(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","pattern":"^(?!\\.)[^/]+$"},"n":{"type":"integer"}}}`)
	if _, err := CompileSchema(schema); err != nil {
		t.Fatalf("compiling: %v", err)
	}
	if err := ValidateArgs(schema, json.RawMessage(`{"path":".hidden"}`)); err != nil {
		t.Errorf("an unchecked pattern rejected: %v", err)
	}
	if err := ValidateArgs(schema, json.RawMessage(`{"path":"a","n":"1"}`)); err == nil {
		t.Error("a wrong type accepted beside an unchecked pattern")
	}
}

// TestCompileSchemaFetchesNothing: a $ref to another document is an
// error; the local file it names is never read.
func TestCompileSchemaFetchesNothing(t *testing.T) {
	for _, ref := range []string{"https://example.com/a.json", "schema_test.go", "file:///etc/hostname"} {
		_, err := CompileSchema(json.RawMessage(`{"properties":{"a":{"$ref":"` + ref + `"}}}`))
		if err == nil || !strings.Contains(err.Error(), "not fetched") {
			t.Errorf("$ref %s: error %v, want one saying it is not fetched", ref, err)
		}
	}
}

// benchSchema is the shape of a real tool's input schema.
var benchSchema = json.RawMessage(`{"type":"object","properties":{
	"name":{"type":"string","pattern":"^[a-z][a-z0-9-]*$","maxLength":63},
	"image":{"type":"string"},"project_id":{"type":"string"},
	"mounts":{"type":"array","items":{"type":"object","properties":{"volume":{"type":"string"},"path":{"type":"string"}},"required":["volume","path"],"additionalProperties":false}},
	"memory_mb":{"type":"integer","minimum":0},"confirm":{"type":"boolean"}},
	"required":["name","image"],"additionalProperties":false}`)

var benchArgs = json.RawMessage(`{"name":"web-1","image":"nginx:1.27","mounts":[{"volume":"data","path":"/srv"}],"memory_mb":256}`)

func BenchmarkValidateArgs(b *testing.B) {
	for range b.N {
		if err := ValidateArgs(benchSchema, benchArgs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompileSchemaUncached(b *testing.B) {
	for range b.N {
		if _, err := compile(benchSchema); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCompileSchemaDrafts: the drafts servers name in $schema are known
// without fetching them (zod-to-json-schema writes draft-07's).
func TestCompileSchemaDrafts(t *testing.T) {
	for _, draft := range []string{
		"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema",
		"https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/draft-04/schema#",
	} {
		schema := json.RawMessage(`{"$schema":"` + draft + `","type":"object","properties":{"n":{"type":"integer"}}}`)
		if _, err := CompileSchema(schema); err != nil {
			t.Errorf("%s: %v", draft, err)
		}
		if ValidateArgs(schema, json.RawMessage(`{"n":"1"}`)) == nil {
			t.Errorf("%s: a string accepted for an integer", draft)
		}
	}
}

// TestCompileSchemaCached: a schema is compiled once per text.
func TestCompileSchemaCached(t *testing.T) {
	a, err := CompileSchema(benchSchema)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := CompileSchema(append(json.RawMessage{}, benchSchema...))
	c, _ := CompileSchema(json.RawMessage(`{"type":"object"}`))
	if a != b || a == c {
		t.Errorf("same text compiled twice (%v) or different texts shared (%v)", a != b, a == c)
	}
}
