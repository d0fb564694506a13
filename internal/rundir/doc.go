// Package rundir owns the files of a run directory: their names, and the
// one way derived files are written.
//
// A run directory holds the record (record.jsonl, written once by the
// runner and never edited) and files derived from it: the grades, the
// action columns, the advisory judge's opinions, the usage, and the
// reviews people append. Derived files are rewritten whole whenever the
// record is graded again, each through WriteJSON or WriteFile, which
// never leave half a file behind: they write a temporary file in the same
// directory, sync it to disk, and rename it over the old one.
package rundir
