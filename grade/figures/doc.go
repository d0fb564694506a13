// Package figures reads the numbers in a piece of prose the way a person
// would: "S$2.39M", "SGD 2,394,755.00", "2.4 million Singapore dollars",
// "37.8k", "17.2%", "(1,200)", "-3.5%", "1.2 bn", "¥4.3m", ranges such as
// "2.3–2.4 million", numbers in Markdown tables and in **bold**.
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
