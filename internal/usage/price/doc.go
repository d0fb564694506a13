// Package price turns a turn's token usage into US dollars.
//
// The prices live in prices/PROVIDER.json, one table per provider, files a
// person edits, embedded in the binary. Each says the date its prices were
// read and the page they were read from; they must be checked against that
// page before a cost is published. A --prices file of the same shape
// replaces the tables of the providers it names. A run records the table
// that priced it (its date and the SHA-256 of its file). A model its
// provider's table does not list is unpriced: Lookup reports false and its
// cost is unknown, never zero.
package price
