// Package fake provides models that answer from a suite's own key, for
// testing the pipeline and the graders without spending anything:
//
//   - fake:perfect follows each case's key: it calls the key's tools with
//     its arguments, one call a turn, then answers with the key's answer (or
//     the expected figures).
//   - fake:refuse declines everything and calls nothing.
//   - fake:invent answers with made-up figures and calls nothing.
//
// A fake's figures prove the pipe works and say nothing about a model;
// records mark them as fake and publishing refuses them.
package fake
