package record

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"
	"strings"
)

// Reader reads a record attempt by attempt, for runs too large to hold:
// Open reads the record once, keeping only where each attempt's line is,
// and Each, Attempts and Load read attempts back one at a time. The
// attempts, their order, the superseded ones, the warnings and the errors
// are exactly Read's.
//
// A Reader holds the record file open until Close. It is not safe for
// concurrent use.
type Reader struct {
	run   Run
	f     *os.File
	name  string
	lines []span   // the attempts, in Read's order
	super []span   // the superseded attempts, in the order written
	cases []string // the case ids, each once, that spans name by index
	// byKey is the indices of lines in the order of their keys, for Load
	// to search; made on its first call.
	byKey []int32
	buf   []byte
}

// span locates one attempt's line in the record file: 24 bytes, the
// case named by its index in Reader.cases, so that the index of a run of
// any size stays small.
type span struct {
	off  int64
	n    int
	size uint32 // at most MaxLine
	c    uint32
}

// key returns the key of the attempt at s.
func (r *Reader) key(s span) AttemptKey { return AttemptKey{r.cases[s.c], s.n} }

// Open reads the record in dir (or the record file dir names) as Read
// does, and returns a Reader of its attempts. Its run (Reader.Run) has
// the header, the end and the warnings, but no attempts.
func Open(dir string) (*Reader, error) {
	f, p, dir, err := openFile(dir)
	if err != nil {
		return nil, err
	}
	r := &Reader{f: f, name: p}
	cases := map[string]uint32{} // the index in r.cases of each case id
	var ignored []span
	err = scanLines(f, p, &r.run, func(off int64, size int) {
		ignored = append(ignored, span{off: off, size: uint32(size), c: noCase})
	}, func(l *lineAt) {
		c, ok := cases[l.attempt.Case]
		if !ok {
			c = uint32(len(r.cases))
			cases[l.attempt.Case] = c
			r.cases = append(r.cases, l.attempt.Case)
		}
		s := span{off: l.off, n: l.attempt.N, size: uint32(l.size), c: c}
		if l.replaces >= 0 {
			r.super = append(r.super, r.lines[l.replaces])
			r.lines[l.replaces] = s
			return
		}
		if r.lines == nil {
			r.lines = make([]span, 0, len(r.run.Header.Planned)) // room made once
		}
		r.lines = append(r.lines, s)
	})
	if err == nil {
		// The lines read but never handed on must decode as Read decodes
		// them, or Read refuses the record.
		for _, s := range append(ignored, r.super...) {
			if _, err = r.decode(s); err != nil {
				break
			}
		}
	}
	if err != nil {
		err = r.exact(err)
		f.Close()
		return nil, err
	}
	r.run.Dir = dir
	return r, nil
}

// exact returns the error Read gives for the record, found by reading it
// again in full, once reading it attempt by attempt has found it wanting
// (with err). Open decodes attempt lines only as far as the rules need and
// each in full only when it is read back, so a line that a full decoding
// refuses may be found late and out of order; Read names the first such
// line in the file, and so does exact.
func (r *Reader) exact(err error) error {
	var run Run
	if full := scanLines(io.NewSectionReader(r.f, 0, 1<<62), r.name, &run, nil, func(*lineAt) {}); full != nil {
		return full
	}
	return err
}

// ReadHeader reads only the header of the record in dir (or the record
// file dir names), as Read would read it.
func ReadHeader(dir string) (*Header, error) {
	f, p, _, err := openFile(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := ReadLine(bufio.NewReaderSize(f, 1<<16))
	if len(data) == 0 && err == io.EOF {
		return nil, fmt.Errorf("%s: empty record", p)
	}
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s:1: %w", p, err)
	}
	var l line
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("%s:1: not a record line: %v", p, err)
	}
	if l.Header == nil {
		return nil, fmt.Errorf("%s:1: not a record: the first line is not a header", p)
	}
	if l.Header.Format != Format {
		return nil, fmt.Errorf("%s:1: record format %q: this mcpeval reads %q", p, l.Header.Format, Format)
	}
	return l.Header, nil
}

// Scan reads the record in dir as Read does, handing fn its attempts one
// at a time in Read's order, and returns the run without its attempts
// (header, end, warnings). It stops at fn's first error and returns it.
func Scan(dir string, fn func(*Attempt) error) (*Run, error) {
	r, err := Open(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.Each(fn); err != nil {
		return nil, err
	}
	return r.Run(), nil
}

// Run returns the run as read: Dir, Header, End and Warnings, with no
// attempts (Attempts and Superseded are nil). Callers may change it.
func (r *Reader) Run() *Run {
	run := r.run
	run.Warnings = append([]string(nil), r.run.Warnings...)
	return &run
}

// Len returns the number of attempts, as len(Read(dir).Attempts).
func (r *Reader) Len() int { return len(r.lines) }

// Keys returns the attempts' keys in Read's order.
func (r *Reader) Keys() []AttemptKey {
	ks := make([]AttemptKey, len(r.lines))
	for i, s := range r.lines {
		ks[i] = r.key(s)
	}
	return ks
}

// Each hands fn every attempt in Read's order, each newly read, and stops
// at fn's first error, which it returns.
func (r *Reader) Each(fn func(*Attempt) error) error {
	return r.each(r.lines, fn)
}

// EachSuperseded hands fn the superseded attempts (Run.Superseded) in the
// order written, as Each does.
func (r *Reader) EachSuperseded(fn func(*Attempt) error) error {
	return r.each(r.super, fn)
}

func (r *Reader) each(spans []span, fn func(*Attempt) error) error {
	for _, s := range spans {
		a, err := r.read(s)
		if err != nil {
			return r.exact(err)
		}
		if err := fn(a); err != nil {
			return err
		}
	}
	return nil
}

// Attempts returns the attempts as an iterator, in Read's order; it
// yields a nil attempt with the error of one that could not be read back,
// and stops there.
func (r *Reader) Attempts() iter.Seq2[*Attempt, error] {
	return func(yield func(*Attempt, error) bool) {
		for _, s := range r.lines {
			a, err := r.read(s)
			if err != nil {
				err = r.exact(err)
			}
			if !yield(a, err) || err != nil {
				return
			}
		}
	}
}

// Load reads back the attempt of key k; it returns nil and no error when
// the record has no such attempt.
func (r *Reader) Load(k AttemptKey) (*Attempt, error) {
	if r.byKey == nil {
		r.byKey = make([]int32, len(r.lines))
		for i := range r.byKey {
			r.byKey[i] = int32(i)
		}
		slices.SortFunc(r.byKey, func(i, j int32) int { return r.compare(r.lines[i], r.key(r.lines[j])) })
	}
	at, ok := slices.BinarySearchFunc(r.byKey, k, func(i int32, k AttemptKey) int { return r.compare(r.lines[i], k) })
	if !ok {
		return nil, nil
	}
	a, err := r.read(r.lines[r.byKey[at]])
	if err != nil {
		return nil, r.exact(err)
	}
	return a, nil
}

// compare orders the attempt at s against key k: by case, then number.
func (r *Reader) compare(s span, k AttemptKey) int {
	if c := strings.Compare(r.cases[s.c], k.Case); c != 0 {
		return c
	}
	return cmp.Compare(s.n, k.N)
}

// Close closes the record file.
func (r *Reader) Close() error { return r.f.Close() }

// read reads one attempt back from its line and checks that it is the
// attempt Open found there. The file is append-only, so a line Open read
// is still there, byte for byte.
func (r *Reader) read(s span) (*Attempt, error) {
	a, err := r.decode(s)
	if err != nil {
		return nil, err
	}
	if s.c == noCase || a.Key() != r.key(s) {
		return nil, fmt.Errorf("reading attempt %s back from %s: the record changed since it was opened", r.what(s), r.name)
	}
	return a, nil
}

// decode reads the attempt line at s and decodes it in full.
func (r *Reader) decode(s span) (*Attempt, error) {
	size := int(s.size)
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	b := r.buf[:size]
	if _, err := r.f.ReadAt(b, s.off); err != nil {
		return nil, fmt.Errorf("reading attempt %s back from %s: %w", r.what(s), r.name, err)
	}
	var l line
	err := json.Unmarshal(b, &l)
	// Keep the buffer small when one line was huge.
	if cap(r.buf) > 1<<20 {
		r.buf = nil
	}
	if err != nil || l.Attempt == nil {
		return nil, fmt.Errorf("reading attempt %s back from %s: the record changed since it was opened", r.what(s), r.name)
	}
	return l.Attempt, nil
}

// noCase is the case index of a span of a line read but not handed on.
const noCase = ^uint32(0)

// what names the attempt at s in an error: its key, or for a line read
// but not handed on (which has none), the empty key, as it was named
// before spans named their case by index.
func (r *Reader) what(s span) AttemptKey {
	if s.c == noCase {
		return AttemptKey{}
	}
	return r.key(s)
}
