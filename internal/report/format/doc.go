// Package format writes the figures every report shows, the same way in
// each: a rate as a whole percentage, its 95% Wilson interval and its n
// ("83% [55%, 95%] n=12"), a count as passed of graded ("10/12"), and a
// count of things with its plural ("1 attempt", "2 attempts").
//
// The text, Markdown, HTML, compare and ledger renderers all go through
// it, so a figure reads the same on a terminal, in a pull request and on
// the published page.
package format
