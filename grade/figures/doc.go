// Package figures reads the numbers in a piece of prose the way a person
// would: "S$2.39M", "SGD 2,394,755.00", "2.4 million Singapore dollars",
// "37.8k", "17.2%", "(1,200)", "-3.5%", "1.2 bn", "¥4.3m", "30kg", ranges
// such as "2.3–2.4 million", numbers in **bold**, and numbers laid out as
// data: in CSV and TSV rows, Markdown tables and JSON. The same reading
// serves a tool's result and a model's answer.
//
// Numbers are read as people write them: thousands grouped with commas
// ("2,394,755"), spaces (ordinary, no-break U+00A0, thin U+2009, narrow
// no-break U+202F: "2 394 755"), apostrophes ("2'394'755", "2’394’755")
// or points ("2.394.755": two or more points with three-digit groups), a
// decimal comma after points or spaces ("1.234,56", "2 394 755,50"), and
// a decimal comma with a percent, a currency or a scale attached ("1,5 %",
// "16,80 €", "2,5 Mio"). A currency may stand before or after the number
// ("€16,800", "16 800 €", "2,394,755 SGD"), after a scale abbreviation
// and its point too ("37,8 Tsd. SGD", "1,2 Mrd. €"); a point after a
// scale with no currency next ends a sentence ("2.4M. Then").
//
// A comma is a thousands separator only between groups of exactly three
// digits ("1,234", "12,345,678.50"). Before one or two digits it is a
// decimal comma, whatever the locale, after four digits or more
// ("1912,75": that cannot be grouped) or after a sign ("−24,5": a list is
// not written so), unless the number comes right after a comma, as a
// list's items do ("x,-5,6"). Otherwise, with nothing attached, it
// separates values: "845,25350", "1,234,5678" and "1,23" are lists. With
// one to three digits before it and no sign, "1,23" and "3,5" stay lists
// with no locale, as "pages 3,5" is: a Figure reads one number, so it
// cannot hold a list's reading as an Alt; under Options{Decimal: ','}
// they are 1.23 and 3.5. In
// JSON, and in a CSV row whose cells line up with its header line, every
// comma outside quotes separates values, so "[845,250]" is two numbers
// and a quoted "1,234" is one; a JSON number is read as JSON writes it,
// whatever the locale. An ordinary space groups only what is plainly one
// number: two or more groups, or one that is an amount or a count
// ("SGD 1 200", "1 200 units"), starts with a zero ("5 000") or is
// followed by a decimal comma and one or two digits ("1 912,75"), and not
// a number right after another ("in 2025 1 200"). A table's header gives
// its column's figures their kind: "revenue_eur" makes them money in
// euros, "units" makes them counts.
//
// Some forms rest on the decimal mark: "1.500" is 1.5 where a point is
// the decimal mark and 1,500 where a comma is. ExtractWith takes the
// mark as Options.Decimal, from the text's locale. Without one (Extract)
// a comma groups thousands and a point is the decimal mark, except that a
// single point before three digits and a currency after it groups them,
// as Europeans write money ("16.800 €"); a lone "1.500" is read as 1.5
// and marked Ambiguous, with 1500 as its Alt.
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
