package record

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
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
	lines []span // the attempts, in Read's order
	super []span // the superseded attempts, in the order written
	byKey map[AttemptKey]int
	buf   []byte
}

// span locates one attempt's line in the record file.
type span struct {
	key  AttemptKey
	off  int64
	size int
}

// Open reads the record in dir (or the record file dir names) as Read
// does, and returns a Reader of its attempts. Its run (Reader.Run) has
// the header, the end and the warnings, but no attempts.
func Open(dir string) (*Reader, error) {
	f, p, dir, err := openFile(dir)
	if err != nil {
		return nil, err
	}
	r := &Reader{f: f, name: p}
	cases := map[string]string{} // one copy of each case id, for every span of it
	var ignored []span
	err = scanLines(f, p, &r.run, func(off int64, size int) {
		ignored = append(ignored, span{off: off, size: size})
	}, func(l *lineAt) {
		c, ok := cases[l.attempt.Case]
		if !ok {
			c = l.attempt.Case
			cases[c] = c
		}
		s := span{key: AttemptKey{c, l.attempt.N}, off: l.off, size: l.size}
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
		ks[i] = s.key
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
		r.byKey = make(map[AttemptKey]int, len(r.lines))
		for i, s := range r.lines {
			r.byKey[s.key] = i
		}
	}
	i, ok := r.byKey[k]
	if !ok {
		return nil, nil
	}
	a, err := r.read(r.lines[i])
	if err != nil {
		return nil, r.exact(err)
	}
	return a, nil
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
	if a.Key() != s.key {
		return nil, fmt.Errorf("reading attempt %s back from %s: the record changed since it was opened", s.key, r.name)
	}
	return a, nil
}

// decode reads the attempt line at s and decodes it in full.
func (r *Reader) decode(s span) (*Attempt, error) {
	if cap(r.buf) < s.size {
		r.buf = make([]byte, s.size)
	}
	b := r.buf[:s.size]
	if _, err := r.f.ReadAt(b, s.off); err != nil {
		return nil, fmt.Errorf("reading attempt %s back from %s: %w", s.key, r.name, err)
	}
	var l line
	err := json.Unmarshal(b, &l)
	// Keep the buffer small when one line was huge.
	if cap(r.buf) > 1<<20 {
		r.buf = nil
	}
	if err != nil || l.Attempt == nil {
		return nil, fmt.Errorf("reading attempt %s back from %s: the record changed since it was opened", s.key, r.name)
	}
	return l.Attempt, nil
}
