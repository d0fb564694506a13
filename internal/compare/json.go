package compare

import (
	"encoding/json"
	"io"
)

// JSON writes c as indented JSON.
func JSON(w io.Writer, c *Comparison) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}
