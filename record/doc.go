// Package record writes and reads the record of a run: what happened, and
// no verdict.
//
// A record is a JSON Lines file, record.jsonl, in the run's directory. Its
// first line is the Header; each further line is one finished Attempt, or the
// End that closes a run. Lines are only ever appended, and each attempt is
// synced to disk before it is reported, so a run killed at any instant loses
// at most the attempts in flight. A torn last line (a write cut short) is
// reported as a warning by Read and otherwise ignored.
//
// Grading is a pure function of a record and a suite (package grade); a
// record is never edited after it is written.
package record
