package grade

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// WriteResult writes res to w as json.MarshalIndent(res, "", "  ") writes
// it, byte for byte, followed by a newline: the form grades.json holds.
// The attempts are encoded one at a time, so that writing the grades of a
// large run takes no buffer the size of the file.
func WriteResult(w io.Writer, res *Result) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	head := *res
	if len(res.Attempts) > 0 {
		head.Attempts = []AttemptGrade{}
	}
	b, err := json.MarshalIndent(&head, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding grades: %w", err)
	}
	const empty = "\n  \"attempts\": [],\n"
	i := bytes.Index(b, []byte(empty))
	if len(res.Attempts) == 0 || i < 0 {
		bw.Write(b)
		bw.WriteByte('\n')
		return bw.Flush()
	}
	bw.Write(b[:i])
	bw.WriteString("\n  \"attempts\": [")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	for k := range res.Attempts {
		if k > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		buf.Reset()
		if err := enc.Encode(&res.Attempts[k]); err != nil {
			return fmt.Errorf("encoding grades: %w", err)
		}
		bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
	}
	bw.WriteString("\n  ],\n")
	bw.Write(b[i+len(empty):])
	bw.WriteByte('\n')
	return bw.Flush()
}

// ReadResult reads a graded run as WriteResult writes it (grades.json) from
// r, as a stream: it holds one attempt's grade at a time. Each attempt's
// grade is handed to each, in the file's order, and not kept: the Result
// returned has every field but Attempts (nil). With each nil the
// attempts are kept in Attempts, as json.Unmarshal would read them, and
// the attempts of one case share one copy of its id. An error of each
// stops the reading and is returned.
//
// Reports that show a bounded part of a run's attempts (its failures,
// say) read its grades through ReadResult with an each that keeps what
// they show.
func ReadResult(r io.Reader, each func(*AttemptGrade) error) (*Result, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	if err := delim(dec, '{'); err != nil {
		return nil, err
	}
	// The fields other than the attempts, gathered as one object to be
	// read as json.Unmarshal reads the whole.
	rest := []byte{'{'}
	var attempts []AttemptGrade
	sawAttempts := false
	ids := map[string]string{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		if key != "attempts" || sawAttempts {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, err
			}
			if len(rest) > 1 {
				rest = append(rest, ',')
			}
			k, _ := json.Marshal(key)
			rest = append(append(append(rest, k...), ':'), raw...)
			continue
		}
		sawAttempts = true
		t, err = dec.Token() // null, or the array's start
		if err != nil {
			return nil, err
		}
		if t == nil {
			continue
		}
		if d, ok := t.(json.Delim); !ok || d != '[' {
			return nil, fmt.Errorf("attempts: want an array, found %v", t)
		}
		if each == nil {
			attempts = []AttemptGrade{}
		}
		for dec.More() {
			var a AttemptGrade
			if err := dec.Decode(&a); err != nil {
				return nil, err
			}
			id, ok := ids[a.Case]
			if !ok {
				ids[a.Case] = a.Case
				id = a.Case
			}
			a.Case = id
			if each == nil {
				attempts = append(attempts, a)
				continue
			}
			if err := each(&a); err != nil {
				return nil, err
			}
		}
		if err := delim(dec, ']'); err != nil {
			return nil, err
		}
	}
	if err := delim(dec, '}'); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = errors.New("invalid character after top-level value")
		}
		return nil, err
	}
	var res Result
	if err := json.Unmarshal(append(rest, '}'), &res); err != nil {
		return nil, err
	}
	res.Attempts = attempts
	return &res, nil
}

// delim reads the next token of dec, which must be the delimiter want.
func delim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, found %v", want, t)
	}
	return nil
}
