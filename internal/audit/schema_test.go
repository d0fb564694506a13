package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateFetchesNothing: a $ref outside the input schema is an
// error, never a fetch or a file read, and a schema that does not compile
// is reported to the suite's author.
func TestValidateFetchesNothing(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "other.json")
	if err := os.WriteFile(file, []byte(`{"type":"integer"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, schema := range []string{
		`{"type":"object","properties":{"a":{"$ref":"https://example.com/other.json"}}}`,
		`{"type":"object","properties":{"a":{"$ref":"file://` + filepath.ToSlash(file) + `"}}}`,
		`{"type":"object","properties":{"a":{"$ref":"other.json"}}}`,
		`{"$schema":"https://example.com/my-draft","type":"object"}`,
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`,
		`{"type":"object"`,
	} {
		err := Validate(json.RawMessage(schema), json.RawMessage(`{"a":1}`))
		if err == nil {
			t.Errorf("%s: no error, want one", schema)
			continue
		}
		if strings.Contains(schema, "https://") && !strings.Contains(err.Error(), "not fetched") {
			t.Errorf("%s: error %q does not say the document is not fetched", schema, err)
		}
	}
	if err := Validate(json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"integer"}}}`), json.RawMessage(`{"a":1}`)); err != nil {
		t.Errorf("a local $ref: %v", err)
	}
}
