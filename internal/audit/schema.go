package audit

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Validate checks arguments (JSON) against an input schema (JSON) with a
// complete JSON Schema implementation. It returns nil when they are valid;
// an input schema that does not compile is an error too.
func Validate(schema, args json.RawMessage) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return fmt.Errorf("the input schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("input.json", doc); err != nil {
		return fmt.Errorf("the input schema: %v", err)
	}
	sch, err := c.Compile("input.json")
	if err != nil {
		return fmt.Errorf("the input schema does not compile: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return fmt.Errorf("the arguments are not JSON: %v", err)
	}
	return sch.Validate(inst)
}
