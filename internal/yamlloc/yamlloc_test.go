package yamlloc

import (
	"errors"
	"testing"

	"go.yaml.in/yaml/v4"
)

func TestProblems(t *testing.T) {
	type doc struct {
		Name string `yaml:"name"`
	}
	for _, c := range []struct {
		name, data string
		known      bool
		want       []Problem
	}{
		{name: "syntax", data: "name: ok\nlist: [1, 2\n", want: []Problem{{Line: 3, Col: 1}}},
		{name: "two unknown fields", data: "name: a\nnmae: b\nage: 3\n", known: true, want: []Problem{{Line: 2, Col: 1}, {Line: 3, Col: 1}}},
		{name: "second document", data: "# head\nname: a\n---\nname: b\n", want: []Problem{{Line: 3, Col: 1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var d doc
			var err error
			if c.known {
				var root yaml.Node
				if err = yaml.Load([]byte(c.data), &root); err == nil {
					err = root.Load(&d, yaml.WithKnownFields())
				}
			} else {
				err = yaml.Load([]byte(c.data), &d)
			}
			if err == nil {
				t.Fatal("yaml accepted the file")
			}
			got := Problems([]byte(c.data), err)
			if len(got) != len(c.want) {
				t.Fatalf("Problems = %+v, want %d problems", got, len(c.want))
			}
			for i, p := range got {
				if p.Line != c.want[i].Line || p.Col != c.want[i].Col || p.Msg == "" {
					t.Errorf("problem %d = %+v, want line %d col %d and a message", i, p, c.want[i].Line, c.want[i].Col)
				}
			}
		})
	}
	if ps := Problems(nil, errors.New("disk on fire")); ps != nil {
		t.Errorf("Problems of a non-YAML error = %+v, want nil", ps)
	}
}

func TestWhere(t *testing.T) {
	data := []byte("a: 1\nb: 2\nc: 3\n")
	for _, c := range []struct {
		name      string
		mark      yaml.Mark
		msg       string
		line, col int
	}{
		{"line given", yaml.Mark{Line: 7, Column: 2}, "", 7, 2},
		{"from the offset", yaml.Mark{Index: 7}, "", 2, 3},
		{"nothing to go by", yaml.Mark{}, "bad", 1, 0},
		{"found multiple, one document", yaml.Mark{}, "expected a single document but found multiple", 1, 0},
	} {
		if line, col := Where(data, c.mark, c.msg); line != c.line || col != c.col {
			t.Errorf("%s: Where = %d:%d, want %d:%d", c.name, line, col, c.line, c.col)
		}
	}
	two := []byte("# note\n---\na: 1\n---\nb: 2\n")
	if line, col := Where(two, yaml.Mark{}, "found multiple documents"); line != 4 || col != 1 {
		t.Errorf("second document at %d:%d, want 4:1", line, col)
	}
}

func TestInvalidUTF8Line(t *testing.T) {
	for _, c := range []struct {
		data string
		want int
	}{
		{"", 0},
		{"a: é\nb: 2\n", 0},
		{"\xff", 1},
		{"a: 1\nb: 2\nc: \xc3\x28\n", 3},
		{"a: 1\n\n\xe2\x82", 3},
	} {
		if got := InvalidUTF8Line([]byte(c.data)); got != c.want {
			t.Errorf("InvalidUTF8Line(%q) = %d, want %d", c.data, got, c.want)
		}
	}
}
