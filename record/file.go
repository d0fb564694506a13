package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Writer appends to a record. It is safe for concurrent use.
//
// Each line is synced to disk before the call that wrote it returns, and
// lines written at once share a sync (a group commit): a writer waiting
// for the sync under way to end finds its line synced by it, or syncs
// every line written so far, its own and those of the writers waiting
// behind it, in one.
type Writer struct {
	// syncMu is held while syncing, and while closing; it is taken
	// before mu.
	syncMu sync.Mutex
	mu     sync.Mutex
	f      *os.File
	path   string
	done   bool
	// written counts the lines written, synced those synced (under syncMu).
	written, synced uint64
	// sync syncs the file; tests count the syncs with it.
	sync func() error
}

// ErrExists is wrapped by Create's error for a directory that already
// holds a record.
var ErrExists = errors.New("already holds a record")

// Create makes dir (if needed) and starts a new record in it with h. It
// refuses a directory that already holds a record: a run never overwrites
// another.
func Create(dir string, h *Header) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating run directory: %w", err)
	}
	p := filepath.Join(dir, FileName)
	exists := fmt.Errorf("%s %w: a run never overwrites another (choose another --out, or --resume it)", dir, ErrExists)
	if _, err := os.Lstat(p); err == nil {
		return nil, exists
	}
	// The header is written and synced under a temporary name and then
	// linked into place, so that a run killed at any instant leaves either
	// no record or one with a whole header.
	f, err := os.CreateTemp(dir, ".record-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("creating record: %w", err)
	}
	defer os.Remove(f.Name())
	if h.Format == "" {
		h.Format = Format
	}
	w := newWriter(f, p)
	if err := w.write(line{Header: h}); err != nil {
		f.Close()
		return nil, err
	}
	if err := os.Link(f.Name(), p); err != nil {
		f.Close()
		if errors.Is(err, os.ErrExist) {
			return nil, exists
		}
		return nil, fmt.Errorf("creating record: %w", err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		f.Close()
		return nil, fmt.Errorf("creating record: %w", err)
	}
	if d, err := os.Open(dir); err == nil { // make the new file's name durable too
		d.Sync()
		d.Close()
	}
	return w, nil
}

// Append opens an existing record to add attempts to it (resuming a run).
// A torn last line, if any, is cut off first so that the record stays
// readable.
func Append(dir string) (*Writer, error) {
	p := filepath.Join(dir, FileName)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("opening record to resume: %w", err)
	}
	keep := len(data)
	if keep > 0 && data[keep-1] != '\n' {
		keep = bytes.LastIndexByte(data, '\n') + 1
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening record to resume: %w", err)
	}
	if err := f.Truncate(int64(keep)); err != nil {
		f.Close()
		return nil, fmt.Errorf("cutting torn line from record: %w", err)
	}
	if _, err := f.Seek(int64(keep), io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("opening record to resume: %w", err)
	}
	return newWriter(f, p), nil
}

func newWriter(f *os.File, path string) *Writer {
	return &Writer{f: f, path: path, sync: f.Sync}
}

// Path returns the record file's path.
func (w *Writer) Path() string { return w.path }

// Attempt appends a finished attempt and syncs it to disk before returning.
func (w *Writer) Attempt(a *Attempt) error { return w.write(line{Attempt: a}) }

// End appends the end of the run and closes the writer.
func (w *Writer) End(e *End) error {
	err := w.write(line{End: e})
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Close closes the writer without ending the run (the run can be resumed).
func (w *Writer) Close() error {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return nil
	}
	w.done = true
	return w.f.Close()
}

func (w *Writer) write(l line) error {
	b, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("encoding record line: %w", err)
	}
	b = append(escapeJSON(b), '\n')
	w.mu.Lock()
	if w.done {
		w.mu.Unlock()
		return errors.New("writing record: already closed")
	}
	if _, err := w.f.Write(b); err != nil {
		w.mu.Unlock()
		return fmt.Errorf("writing record: %w", err)
	}
	w.written++
	mine := w.written
	w.mu.Unlock()
	// Group commit: once the sync under way ends, this line is synced
	// already, or one sync takes it with every line written since.
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	if w.synced >= mine {
		return nil
	}
	w.mu.Lock()
	upto, done := w.written, w.done
	w.mu.Unlock()
	if done { // closed after this line was written, before it was synced
		return errors.New("syncing record: already closed")
	}
	if err := w.sync(); err != nil {
		return fmt.Errorf("syncing record: %w", err)
	}
	w.synced = upto
	return nil
}

// Run is a record as read back.
type Run struct {
	// Dir is the run directory.
	Dir    string
	Header Header
	// Attempts are the finished attempts, in the order first written.
	// An attempt that ended in error and was recorded again later (a
	// retry) is the later one here; any other attempt recorded twice is
	// the first, with a warning.
	Attempts []Attempt
	// Superseded are the errored attempts a later attempt with the same
	// case and number replaced, in the order written. They stay in the
	// record file, which is never edited, and are not graded.
	Superseded []Attempt
	// End is nil when the run did not finish (it was killed or is still
	// running).
	End *End
	// Warnings are problems that were safe to pass over (a torn last line,
	// a duplicated attempt), as file:line messages, then the warnings of
	// the record's last end (End.Warnings).
	Warnings []string
}

// Complete reports whether the run finished with every planned attempt.
func (r *Run) Complete() bool { return r.End != nil && r.End.Complete }

// openFile opens the record in dir, or the record file dir names, and
// returns it with its path and its run directory.
func openFile(dir string) (f *os.File, path, runDir string, err error) {
	path = dir
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		path = filepath.Join(dir, FileName)
	} else if err == nil {
		dir = filepath.Dir(dir)
	}
	f, err = os.Open(path)
	if err != nil {
		return nil, "", "", fmt.Errorf("reading record: %w", err)
	}
	return f, path, dir, nil
}

// MaxLine is the longest record line read.
const MaxLine = 64 << 20

// Read reads the record in dir (or the record file dir names).
func Read(dir string) (*Run, error) {
	f, p, dir, err := openFile(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := Parse(f, p)
	if err != nil {
		return nil, err
	}
	r.Dir = dir
	return r, nil
}

// Parse reads a record from rd; name is used in messages.
func Parse(rd io.Reader, name string) (*Run, error) {
	run := &Run{}
	err := scanLines(rd, name, run, nil, func(l *lineAt) {
		if l.replaces >= 0 {
			run.Superseded = append(run.Superseded, run.Attempts[l.replaces])
			run.Attempts[l.replaces] = *l.attempt
			return
		}
		run.Attempts = append(run.Attempts, *l.attempt)
	})
	if err != nil {
		return nil, err
	}
	return run, nil
}

// lineAt is one attempt line that counts, as scanLines hands it on.
type lineAt struct {
	attempt *Attempt
	// off and size locate the line in the record (without its newline).
	off  int64
	size int
	// replaces is the index, among the attempts handed on so far, of the
	// errored attempt this one supersedes; -1 for a new attempt.
	replaces int
}

// scanLines reads a record from rd into run's Header, End and Warnings,
// and hands keep every attempt line that counts, in the order written.
// It holds no attempt itself: what keep keeps is up to it. Parse keeps the
// attempts, Open their offsets, so that both read a record by the same
// rules, line for line.
//
// With ignored set, attempt lines are decoded only as far as the rules
// need (case, number, end, whether an error is given): keep is handed
// attempts holding just that, and ignored the lines of attempts recorded
// twice and ignored. Such a line, or one kept, may still be one that a
// full decoding refuses; the caller decodes each in full later, and reads
// the record again fully for the exact error if one is refused.
func scanLines(rd io.Reader, name string, run *Run, ignored func(off int64, size int), keep func(*lineAt)) error {
	br := bufio.NewReaderSize(rd, 1<<16)
	type seenAt struct {
		line, at int  // the line of the attempt's latest, its index
		errored  bool // whether the one at index ended in error
	}
	// An attempt seen is keyed by its case's index in cases and its
	// number, held by value: a few dozen bytes an attempt, and no copy of
	// its case id kept per attempt.
	type seenKey struct {
		c uint32
		n int
	}
	seen := map[seenKey]seenAt{}
	cases := map[string]uint32{}
	count := 0 // attempts handed on that are not replacements
	n := 0
	var off int64
	for {
		data, err := ReadLine(br)
		if len(data) == 0 && err == io.EOF {
			break
		}
		n++
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		at := off
		off += int64(len(data)) + 1
		torn := err == io.EOF // no newline: the write was cut short
		var l line
		var perr error
		if ignored != nil && n > 1 {
			perr = unmarshalLight(data, &l)
		} else {
			perr = json.Unmarshal(data, &l)
		}
		if torn {
			if perr == nil && l.Header == nil {
				perr = errors.New("no newline")
			}
			if perr != nil {
				run.Warnings = append(run.Warnings, fmt.Sprintf("%s:%d: torn last line (the run was killed mid-write); ignored", name, n))
				break
			}
		}
		if perr != nil {
			return fmt.Errorf("%s:%d: not a record line: %v", name, n, perr)
		}
		switch {
		case n == 1:
			if l.Header == nil {
				return fmt.Errorf("%s:1: not a record: the first line is not a header", name)
			}
			if l.Header.Format != Format {
				return fmt.Errorf("%s:1: record format %q: this mcpeval reads %q", name, l.Header.Format, Format)
			}
			run.Header = *l.Header
			internPlanned(run.Header.Planned)
			// Room for the attempts planned, made once: a map grown
			// line by line leaves its smaller copies behind.
			seen = make(map[seenKey]seenAt, len(run.Header.Planned))
		case l.Header != nil:
			return fmt.Errorf("%s:%d: a second header", name, n)
		case l.Attempt != nil:
			if err := l.Attempt.check(); err != nil {
				return fmt.Errorf("%s:%d: %v", name, n, err)
			}
			k := Planned{l.Attempt.Case, l.Attempt.N}
			c, ok := cases[k.Case]
			if !ok {
				c = uint32(len(cases))
				cases[k.Case] = c
			}
			sk := seenKey{c, k.N}
			la := &lineAt{attempt: l.Attempt, off: at, size: len(data), replaces: -1}
			if s, dup := seen[sk]; dup {
				if s.errored {
					// A retry of an errored attempt (run --resume
					// --retry-errors): the later one counts.
					la.replaces = s.at
					s.line, s.errored = n, l.Attempt.End == EndError
					seen[sk] = s
					keep(la)
					continue
				}
				run.Warnings = append(run.Warnings, fmt.Sprintf("%s:%d: attempt %s #%d already recorded at line %d; ignored", name, n, k.Case, k.N, s.line))
				if ignored != nil {
					ignored(at, len(data))
				}
				continue
			}
			seen[sk] = seenAt{line: n, at: count, errored: l.Attempt.End == EndError}
			count++
			keep(la)
		case l.End != nil:
			run.End = l.End // a resumed run's last end is its end
		default:
			return fmt.Errorf("%s:%d: an empty record line", name, n)
		}
		if torn {
			break
		}
	}
	if n == 0 {
		return fmt.Errorf("%s: empty record", name)
	}
	if run.Header.Format == "" {
		return fmt.Errorf("%s:1: not a record: no header", name)
	}
	if run.End != nil {
		run.Warnings = append(run.Warnings, run.End.Warnings...)
	}
	return nil
}

// internPlanned makes the planned attempts of one case share one copy of
// its id: a header decoded holds a string per planned attempt, 100,000 of
// them for a large run.
func internPlanned(ps []Planned) {
	ids := map[string]string{}
	for i := range ps {
		id, ok := ids[ps[i].Case]
		if !ok {
			id = ps[i].Case
			ids[id] = id
		}
		ps[i].Case = id
	}
}

// lightLine is a record line as far as reading it by the rules needs: the
// header and the end whole, of an attempt only what says which it is and
// whether it counts.
type lightLine struct {
	Header  *Header `json:"header,omitempty"`
	Attempt *struct {
		Case  string           `json:"case"`
		N     int              `json:"n"`
		End   string           `json:"end"`
		Error *json.RawMessage `json:"error,omitempty"`
	} `json:"attempt,omitempty"`
	End *End `json:"end,omitempty"`
}

// unmarshalLight decodes data as a lightLine into l, the attempt holding
// its case, number, end, and an empty Error when one is given.
func unmarshalLight(data []byte, l *line) error {
	var ll lightLine
	if err := json.Unmarshal(data, &ll); err != nil {
		return err
	}
	l.Header, l.End = ll.Header, ll.End
	if a := ll.Attempt; a != nil {
		l.Attempt = &Attempt{Case: a.Case, N: a.N, End: a.End}
		if a.Error != nil {
			l.Attempt.Error = &Error{}
		}
	}
	return nil
}

// ReadLine reads one line of a record file without its newline, as Read
// and Open do, for a reader that walks a record line by line itself: io.EOF
// with data means the last line had no newline (a torn write), and a line
// longer than MaxLine is refused.
func ReadLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > MaxLine {
			return nil, fmt.Errorf("line longer than %d bytes", MaxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == nil {
			return buf[:len(buf)-1], nil
		}
		return buf, err
	}
}
