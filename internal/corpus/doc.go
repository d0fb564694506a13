// Package corpus keeps a suite's own books: it drafts a case from a
// recorded attempt for a person to check (Promote), records that a person
// checked a drafted case, in its file (Verify), and describes a
// suite's cases by group, kind and tool, with the share a person has
// checked (Describe), as JSON, text or Markdown. It reads records and
// suites, writes only the suite file a person asks it to, and runs
// nothing.
package corpus
