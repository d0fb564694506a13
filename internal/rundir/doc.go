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
//
// One process at a time writes a run directory: Lock holds LockFile (its
// PID and start time, under flock where the system has it) while a run
// or its resume appends to the record; a second writer is refused, and a
// lock whose holder is gone is taken over with a warning.
//
// Files a user names for output (--html, --junit, --summary) go through
// WriteOutput and AppendOutput: atomic over a regular file or a new one,
// written through to a device, a FIFO or stdout, refused for a directory,
// a folder that does not exist, and a file of a run directory that
// mcpeval reads back (CheckOutput). A FIFO is written once a reader opens
// it, and a cancelled context ends the wait: a signal ends the command.
package rundir
