package suite

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcpeval/mcpeval/internal/yamlloc"
	"go.yaml.in/yaml/v4"
)

// Case data files: a suite's cases_from names files of cases written as
// data rather than YAML, JSON Lines (.jsonl, one case object a line) and
// CSV (.csv, a header row naming the fields, then one case a row). Each
// row becomes the same YAML node a case of a suite file is, so every
// field, default and check of a case holds alike whatever file it came
// from, and each problem is placed at FILE:LINE (and, for CSV, the
// column).

// casesFrom reads the files the suite's cases_from names, relative to the
// suite file first read (dir in fsys, shownDir as errors name it).
func (l *loader) casesFrom(s *Suite, suiteFile, shown string) {
	if len(s.CasesFrom) == 0 {
		return
	}
	l.data = nil // a case data file's errors carry their lines
	data, err := fs.ReadFile(l.fsys, suiteFile)
	if err != nil {
		return // reported when the file was read
	}
	lines := map[int]int{}
	if seq := nodeAt(rootNode(data), "cases_from"); seq != nil && seq.Kind == yaml.SequenceNode {
		for i, n := range seq.Content {
			lines[i] = n.Line
		}
	}
	dir, shownDir := path.Dir(suiteFile), filepath.Dir(shown)
	seen := map[string]bool{}
	for i, rel := range s.CasesFrom {
		at := func(format string, args ...any) {
			l.errorf(shown, lines[i], 0, "cases_from %q: %s", rel, fmt.Sprintf(format, args...))
		}
		name := path.Join(dir, rel)
		ext := strings.ToLower(path.Ext(rel))
		switch {
		case strings.TrimSpace(rel) == "":
			at("want a file name, such as more.cases.jsonl")
			continue
		case strings.Contains(rel, `\`) || path.IsAbs(rel) || !fs.ValidPath(name):
			at("want a path inside the suite's folder, written with /")
			continue
		case ext != ".jsonl" && ext != ".csv":
			at("want a .jsonl (one case a line) or .csv (a header row, then one case a row) file; cases in YAML go in the suite folder's .yaml files")
			continue
		case seen[name]:
			at("named twice")
			continue
		}
		seen[name] = true
		file := filepath.Join(shownDir, filepath.FromSlash(rel))
		raw, err := fs.ReadFile(l.fsys, name)
		if err != nil {
			at("reading: %v", err)
			continue
		}
		if !l.dataFile(file, name, raw) {
			continue
		}
		if ext == ".jsonl" {
			l.jsonlCases(s, file, raw)
		} else {
			l.csvCases(s, file, raw)
		}
	}
}

// dataFile checks a case data file's size and encoding and adds it to the
// suite's hash; false when it cannot be read as cases.
func (l *loader) dataFile(file, name string, data []byte) bool {
	if len(data) > MaxFileSize {
		l.errorf(file, 0, 0, "file is %d bytes, more than the %d a suite file may have", len(data), MaxFileSize)
		return false
	}
	if line := yamlloc.InvalidUTF8Line(data); line > 0 {
		l.errorf(file, line, 0, "not valid UTF-8: a suite is UTF-8 text")
		return false
	}
	fmt.Fprintf(l.hash, "%s\x00%d\x00", path.Base(name), len(data))
	l.hash.Write(data)
	return true
}

// trimBOM drops a UTF-8 byte order mark, which spreadsheets write.
func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) }

// csvColumns names the column of each problem found in a CSV file of
// cases: its nodes stand at their column's number.
func (l *loader) csvColumns() {
	for _, e := range l.errs {
		cols, ok := l.csvCols[e.File]
		if !ok || e.Col < 1 || e.Col > len(cols) {
			continue
		}
		e.Msg = fmt.Sprintf("column %q: %s", cols[e.Col-1], e.Msg)
		e.Col = 0
	}
}
