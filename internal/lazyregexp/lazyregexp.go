// Package lazyregexp is a regular expression compiled the first time it is
// used rather than when the program starts, for the patterns packages keep
// in package-level variables: a command that never grades or redacts (mcpeval
// version, a serve-target process) does not pay to compile them.
//
// It follows cmd/go's internal/lazyregexp. Under go test a pattern is
// compiled at once, so that a bad pattern still fails every test of the
// package that holds it rather than the first one that happens to use it.
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a regexp.Regexp compiled on first use. Its methods are those of
// regexp.Regexp; it is safe for concurrent use.
type Regexp struct {
	str  string
	once sync.Once
	rx   *regexp.Regexp
}

// Re returns the compiled expression, compiling it on the first call.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(r.build)
	return r.rx
}

func (r *Regexp) build() {
	r.rx = regexp.MustCompile(r.str)
	r.str = ""
}

// inTest reports whether the program is a test binary. It is a function,
// not a variable, so that this package has no initialiser of its own.
func inTest() bool {
	return len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")
}

// New returns str as a Regexp compiled on first use. Like
// regexp.MustCompile, it panics (then) when str is not a valid expression.
func New(str string) *Regexp {
	r := &Regexp{str: str}
	if inTest() {
		r.Re()
	}
	return r
}

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Re().FindAllStringIndex(s, n)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string {
	return r.Re().FindString(s)
}

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int {
	return r.Re().FindStringIndex(s)
}

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Re().FindStringSubmatch(s)
}

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Re().FindStringSubmatchIndex(s)
}

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool {
	return r.Re().MatchString(s)
}

// ReplaceAllLiteralString is regexp.Regexp.ReplaceAllLiteralString.
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Re().ReplaceAllLiteralString(src, repl)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Re().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Re().ReplaceAllStringFunc(src, repl)
}

// SubexpIndex is regexp.Regexp.SubexpIndex.
func (r *Regexp) SubexpIndex(name string) int {
	return r.Re().SubexpIndex(name)
}

// String is regexp.Regexp.String: the source text.
func (r *Regexp) String() string {
	return r.Re().String()
}

// FindAllSubmatch is regexp.Regexp.FindAllSubmatch.
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.Re().FindAllSubmatch(b, n)
}
