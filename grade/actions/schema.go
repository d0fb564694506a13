package actions

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ValidateArgs checks arguments (JSON) against a tool's input schema
// (JSON): whether a server holding to the schema would accept them. It
// returns nil when they are valid, or when there is no schema to hold them
// to (none, or one that does not compile: see [CompileSchema]); the error
// says where they fail.
//
// Arguments that are empty or null are checked as the empty object, which
// is what a client sends for a call without arguments.
func ValidateArgs(schema, args json.RawMessage) error {
	if len(bytes.TrimSpace(schema)) == 0 || string(bytes.TrimSpace(schema)) == "null" {
		return nil
	}
	s, err := CompileSchema(schema)
	if err != nil {
		return nil // a broken schema is the server's fault, not the caller's
	}
	return s.Validate(args)
}

// Schema is a tool's input schema, compiled by [CompileSchema].
type Schema struct {
	s *jsonschema.Schema
}

// CompileSchema compiles a tool's input schema (JSON) with a complete JSON
// Schema implementation (santhosh-tekuri/jsonschema, JSON Schema 2020-12
// unless the schema's $schema names an earlier draft). Nothing is ever
// fetched or read: a $ref to anything outside the schema itself, or a
// $schema that is not a known draft, is an error. A pattern that Go's
// regexp cannot compile (lookaround, backreferences: ECMA-262 syntax that
// schemas generated for JavaScript servers carry) is not checked, rather
// than making the whole schema fail. Formats are annotations, as 2020-12
// says, except in drafts before 2019-09.
//
// Compiled schemas are kept by the hash of their text, so that scoring a
// record compiles each tool's schema once.
func CompileSchema(schema json.RawMessage) (*Schema, error) {
	key := sha256.Sum256(schema)
	if c, ok := compiled.get(key); ok {
		return c.s, c.err
	}
	s, err := compile(schema)
	compiled.put(key, compiledSchema{s, err})
	return s, err
}

// Validate checks arguments (JSON) against the schema. The error lists
// each place they fail ("at /path: why"), sorted, separated by "; ".
func (s *Schema) Validate(args json.RawMessage) error {
	if t := bytes.TrimSpace(args); len(t) == 0 || string(t) == "null" {
		args = json.RawMessage("{}")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	err = s.s.Validate(inst)
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return errors.New(describe(ve))
	}
	return err
}

// schemaURL is where the schema being compiled is said to live: not a
// file, not on a network, and hierarchical, so that a relative $ref
// resolves to another document (which is refused) rather than to itself.
const schemaURL = "mcpeval:///input-schema.json"

func compile(schema json.RawMessage) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("the input schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	c.UseRegexpEngine(lenientRegexp)
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("reading the input schema: %v", err)
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("compiling the input schema: %v", err)
	}
	return &Schema{s}, nil
}

// noLoader refuses every document outside the schema: the default loader
// would read local files.
type noLoader struct{}

func (noLoader) Load(string) (any, error) {
	return nil, errors.New("documents outside the input schema are not fetched")
}

// lenientRegexp compiles a pattern with Go's regexp, and one it cannot
// compile into a pattern that matches everything.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	if re, err := regexp.Compile(s); err == nil {
		return re, nil
	}
	return anything(s), nil
}

type anything string

func (a anything) String() string        { return string(a) }
func (anything) MatchString(string) bool { return true }

var printer = message.NewPrinter(language.English)

// describe lists the innermost failures of a validation error, those that
// say what is wrong, each with the place in the arguments.
func describe(ve *jsonschema.ValidationError) string {
	var out []string
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		msg := "at " + pointer(e.InstanceLocation) + ": " + e.ErrorKind.LocalizedString(printer)
		if !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	walk(ve)
	sort.SliceStable(out, func(i, j int) bool { return out[i] < out[j] })
	return strings.Join(out, "; ")
}

func pointer(loc []string) string {
	if len(loc) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, seg := range loc {
		b.WriteString("/")
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(seg))
	}
	return b.String()
}

// compiledSchemas holds compiled schemas by the hash of their text. It is
// emptied when full: a run shows a few dozen tools, not thousands.
type compiledSchemas struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]compiledSchema
}

type compiledSchema struct {
	s   *Schema
	err error
}

const maxCompiled = 512

var compiled compiledSchemas

func (c *compiledSchemas) get(key [sha256.Size]byte) (compiledSchema, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[key]
	return s, ok
}

func (c *compiledSchemas) put(key [sha256.Size]byte, s compiledSchema) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCompiled {
		c.m = map[[sha256.Size]byte]compiledSchema{}
	}
	c.m[key] = s
}
