// Package price turns a turn's token usage into US dollars.
//
// The prices live in prices.json, a file a person edits, embedded in the
// binary. It says the date they were read; they must be checked against the
// providers' pricing pages before a cost is published. A model the file does
// not list is unpriced: Lookup reports false and its cost is unknown, never
// zero.
package price
