package suite

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// csvColumn is one column of a CSV file of cases: the keys and list item
// numbers its name walks (tools.required, key.calls.1.args.month), and how
// its cells are read.
type csvColumn struct {
	name string
	path []csvStep
	// list: the field is a list of values, its items in one cell
	// separated by semicolons.
	list bool
	// text: the field (or the list's items) is text, so a cell that
	// reads as a number or true stays text.
	text bool
}

// csvStep is a key of a mapping, or (Item > 0) the number of a list's
// item, from 1.
type csvStep struct {
	Key  string
	Item int
}

// csvCases reads a CSV file of cases: a header row naming the fields, then
// one case a row.
func (l *loader) csvCases(s *Suite, file string, data []byte) {
	r := csv.NewReader(bytes.NewReader(trimBOM(data)))
	r.FieldsPerRecord = -1 // a row may leave out trailing empty cells
	header, err := r.Read()
	if err == io.EOF {
		l.errorf(file, 0, 0, "file has no cases: want a header row naming the fields (id,prompt,...), then one case a row")
		return
	}
	if err != nil {
		l.csvErr(file, err)
		return
	}
	cols, ok := l.csvHeader(file, header)
	if !ok {
		return
	}
	if l.csvCols == nil {
		l.csvCols = map[string][]string{}
	}
	l.csvCols[file] = header
	found := false
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			l.csvErr(file, err)
			return // the reader cannot go on past a broken quote
		}
		line, _ := r.FieldPos(0)
		n, err := csvRow(cols, rec, line)
		if err != nil {
			l.errorf(file, line, 0, "%v", err)
			found = true
			continue
		}
		if n == nil {
			continue // every cell empty
		}
		found = true
		l.caseNode(s, n, file)
	}
	if !found {
		l.errorf(file, 1, 0, "file has no cases: want one case a row under the header")
	}
}

func (l *loader) csvErr(file string, err error) {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		l.errorf(file, pe.Line, 0, "not CSV: %v (at character %d)", pe.Err, pe.Column)
		return
	}
	l.errorf(file, 0, 0, "reading: %v", err)
}

// csvHeader reads the header row: each column a field of a case, written
// as a dotted path. Problems are reported at line 1, naming the column.
func (l *loader) csvHeader(file string, header []string) ([]csvColumn, bool) {
	ok := true
	cols := make([]csvColumn, len(header))
	seen := map[string]bool{}
	for i, name := range header {
		at := func(format string, args ...any) {
			l.errorf(file, 1, 0, "column %q: %s", name, fmt.Sprintf(format, args...))
			ok = false
		}
		if strings.TrimSpace(name) != name || name == "" {
			at("want a field name with no space around it, such as prompt or key.calls.1.tool")
			continue
		}
		if seen[name] {
			at("named twice in the header")
			continue
		}
		seen[name] = true
		c, err := csvPath(name)
		if err != nil {
			at("%v", err)
			continue
		}
		cols[i] = c
	}
	if ok && !seen["id"] {
		l.errorf(file, 1, 0, "the header names no id column: every case needs id")
		ok = false
	}
	return cols, ok
}

// csvPath reads a column name as the path of a field of a case.
func csvPath(name string) (csvColumn, error) {
	c := csvColumn{name: name}
	segs := strings.Split(name, ".")
	t := reflect.TypeFor[Case]()
	for i, seg := range segs {
		t = deref(t)
		where := strings.Join(segs[:i], ".")
		if seg == "" {
			return c, errors.New("an empty name between dots: want names such as key.calls.1.tool")
		}
		switch {
		case isText(t):
			return c, fmt.Errorf("%s holds one value, which has no field %q", where, seg)
		case t.Kind() == reflect.Struct:
			ft, ok := yamlFieldType(t, seg)
			if !ok && ownReader(t) {
				// The type reads itself (tool_choice, elicitation): the
				// rest of the name is passed on as written, and the type
				// says what it does not know.
				for _, k := range segs[i:] {
					c.path = append(c.path, csvStep{Key: k})
				}
				return c, nil
			}
			if !ok {
				return c, fmt.Errorf("unknown field %q in %s%s", seg, friendlyType(t.String()), didYouMean(seg, t.String(), t))
			}
			c.path = append(c.path, csvStep{Key: seg})
			t = ft
		case t.Kind() == reflect.Map:
			c.path = append(c.path, csvStep{Key: seg})
			t = t.Elem()
		case t.Kind() == reflect.Slice:
			n, err := strconv.Atoi(seg)
			switch {
			case isValue(t.Elem()):
				return c, fmt.Errorf("%s is a list of values: write them in its own column, separated by ; (as %s)", where, where)
			case err != nil || n < 1:
				return c, fmt.Errorf("%s is a list: name an item by its number from 1, then its field (as %s.1.%s)", where, where, seg)
			}
			c.path = append(c.path, csvStep{Item: n})
			t = t.Elem()
		default:
			return c, fmt.Errorf("%s holds one value, which has no field %q", where, seg)
		}
	}
	t = deref(t)
	switch {
	case isText(t):
		c.text = true
	case t.Kind() == reflect.Slice && isValue(t.Elem()):
		c.list, c.text = true, deref(t.Elem()).Kind() == reflect.String
	case t.Kind() == reflect.String:
		c.text = true
	case t.Kind() == reflect.Slice:
		return c, fmt.Errorf("a list of mappings: name each item's fields, numbered from 1 (as %s.1.FIELD)", name)
	case t.Kind() == reflect.Map || (t.Kind() == reflect.Struct && !ownReader(t)):
		return c, fmt.Errorf("a mapping: name its fields, one a column (as %s.FIELD)", name)
	}
	return c, nil
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// isValue reports whether t is written as one value: text, a number, a
// boolean, or any value (an argument's).
func isValue(t reflect.Type) bool {
	if isText(t) {
		return true
	}
	switch deref(t).Kind() {
	case reflect.Struct, reflect.Map, reflect.Slice, reflect.Array:
		return false
	}
	return true
}

// isText reports whether t is read from one text (a tolerance: 0.25%).
func isText(t reflect.Type) bool {
	_, ok := reflect.PointerTo(deref(t)).MethodByName("UnmarshalText")
	return ok
}

// ownReader reports whether t reads itself from YAML, and so may take a
// value where its fields would go (tool_choice: any).
func ownReader(t reflect.Type) bool {
	_, ok := reflect.PointerTo(t).MethodByName("UnmarshalYAML")
	return ok
}

// yamlFieldType returns the type of the field a YAML document names key
// in struct type t, those of inlined structs included.
func yamlFieldType(t reflect.Type, key string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if strings.Contains(","+opts+",", ",inline,") {
			if ft := deref(f.Type); ft.Kind() == reflect.Struct {
				if t, ok := yamlFieldType(ft, key); ok {
					return t, true
				}
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		if name == key {
			return f.Type, true
		}
	}
	return nil, false
}

// cellTree is a case being built from a row's cells: a value, a mapping
// or a list.
type cellTree struct {
	col   int // the first column under it, from 1
	leaf  *yaml.Node
	keys  []string
	sub   map[string]*cellTree
	items map[int]*cellTree
}

// csvRow makes the case node of one row (nil when every cell is empty).
// Every node is on the row's line, at its column's number, so that a
// problem found loading it names the column.
func csvRow(cols []csvColumn, rec []string, line int) (*yaml.Node, error) {
	if len(rec) > len(cols) {
		for i := len(cols); i < len(rec); i++ {
			if strings.TrimSpace(rec[i]) != "" {
				return nil, fmt.Errorf("the row has %d cells, but the header names %d columns", len(rec), len(cols))
			}
		}
	}
	root := &cellTree{col: 1}
	filled := false
	for i, cell := range rec[:min(len(rec), len(cols))] {
		if strings.TrimSpace(cell) == "" {
			continue
		}
		filled = true
		if err := root.put(cols[i].path, cols[i].leaf(cell, line, i+1), i+1); err != nil {
			return nil, fmt.Errorf("column %q: %w", cols[i].name, err)
		}
	}
	if !filled {
		return nil, nil
	}
	return root.node(line), nil
}

// leaf is the node of one non-empty cell.
func (c csvColumn) leaf(cell string, line, col int) *yaml.Node {
	value := func(v string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line, Column: col}
		if !c.text {
			n.Value = strings.TrimSpace(v)
			n.Tag = cellTag(n.Value)
		}
		return n
	}
	if !c.list {
		return value(cell)
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: line, Column: col}
	for _, item := range strings.Split(cell, ";") {
		if item = strings.TrimSpace(item); item != "" {
			seq.Content = append(seq.Content, value(item))
		}
	}
	return seq
}

// cellTag is how a cell that is not text reads: a whole number, a
// decimal number, true or false, else text. Nothing else YAML would read
// into a plain value (a date, null, 0x1F) is: a cell stays what it says.
func cellTag(v string) string {
	switch {
	case v == "true" || v == "false":
		return "!!bool"
	case strings.Trim(v, "+-0123456789") == "":
		if _, err := strconv.ParseInt(v, 10, 64); err == nil {
			return "!!int"
		}
	case strings.Trim(v, "+-0123456789.eE") == "":
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return "!!float"
		}
	}
	return "!!str"
}

func (t *cellTree) put(path []csvStep, leaf *yaml.Node, col int) error {
	if len(path) == 0 {
		if t.leaf != nil || t.sub != nil || t.items != nil {
			return errors.New("another column fills the same field: keep one")
		}
		t.leaf, t.col = leaf, col
		return nil
	}
	if t.leaf != nil {
		return errors.New("another column gives this field one value: keep one")
	}
	st := path[0]
	var next *cellTree
	if (st.Item > 0 && t.sub != nil) || (st.Item == 0 && t.items != nil) {
		return errors.New("another column writes this field as a list and this one as a mapping: keep one")
	}
	if st.Item > 0 {
		if t.items == nil {
			t.items = map[int]*cellTree{}
		}
		if next = t.items[st.Item]; next == nil {
			next = &cellTree{col: col}
			t.items[st.Item] = next
		}
	} else {
		if t.sub == nil {
			t.sub = map[string]*cellTree{}
		}
		if next = t.sub[st.Key]; next == nil {
			next = &cellTree{col: col}
			t.sub[st.Key] = next
			t.keys = append(t.keys, st.Key)
		}
	}
	return next.put(path[1:], leaf, col)
}

// node makes the YAML node of t: a list's items in their numbers' order,
// an item whose cells are all empty left out.
func (t *cellTree) node(line int) *yaml.Node {
	switch {
	case t.leaf != nil:
		return t.leaf
	case t.items != nil:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: line, Column: t.col}
		nums := make([]int, 0, len(t.items))
		for k := range t.items {
			nums = append(nums, k)
		}
		slices.Sort(nums)
		for _, k := range nums {
			n.Content = append(n.Content, t.items[k].node(line))
		}
		return n
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line, Column: t.col}
	for _, k := range t.keys {
		sub := t.sub[k]
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Line: line, Column: sub.col}, sub.node(line))
	}
	return n
}
