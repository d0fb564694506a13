// Package termsafe makes untrusted text safe to show on a terminal.
//
// Model answers, tool results and server stderr may hold anything,
// including escape sequences that clear the screen, retitle the window,
// hide text or rewrite what was printed before. String and Line render
// every character a terminal would act on visibly (ESC as \x1b), and drop
// the bidirectional overrides that make text read other than it is stored.
// Reports and the CLI pass model- and tool-originated text through them
// before printing it; records need nothing of the kind (their JSON escapes
// control characters).
package termsafe
