package grade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// checkArgs checks each argument rule: some call of the rule's tool must
// satisfy it. An argument left out is judged at the default the tool's
// input schema declares (properties.<arg>.default), as the server would
// apply it; with no default it satisfies nothing. A call whose arguments
// are not a valid JSON object satisfies nothing.
func checkArgs(c *suite.Case, h *record.Header, calls []record.Call) []Reason {
	var rs []Reason
	for _, rule := range c.Args {
		var seen []string
		ok := false
		for _, call := range calls {
			if call.Name != rule.Tool {
				continue
			}
			v, how := argValue(h, call, rule.Arg)
			if (how == "" || how == "default") && satisfies(rule, v) {
				ok = true
				break
			}
			seen = append(seen, describeArg(v, how))
		}
		if ok {
			continue
		}
		msg := fmt.Sprintf("%s.%s: want %s", rule.Tool, rule.Arg, wantArg(rule))
		if rule.Why != "" {
			msg += " (" + rule.Why + ")"
		}
		if len(seen) == 0 {
			msg += "; " + rule.Tool + " was never called"
		} else {
			msg += "; calls asked for " + strings.Join(counted(seen), ", ")
		}
		rs = append(rs, Reason{CheckArgs, msg})
	}
	return rs
}

// argValue returns the value of arg in call and how it was found: "" when
// written, "default" when read from the schema, "missing" when neither,
// "invalid" when the arguments are not a JSON object.
func argValue(h *record.Header, call record.Call, arg string) (any, string) {
	args := bytes.TrimSpace(call.Args)
	m := map[string]any{}
	if len(args) > 0 && !bytes.Equal(args, []byte("null")) {
		d := json.NewDecoder(bytes.NewReader(args))
		d.UseNumber()
		if err := d.Decode(&m); err != nil || d.More() {
			return nil, "invalid"
		}
	}
	if v, ok := m[arg]; ok {
		return v, ""
	}
	if v, ok := schemaDefault(h, call.Name, arg); ok {
		return v, "default"
	}
	return nil, "missing"
}

// schemaDefault reads properties.<arg>.default from tool's input schema.
func schemaDefault(h *record.Header, tool, arg string) (any, bool) {
	for _, t := range h.Tools {
		if t.Name != tool || len(t.InputSchema) == 0 {
			continue
		}
		var schema struct {
			Properties map[string]map[string]json.RawMessage `json:"properties"`
		}
		if json.Unmarshal(t.InputSchema, &schema) != nil {
			return nil, false
		}
		raw, ok := schema.Properties[arg]["default"]
		if !ok {
			return nil, false
		}
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			return nil, false
		}
		return v, true
	}
	return nil, false
}

func satisfies(rule suite.ArgRule, v any) bool {
	if v == nil && rule.Equals != nil {
		return false
	}
	if rule.Equals != nil && !Equal(v, rule.Equals) {
		return false
	}
	if rule.Min != nil || rule.Max != nil {
		f, ok := number(v)
		if !ok {
			return false
		}
		if rule.Min != nil && f < *rule.Min-1e-9 {
			return false
		}
		if rule.Max != nil && f > *rule.Max+1e-9 {
			return false
		}
	}
	return true
}

// Equal compares an argument as the model wrote it with a value from a
// suite, by value: 7, 7.0 and "7" are equal, strings compare without regard
// to case or surrounding space, true equals "true", and lists and objects
// compare element by element.
func Equal(got, want any) bool {
	return reflect.DeepEqual(normalize(got), normalize(want))
}

// normalize turns every number, and every string or bool that reads as
// one, into a canonical form.
func normalize(v any) any {
	if f, ok := number(v); ok {
		if f == 0 {
			f = 0 // no negative zero
		}
		return f
	}
	switch x := v.(type) {
	case string:
		s := strings.ToLower(strings.TrimSpace(x))
		if s == "true" || s == "false" {
			return s == "true"
		}
		return s
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = normalize(rv.Index(i).Interface())
		}
		return out
	case reflect.Map:
		out := map[string]any{}
		for _, k := range rv.MapKeys() {
			out[fmt.Sprint(k.Interface())] = normalize(rv.MapIndex(k).Interface())
		}
		return out
	}
	return v
}

// number reads v as a number: a JSON or Go number, or a string that is one.
func number(v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		var err error
		f, err = strconv.ParseFloat(string(x), 64)
		if err != nil {
			return 0, false
		}
	case string:
		var err error
		f, err = strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return 0, false
		}
	case float64:
		f = x
	case float32:
		f = float64(x)
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case int32:
		f = float64(x)
	case uint64:
		f = float64(x)
	case uint:
		f = float64(x)
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

func wantArg(r suite.ArgRule) string {
	var parts []string
	if r.Equals != nil {
		parts = append(parts, "= "+showValue(r.Equals))
	}
	switch {
	case r.Min != nil && r.Max != nil:
		parts = append(parts, fmt.Sprintf("between %s and %s", fnum(*r.Min), fnum(*r.Max)))
	case r.Min != nil:
		parts = append(parts, "≥ "+fnum(*r.Min))
	case r.Max != nil:
		parts = append(parts, "≤ "+fnum(*r.Max))
	}
	return strings.Join(parts, " and ")
}

func describeArg(v any, how string) string {
	switch how {
	case "invalid":
		return "arguments that are not a JSON object"
	case "missing":
		return "nothing (left out, and the schema declares no default)"
	case "default":
		return "nothing (left out: default " + showValue(v) + ")"
	}
	return showValue(v)
}

func showValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case json.Number:
		return x.String()
	case float64:
		return fnum(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func fnum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// counted collapses repeats, keeping first-seen order: [6 6 7] → [6 (2
// calls) 7].
func counted(xs []string) []string {
	n := map[string]int{}
	var order []string
	for _, x := range xs {
		if n[x] == 0 {
			order = append(order, x)
		}
		n[x]++
	}
	for i, x := range order {
		if n[x] > 1 {
			order[i] = fmt.Sprintf("%s (%d calls)", x, n[x])
		}
	}
	return order
}
