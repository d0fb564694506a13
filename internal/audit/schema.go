package audit

import (
	"encoding/json"

	"github.com/mcpeval/mcpeval/grade/actions"
)

// Validate checks arguments (JSON) against an input schema (JSON) with the
// validator scoring uses ([actions.CompileSchema]), so that a suite check
// and a score never disagree. It returns nil when they are valid; unlike
// scoring, which cannot hold arguments to a broken schema, an input schema
// that does not compile (or refers to a document outside itself, which is
// never fetched) is an error here: the suite's author should know.
func Validate(schema, args json.RawMessage) error {
	s, err := actions.CompileSchema(schema)
	if err != nil {
		return err
	}
	return s.Validate(args)
}
