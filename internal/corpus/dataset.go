package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// DatasetItem is an item of a dataset kept elsewhere (a Langfuse
// dataset): its id, and its input, expected output and metadata as JSON.
type DatasetItem struct {
	ID                              string
	Input, ExpectedOutput, Metadata json.RawMessage
}

// The shapes mcpeval export --langfuse writes a case's item in; other
// items are read as far as they fit them.
type (
	itemInput struct {
		Prompt string `json:"prompt"`
	}
	itemFigure struct {
		Value    float64 `json:"value"`
		Kind     string  `json:"kind"`
		Currency string  `json:"currency"`
		Unit     string  `json:"unit"`
		Label    string  `json:"label"`
	}
	itemExpected struct {
		Answer      string       `json:"answer"`
		Figures     []itemFigure `json:"figures"`
		Tools       []string     `json:"tools"`
		ExpectTools []string     `json:"expect_tools"`
		Declines    bool         `json:"declines"`
		NoInvented  bool         `json:"no_invented_figures"`
	}
	itemMeta struct {
		Case           string   `json:"case"`
		Group          string   `json:"group"`
		Kind           string   `json:"kind"`
		Suite          string   `json:"suite"`
		ExpectedErrors []string `json:"expected_errors"`
		Verified       *bool    `json:"verified"`
	}
)

// Skipped is an item FromDataset wrote no case for, with why.
type Skipped struct {
	ID, Why string
}

// FromDataset writes a suite file (name: and cases:) holding a case for
// each item of dataset name: its id and group from the item's metadata
// (the item's id when it names no case), its prompt from the input (an
// object's "prompt", or the input when it is text), and its figures, key
// calls and answer, tools, decline and expected errors from the expected
// output and metadata, as mcpeval export --langfuse writes them (an item
// that declares no check gets no_invented_figures, marked). Each is
// verified: false, unless the item's metadata says verified: true.
// Action cases cannot be rebuilt from an item (it holds no steps or
// fixtures), nor an item without a prompt: they are skipped, each with
// why.
func FromDataset(name string, items []DatasetItem) ([]byte, []Skipped) {
	var b bytes.Buffer
	var skipped []Skipped
	suiteName := name
	var cases bytes.Buffer
	n := 0
	for _, it := range items {
		var meta itemMeta
		json.Unmarshal(it.Metadata, &meta)
		var exp itemExpected
		json.Unmarshal(it.ExpectedOutput, &exp)
		prompt := itemPrompt(it.Input)
		switch {
		case prompt == "":
			skipped = append(skipped, Skipped{it.ID, "its input holds no prompt"})
			continue
		case strings.HasPrefix(meta.Kind, "action:"):
			skipped = append(skipped, Skipped{it.ID, "an action case (" + meta.Kind + "): an item holds no steps or fixtures"})
			continue
		}
		if meta.Suite != "" && n == 0 {
			suiteName = meta.Suite
		}
		n++
		id := meta.Case
		if id == "" {
			id = it.ID
		}
		writeItemCase(&cases, id, prompt, meta, exp)
	}
	fmt.Fprintf(&b, "# Written by mcpeval import from the Langfuse dataset %s (%d item%s).\n", oneLine(name), len(items), plural(len(items)))
	b.WriteString("# Nothing here has been checked: check each case, then set verified: true.\n")
	fmt.Fprintf(&b, "name: %s\n", scalar(suiteName))
	if n == 0 {
		b.WriteString("cases: []\n")
		return b.Bytes(), skipped
	}
	b.WriteString("cases:\n")
	b.Write(cases.Bytes())
	return b.Bytes(), skipped
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// itemPrompt is an item's prompt: its input's "prompt", or its input when
// it is text.
func itemPrompt(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var in itemInput
	json.Unmarshal(raw, &in)
	return in.Prompt
}

func writeItemCase(b *bytes.Buffer, id, prompt string, meta itemMeta, exp itemExpected) {
	fmt.Fprintf(b, "  - id: %s\n", scalar(id))
	if meta.Group != "" {
		fmt.Fprintf(b, "    group: %s\n", scalar(meta.Group))
	}
	fmt.Fprintf(b, "    prompt: %s\n", scalar(prompt))
	if meta.Verified != nil && *meta.Verified {
		b.WriteString("    verified: true\n")
	} else {
		b.WriteString("    verified: false\n")
	}
	if meta.Kind == "tool-call" {
		b.WriteString("    mode: tool-call\n")
	}
	if len(exp.ExpectTools) > 0 {
		fmt.Fprintf(b, "    expect_tools: [%s]\n", joinScalars(exp.ExpectTools))
	}
	if len(meta.ExpectedErrors) > 0 {
		fmt.Fprintf(b, "    expected_errors: [%s]\n", joinScalars(meta.ExpectedErrors))
	}
	if exp.Declines {
		b.WriteString("    decline: true\n")
	}
	switch {
	case exp.NoInvented:
		b.WriteString("    no_invented_figures: true\n")
	case !exp.Declines && len(exp.Figures) == 0 && len(exp.ExpectTools) == 0:
		b.WriteString("    # The item declares no check: say what the answer must hold.\n")
		b.WriteString("    no_invented_figures: true\n")
	}
	if len(exp.Figures) > 0 {
		b.WriteString("    figures:\n")
		for _, f := range exp.Figures {
			fields := []string{"value: " + strconv.FormatFloat(f.Value, 'f', -1, 64)}
			for _, kv := range [][2]string{{"kind", f.Kind}, {"currency", f.Currency}, {"unit", f.Unit}, {"label", f.Label}} {
				if kv[1] != "" {
					fields = append(fields, kv[0]+": "+scalar(kv[1]))
				}
			}
			fmt.Fprintf(b, "      - {%s}\n", strings.Join(fields, ", "))
		}
	}
	if len(exp.Tools) == 0 && exp.Answer == "" {
		return
	}
	b.WriteString("    key:\n")
	if len(exp.Tools) > 0 {
		b.WriteString("      calls:\n")
		for _, t := range exp.Tools {
			fmt.Fprintf(b, "        - tool: %s\n", scalar(t))
		}
	}
	if exp.Answer != "" {
		fmt.Fprintf(b, "      answer: %s\n", scalar(exp.Answer))
	}
}
