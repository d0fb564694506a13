// Package probe checks, with one small request, that a provider accepts what
// the harness builds: the model name, the spec's options and the tool
// schemas. It costs one short turn and is meant to run before a paid run
// (make modeleval-probe), never inside one.
package probe
