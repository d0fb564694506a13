// Package figures reads the numbers in a piece of prose the way a person
// would: "S$2.39M", "SGD 2,394,755.00", "2.4 million Singapore dollars",
// "37.8k", "17.2%", "(1,200)", "-3.5%", "1.2 bn", "¥4.3m", "30kg", ranges
// such as "2.3–2.4 million", numbers in **bold**, and numbers laid out as
// data: in CSV and TSV rows, Markdown tables and JSON. The same reading
// serves a tool's result and a model's answer.
//
// A comma is a thousands separator only between groups of exactly three
// digits ("1,234", "12,345,678.50"); otherwise it separates values:
// "845,25350", "1,23" and "1,234,5678" are lists. In JSON, and in a CSV
// row whose cells line up with its header line, every comma outside
// quotes separates values, so "[845,250]" is two numbers and a quoted
// "1,234" is one. A table's header gives its column's figures their kind:
// "revenue_eur" makes them money in euros, "units" makes them counts.
//
// Each number is read by the first of a table of recognisers that applies
// (an identifier, a date, a dashed account number, a version, then a
// figure with its sign, currency, scale, percent and unit).
//
// Extract returns every number it finds, each with its value, its kind
// (money, percent, count or plain), the currency if one is stated, the exact
// span of text it was read from, how precisely it was written, and flags
// for numbers that are not figures at all: years and dates, list numbers,
// account numbers and other identifiers, and figures the text declines to
// vouch for ("I can't say it was $0"). Figure.Claim reports whether a
// figure is something the text asserts.
//
// Extraction never invents: every figure's Text is the text at its offsets
// and holds the digits it was read from. It never panics, whatever the
// input.
package figures
