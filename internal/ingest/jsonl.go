package ingest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpeval/mcpeval/record"
)

// ReadJSONL reads conversations written one per line in the record's
// attempt shape (record.Attempt: prompt, turns with their calls, answer,
// end). A line may also be a record's own line ({"attempt": {...}}), so
// that a record.jsonl reads as it is; its header and end lines are
// skipped. The case a line names (case) is kept as the attribute
// mcpeval.case.id for matching by attribute, and dropped from the attempt.
// name is the file's name, for messages.
func ReadJSONL(r io.Reader, name string) ([]Conversation, error) {
	br := bufio.NewReader(r)
	var convs []Conversation
	for n := 1; ; n++ {
		line, err := record.ReadLine(br)
		if len(line) > 0 && string(line) != "\n" {
			c, ok, perr := jsonlLine(line)
			if perr != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, perr)
			}
			if ok {
				c.From = fmt.Sprintf("%s:%d", name, n)
				convs = append(convs, c)
			}
		}
		if err == io.EOF {
			return convs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
	}
}

func jsonlLine(line []byte) (Conversation, bool, error) {
	var wrapped struct {
		Header  json.RawMessage `json:"header"`
		Attempt *record.Attempt `json:"attempt"`
		End     json.RawMessage `json:"end"`
	}
	if err := json.Unmarshal(line, &wrapped); err != nil {
		return Conversation{}, false, fmt.Errorf("not a JSON object: %w", err)
	}
	if wrapped.Header != nil || wrapped.End != nil {
		return Conversation{}, false, nil
	}
	a := wrapped.Attempt
	if a == nil {
		a = &record.Attempt{}
		if err := json.Unmarshal(line, a); err != nil {
			return Conversation{}, false, fmt.Errorf("not an attempt: %w", err)
		}
	}
	if a.Prompt == "" && len(a.Turns) == 0 && a.Answer == "" {
		return Conversation{}, false, fmt.Errorf("an attempt has a prompt, turns or an answer: this line has none")
	}
	c := Conversation{Attrs: map[string]string{}}
	if a.Case != "" {
		c.Attrs[CaseAttribute] = a.Case
	}
	a.Case, a.N = "", 0
	if a.End == "" {
		a.End = record.EndAnswered
	}
	// A call that does not say whether the model was shown its tool was:
	// traffic calls the tools it has.
	var given struct {
		Turns []struct {
			Calls []map[string]json.RawMessage `json:"calls"`
		} `json:"turns"`
	}
	if wrapped.Attempt == nil {
		json.Unmarshal(line, &given)
	}
	for i := range a.Turns {
		for j := range a.Turns[i].Calls {
			call := &a.Turns[i].Calls[j]
			if len(call.Args) == 0 {
				call.Args = json.RawMessage("{}")
			}
			if i < len(given.Turns) && j < len(given.Turns[i].Calls) {
				if _, ok := given.Turns[i].Calls[j]["shown"]; !ok {
					call.Shown = true
				}
			}
		}
	}
	c.Attempt = *a
	return c, true, nil
}
