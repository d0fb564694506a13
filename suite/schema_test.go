package suite

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v4"
)

// The editor schema (docs/suite.schema.json) and the reference
// (docs/suite.md) describe what this package loads. These tests keep the
// three in step: the schema names every field the loader accepts and no
// other, every example in the reference validates and loads, and every
// suite in the repository validates.

const (
	schemaFile = "../docs/suite.schema.json"
	docFile    = "../docs/suite.md"
)

// schemaJSON reads the schema as plain JSON, to walk its definitions.
func schemaJSON(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	return doc
}

// compiledSchema compiles the schema under draft 2020-12.
func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "mcpeval:///suite.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compiling %s: %v", schemaFile, err)
	}
	return s
}

// validateYAML validates a YAML document against the schema, as an editor
// would see it: YAML read into plain values, then as JSON.
func validateYAML(s *jsonschema.Schema, data []byte) error {
	var v any
	if err := yaml.Load(data, &v); err != nil {
		return fmt.Errorf("reading YAML: %w", err)
	}
	b, err := json.Marshal(jsonable(v))
	if err != nil {
		return fmt.Errorf("as JSON: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// jsonable turns the maps YAML may give (with keys that are not strings)
// into maps JSON can hold.
func jsonable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = jsonable(e)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = jsonable(e)
		}
	}
	return v
}

// schemaDefs maps the Go types the loader reads to the schema's
// definitions. Every other type of this package met while walking is
// expected under its own name.
var schemaDefs = map[reflect.Type]string{
	reflect.TypeFor[fileHead](): "suiteFile",
	reflect.TypeFor[caseFile](): "caseFile",
}

// nodeFields are fields the loader reads as raw YAML nodes and then loads
// as another type.
var nodeFields = map[string]reflect.Type{
	"fileHead.cases": reflect.TypeFor[Case](),
	"caseFile.cases": reflect.TypeFor[Case](),
}

// yamlField is one key a struct accepts, and the Go field it fills.
type yamlField struct {
	key   string
	field reflect.StructField
}

// yamlFields lists the keys the YAML decoder accepts for struct type t,
// with inline structs flattened as the decoder flattens them.
func yamlFields(t reflect.Type) []yamlField {
	var out []yamlField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(","+opts+",", ",inline,") {
			out = append(out, yamlFields(f.Type)...)
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out = append(out, yamlField{name, f})
	}
	return out
}

var (
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	suitePkg        = reflect.TypeFor[Suite]().PkgPath()
)

// customShape reports whether t reads itself from YAML (so it may accept
// more than a mapping).
func customShape(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	if p.Implements(textUnmarshaler) {
		return true
	}
	_, ok := p.MethodByName("UnmarshalYAML")
	return ok
}

// elemType follows pointers, slices and map values to the type a field's
// values are read as.
func elemType(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			if t.Name() != "" && t.PkgPath() == suitePkg {
				return t // a named list such as Paths reads itself
			}
			t = t.Elem()
		default:
			return t
		}
	}
}

// defName is the schema definition Go type t is described by.
func defName(t reflect.Type) string {
	if n, ok := schemaDefs[t]; ok {
		return n
	}
	return t.Name()
}

// objectProps returns the properties of definition def: of the definition
// itself, or of its object branch when it accepts more than one shape.
func objectProps(def map[string]any) (map[string]any, map[string]any) {
	if p, ok := def["properties"].(map[string]any); ok {
		return p, def
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		branches, _ := def[k].([]any)
		for _, b := range branches {
			bm, _ := b.(map[string]any)
			if p, ok := bm["properties"].(map[string]any); ok {
				return p, bm
			}
		}
	}
	return nil, nil
}

// refsTo reports whether schema x refers to definition name anywhere in it.
func refsTo(x any, name string) bool {
	switch x := x.(type) {
	case map[string]any:
		if x["$ref"] == "#/$defs/"+name {
			return true
		}
		for _, e := range x {
			if refsTo(e, name) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if refsTo(e, name) {
				return true
			}
		}
	}
	return false
}

// TestSchemaFieldsMatchLoader walks the types the loader reads, from the
// top of a suite file and of a case file, by their yaml tags: every key
// they accept must be a property of the matching schema definition, refer
// to the definition of its own type, and every property of a definition
// must be a key the loader accepts. Every definition named after a Go type
// must be reached, and every object must refuse other keys.
func TestSchemaFieldsMatchLoader(t *testing.T) {
	doc := schemaJSON(t)
	defs, _ := doc["$defs"].(map[string]any)
	if defs == nil {
		t.Fatalf("%s has no $defs", schemaFile)
	}
	if got := doc["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema is %v: want draft 2020-12", got)
	}
	reached := map[string]bool{}
	var walk func(t reflect.Type)
	walk = func(typ reflect.Type) {
		name := defName(typ)
		if reached[name] {
			return
		}
		reached[name] = true
		def, ok := defs[name].(map[string]any)
		if !ok {
			t.Errorf("the loader reads %s, which the schema does not define ($defs.%s)", typ, name)
			return
		}
		props, obj := objectProps(def)
		if props == nil {
			t.Errorf("$defs.%s has no properties: the loader reads %s as a mapping", name, typ)
			return
		}
		if obj["additionalProperties"] != false {
			t.Errorf("$defs.%s does not set additionalProperties: false, so a misspelt key is not caught", name)
		}
		accepted := map[string]bool{}
		for _, yf := range yamlFields(typ) {
			accepted[yf.key] = true
			prop, ok := props[yf.key]
			if !ok {
				t.Errorf("the loader accepts %s in %s (field %s.%s), but $defs.%s has no property %s", yf.key, name, typ.Name(), yf.field.Name, name, yf.key)
				continue
			}
			ft := elemType(yf.field.Type)
			if nt, ok := nodeFields[typ.Name()+"."+yf.key]; ok {
				ft = nt
			}
			if ft.PkgPath() != suitePkg || ft.Name() == "" {
				continue
			}
			if sub := defName(ft); !refsTo(prop, sub) {
				t.Errorf("$defs.%s.properties.%s does not refer to #/$defs/%s, the type the loader reads it as", name, yf.key, sub)
			}
			if e := ft.Elem; ft.Kind() == reflect.Slice && e().Kind() == reflect.Struct && e().PkgPath() == suitePkg {
				walk(e()) // a list that reads itself, of mappings
			}
			if ft.Kind() != reflect.Struct || (customShape(ft) && reflect.PointerTo(ft).Implements(textUnmarshaler)) {
				reached[defName(ft)] = true // a scalar or a list: no properties to match
				continue
			}
			walk(ft)
		}
		var extra []string
		for p := range props {
			if !accepted[p] {
				extra = append(extra, p)
			}
		}
		sort.Strings(extra)
		for _, p := range extra {
			t.Errorf("$defs.%s has property %s, which the loader does not accept in %s", name, p, typ)
		}
	}
	walk(reflect.TypeFor[fileHead]())
	walk(reflect.TypeFor[caseFile]())

	var names []string
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		// Definitions named in lower case are helpers (lists of names);
		// those named after a Go type must describe one the loader reads.
		if n[0] >= 'A' && n[0] <= 'Z' && !reached[n] {
			t.Errorf("$defs.%s describes no type the loader reads", n)
		}
	}
	// A file with cases only is a file of cases; any other is suite
	// settings, which need a name.
	if !refsTo(doc["then"], "caseFile") || !refsTo(doc["else"], "suiteFile") {
		t.Errorf("the schema's top level is not a file of cases (cases only) or else the suite settings: then %v, else %v", doc["then"], doc["else"])
	}
}

// TestSchemaShapes checks a few documents both ways: what the loader
// accepts the schema accepts, and what the loader refuses for its shape
// the schema refuses too.
func TestSchemaShapes(t *testing.T) {
	s := compiledSchema(t)
	const head = "name: x\n"
	const decline = "cases:\n  - id: a/b\n    prompt: Is it there?\n    decline: true\n"
	const write = "allow_writes: true\ncases:\n  - id: w/b\n    prompt: Make note {{token}}.\n    action:\n      kind: sequence\n      steps:\n        - tool: find\n        - tool: t\n          args:\n"
	tests := []struct {
		name string
		yaml string
		ok   bool
	}{
		{"target as a string", head + "target: builtin:household\n" + decline, true},
		{"target as a mapping", head + "target: {spec: \"stdio:srv --x\", env: {A: \"${B}\"}, dir: ., inherit_env: false, connect_timeout: 45s}\n" + decline, true},
		{"target as a list", head + "target: [a]\n" + decline, false},
		{"target with an unknown key", head + "target: {spec: x, envs: {}}\n" + decline, false},
		{"tolerances as text and numbers", head + "tolerances: {money: 1%, percent: 0.1}\n" + decline, true},
		{"an absolute money tolerance", head + "tolerances: {money: 500}\n" + decline, true},
		{"a tolerance that is not a number", head + "tolerances: {money: lots}\n" + decline, false},
		{"produced as a list of paths", head + write + "            name: {produced: [a.id, b.id]}\n", true},
		{"an argument source with an unknown key", head + write + "            name: {literal: \"{{token}}\", lateral: 1}\n", false},
		{"answer as a string", head + "cases:\n  - id: a/b\n    prompt: Which?\n    answer: yes\n", false},
		{"settings without cases", "name: x\nattempts: 3\n", true},
		{"a figure with an unknown kind", head + "cases:\n  - id: a/b\n    prompt: How much?\n    figures: [{value: 3, kind: euros}]\n", false},
		{"a mode that does not exist", head + "cases:\n  - id: a/b\n    prompt: How much?\n    mode: chat\n    decline: true\n", false},
		{"tool_results", head + "tool_results: text+structured\n" + decline, true},
		{"numbers as a language tag", head + "numbers: de-CH\n" + decline, true},
		{"numbers not a language tag", head + "numbers: de_DE\n" + decline, false},
		{"numbers as a list", head + "numbers: [de]\n" + decline, false},
		{"tool_errors note", head + "tool_errors: note\n" + decline, true},
		{"sampling by another model", head + "sampling: {model: \"anthropic:claude-haiku-4-5;max_tokens=512\"}\n" + decline, true},
		{"sampling by a model without a provider", head + "sampling: {model: perfect}\n" + decline, false},
		{"sampling with an unknown key", head + "sampling: {model: fake:perfect, max_tokens: 5}\n" + decline, false},
		{"tool_errors that is not fail or note", head + "tool_errors: ignore\n" + decline, false},
		{"decline_phrases", head + "decline_phrases: [not permitted, \"against policy\"]\n" + decline, true},
		{"an empty decline phrase", head + "decline_phrases: [\" \"]\n" + decline, false},
		{"decline_phrases as a string", head + "decline_phrases: not permitted\n" + decline, false},
		{"a case without an id", head + "cases:\n  - prompt: Which?\n    decline: true\n", false},
		{"a file of cases", decline, true},
		{"a file of cases with a typo", "cases:\n  - id: a/b\n    prompt: Which?\n    declines: true\n", false},
		{"settings without a name", "attempts: 3\n" + decline, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validateYAML(s, []byte(tt.yaml))
			if (err == nil) != tt.ok {
				t.Errorf("schema: ok=%v, want %v: %v\n%s", err == nil, tt.ok, err, tt.yaml)
			}
			files := fstest.MapFS{"suite.yaml": {Data: []byte(tt.yaml)}}
			if strings.HasPrefix(tt.yaml, "cases:") {
				// A file of cases, read beside the suite's settings.
				files = fstest.MapFS{"suite.yaml": {Data: []byte(head)}, "cases.yaml": {Data: []byte(tt.yaml)}}
			}
			_, lerr := LoadFS(files, ".", "suite")
			if (lerr == nil) != tt.ok {
				t.Errorf("loader: ok=%v, want %v: %v\n%s", lerr == nil, tt.ok, lerr, tt.yaml)
			}
		})
	}
}

// docExample is a ```yaml block of the reference.
type docExample struct {
	line     int    // the line of its first line of YAML
	fragment string // "" for a whole suite.yaml, else case, cases or settings
	text     string
}

var fragmentRE = regexp.MustCompile(`^#\s*fragment:\s*(\S+)\s*$`)

// docExamples returns the ```yaml blocks of the reference.
func docExamples(t *testing.T) []docExample {
	t.Helper()
	f, err := os.Open(docFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docExample
	var cur *docExample
	var b strings.Builder
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```yaml":
			cur = &docExample{line: n + 1}
			b.Reset()
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.text = b.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			if b.Len() == 0 {
				if m := fragmentRE.FindStringSubmatch(line); m != nil {
					cur.fragment = m[1]
				}
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s:%d: a ```yaml block is not closed", docFile, cur.line-1)
	}
	return out
}

// indentCase makes a case written as a mapping an item of a cases list.
func indentCase(text string) string {
	var b strings.Builder
	first := true
	for _, l := range strings.SplitAfter(text, "\n") {
		switch {
		case l == "":
		case first && strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "#"):
			b.WriteString("  - " + l)
			first = false
		default:
			b.WriteString("    " + l)
		}
	}
	return b.String()
}

// TestDocExamples validates every ```yaml example of docs/suite.md
// against the schema and loads it. An example is a whole suite.yaml
// unless its first line says it is a fragment:
//
//	# fragment: case      one case (a mapping), loaded as the only case of a suite
//	# fragment: cases     a further file of cases, loaded beside a suite.yaml
//	# fragment: settings  suite settings without a name (and maybe without cases)
func TestDocExamples(t *testing.T) {
	s := compiledSchema(t)
	examples := docExamples(t)
	if len(examples) < 20 {
		t.Fatalf("%s has %d yaml examples: want one for every field (at least 20)", docFile, len(examples))
	}
	const wrapName = "name: example\n"
	const wrapCase = "cases:\n  - id: example/decline\n    prompt: Is there an answer?\n    decline: true\n"
	for _, ex := range examples {
		at := fmt.Sprintf("%s:%d", docFile, ex.line)
		var doc []byte         // what an editor validates
		var files fstest.MapFS // what the loader reads
		switch ex.fragment {
		case "":
			doc = []byte(ex.text)
			files = fstest.MapFS{"suite.yaml": {Data: doc}}
		case "settings":
			text := wrapName + ex.text
			if !hasTopKey(ex.text, "cases") {
				text += wrapCase
			}
			doc = []byte(text)
			files = fstest.MapFS{"suite.yaml": {Data: doc}}
		case "case":
			doc = []byte(wrapName + "allow_writes: true\ncases:\n" + indentCase(ex.text))
			files = fstest.MapFS{"suite.yaml": {Data: doc}}
		case "cases":
			doc = []byte(ex.text)
			files = fstest.MapFS{"suite.yaml": {Data: []byte(wrapName)}, "cases.yaml": {Data: doc}}
		default:
			t.Errorf("%s: fragment %q: want case, cases or settings", at, ex.fragment)
			continue
		}
		for name, data := range docDataFiles(t) { // what a cases_from names
			files[name] = &fstest.MapFile{Data: data}
		}
		if err := validateYAML(s, doc); err != nil {
			t.Errorf("%s: the example does not validate against the schema: %v\n%s", at, err, numbered(doc))
		}
		if _, err := LoadFS(files, ".", "example"); err != nil {
			t.Errorf("%s: the example does not load: %v\n%s", at, err, numbered(doc))
		}
	}
}

// numbered writes text with line numbers, as the loader's errors count
// them.
func numbered(text []byte) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}

// hasTopKey reports whether YAML text has key at its top level.
func hasTopKey(text, key string) bool {
	return topLineOf([]byte(text), key) > 0
}

// TestRepoSuitesValidate validates every suite in the repository against
// the schema: each folder with a suite.yaml that loads (all its files),
// and each single YAML file that loads as a suite.
func TestRepoSuitesValidate(t *testing.T) {
	s := compiledSchema(t)
	root := ".."
	var yamls []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if p != root && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "fuzz") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") {
			yamls = append(yamls, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	inFolder := map[string]bool{}
	suites := 0
	for _, p := range yamls {
		if filepath.Base(p) != "suite.yaml" {
			continue
		}
		dir := filepath.Dir(p)
		if _, err := Load(dir); err != nil {
			continue // not a suite folder; its suite.yaml is tried alone below
		}
		suites++
		files, err := suiteFiles(os.DirFS(dir), ".")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			inFolder[filepath.Join(dir, f)] = true
		}
	}
	for _, p := range yamls {
		if !inFolder[p] {
			if _, err := Load(p); err != nil {
				continue // not a suite: a fixture, a seed, an overlay
			}
			suites++
			inFolder[p] = true
		}
	}
	var checked []string
	for p := range inFolder {
		checked = append(checked, p)
	}
	sort.Strings(checked)
	for _, p := range checked {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := validateYAML(s, data); err != nil {
			t.Errorf("%s loads as a suite but does not validate against the schema: %v", p, err)
		}
	}
	// The builtin suites, memory, the examples and the test suites.
	if suites < 10 {
		t.Errorf("found %d suites in the repository (%s): want at least 10", suites, strings.Join(checked, ", "))
	}
	t.Logf("validated %d files of %d suites", len(checked), suites)
}
