package shard

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpeval/mcpeval/record"
)

// Merged is what MergeDirs wrote: the merged record's header and end,
// how many attempts it holds, and the problems in the shards' records
// that were safe to pass over (as record.Read reports them).
type Merged struct {
	Dir      string
	Header   record.Header
	End      record.End
	Attempts int
	Warnings []string
}

// MergeDirs is Merge for shards given by their run directories (or record
// files). It reads each shard's record once, line by line, keeping only
// where each attempt's line is, then checks the shards as Check does and
// copies the attempts into dir one at a time in plan order. Its memory
// grows with the number of attempts by a few dozen bytes each, never with
// their size: shards of any size merge. The merged record is not read
// back; read it from dir.
func MergeDirs(dir string, shardDirs []string, opts Options) (*Merged, error) {
	srcs := make([]*source, 0, len(shardDirs))
	defer func() {
		for _, s := range srcs {
			s.f.Close()
		}
	}()
	vs := make([]view, 0, len(shardDirs))
	for _, d := range shardDirs {
		s, err := index(d)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, s)
		vs = append(vs, view{label: s.label(), h: &s.h, keys: s.keys})
	}
	order, plan, err := check(vs)
	if err != nil {
		return nil, err
	}
	heads := make([]*record.Header, len(order))
	ends := make([]*record.End, len(order))
	var warnings []string
	for k, i := range order {
		heads[k], ends[k] = &srcs[i].h, srcs[i].end
		warnings = append(warnings, srcs[i].warnings...)
	}
	h, end, err := merged(heads, ends, plan, opts)
	if err != nil {
		return nil, err
	}
	h.Suite.Rebase(srcs[order[0]].dir, dir)
	var buf []byte
	get := func(k record.AttemptKey) (*record.Attempt, error) {
		for _, i := range order {
			s := srcs[i]
			sp, ok := s.at[k]
			if !ok {
				continue
			}
			if cap(buf) < sp.n {
				buf = make([]byte, sp.n)
			}
			b := buf[:sp.n]
			if _, err := s.f.ReadAt(b, sp.off); err != nil {
				return nil, fmt.Errorf("reading %s again at attempt %s: %w", s.path, k, err)
			}
			var l struct {
				Attempt *record.Attempt `json:"attempt"`
			}
			if err := json.Unmarshal(b, &l); err != nil || l.Attempt == nil {
				return nil, fmt.Errorf("%s:%d: attempt %s changed while merging", s.path, sp.line, k)
			}
			return l.Attempt, nil
		}
		return nil, nil
	}
	count, err := write(dir, &h, end, plan, get)
	if err != nil {
		return nil, err
	}
	return &Merged{Dir: dir, Header: h, End: *end, Attempts: count, Warnings: warnings}, nil
}

// source is one shard's record as merging reads it: its header and end,
// and where in the file each attempt's line is.
type source struct {
	dir, path string
	f         *os.File
	h         record.Header
	end       *record.End
	keys      []record.AttemptKey // the attempts, in the order first written
	at        map[record.AttemptKey]span
	warnings  []string
}

// span is where one attempt's line is in a record file.
type span struct {
	off  int64
	n    int
	line int
	end  string // how the attempt ended, for telling a retry
}

func (s *source) label() string {
	if s.h.Shard != nil {
		return fmt.Sprintf("%s (shard %d/%d)", s.dir, s.h.Shard.K, s.h.Shard.N)
	}
	return s.dir
}

// index reads the record in dir (or the record file dir names) line by
// line as record.Read does, with the same rules for a torn last line, a
// retried attempt and a repeated one, but decodes only each attempt's
// case, number and end.
func index(dir string) (*source, error) {
	p := dir
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		p = filepath.Join(dir, record.FileName)
	} else if err == nil {
		dir = filepath.Dir(dir)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("reading shard record: %w", err)
	}
	s := &source{dir: dir, path: p, f: f, at: map[record.AttemptKey]span{}}
	if err := s.scan(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

func (s *source) scan() error {
	br := bufio.NewReaderSize(s.f, 1<<16)
	var off int64
	n := 0
	for {
		data, err := record.ReadLine(br)
		if len(data) == 0 && err == io.EOF {
			break
		}
		n++
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s:%d: %w", s.path, n, err)
		}
		torn := err == io.EOF
		start := off
		off += int64(len(data))
		if !torn {
			off++
		}
		var l struct {
			Header  *record.Header `json:"header"`
			Attempt *struct {
				Case string          `json:"case"`
				N    int             `json:"n"`
				End  string          `json:"end"`
				Err  json.RawMessage `json:"error"`
			} `json:"attempt"`
			End *record.End `json:"end"`
		}
		perr := json.Unmarshal(data, &l)
		if torn {
			if perr == nil && l.Header == nil {
				perr = errors.New("no newline")
			}
			if perr != nil {
				s.warnings = append(s.warnings, fmt.Sprintf("%s:%d: torn last line (the run was killed mid-write); ignored", s.path, n))
				break
			}
		}
		if perr != nil {
			return fmt.Errorf("%s:%d: not a record line: %v", s.path, n, perr)
		}
		switch {
		case n == 1:
			if l.Header == nil {
				return fmt.Errorf("%s:1: not a record: the first line is not a header", s.path)
			}
			if l.Header.Format != record.Format {
				return fmt.Errorf("%s:1: record format %q: this mcpeval reads %q", s.path, l.Header.Format, record.Format)
			}
			s.h = *l.Header
		case l.Header != nil:
			return fmt.Errorf("%s:%d: a second header", s.path, n)
		case l.Attempt != nil:
			a := l.Attempt
			switch {
			case a.Case == "":
				return fmt.Errorf("%s:%d: an attempt with no case", s.path, n)
			case a.N < 1:
				return fmt.Errorf("%s:%d: an attempt numbered below 1", s.path, n)
			case a.End == record.EndError && (len(a.Err) == 0 || string(a.Err) == "null"):
				return fmt.Errorf("%s:%d: an attempt that ended in error without saying why", s.path, n)
			}
			k := record.AttemptKey{Case: a.Case, N: a.N}
			sp := span{off: start, n: len(data), line: n, end: a.End}
			if first, dup := s.at[k]; dup {
				if first.end == record.EndError { // a retry: the later one counts
					s.at[k] = sp
					continue
				}
				s.warnings = append(s.warnings, fmt.Sprintf("%s:%d: attempt %s already recorded at line %d; ignored", s.path, n, k, first.line))
				continue
			}
			s.at[k] = sp
			s.keys = append(s.keys, k)
		case l.End != nil:
			s.end = l.End // a resumed run's last end is its end
		default:
			return fmt.Errorf("%s:%d: an empty record line", s.path, n)
		}
		if torn {
			break
		}
	}
	if n == 0 {
		return fmt.Errorf("%s: empty record", s.path)
	}
	if s.end != nil {
		s.warnings = append(s.warnings, s.end.Warnings...)
	}
	return nil
}
