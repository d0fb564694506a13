// Package corpus embeds the suites that ship with mcpeval, so that
// `mcpeval run` works with no files of its own. Each suite is a directory of
// YAML files a person edits; package suite reads them.
package corpus
