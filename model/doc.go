// Package model defines the seam between the harness and a language model:
// the conversation a model is shown, the turn it answers with, and the one
// interface every provider implements.
//
// A provider turns a Request into a provider's wire format and its answer back
// into a Response. It never repairs or retries a model's own mistakes; it may
// send a request again only when the provider itself refused it (rate limit,
// overload, server error), and it reports every such try in the Response.
package model
