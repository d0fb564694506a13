// Package ops is builtin:ops, a small stateful infrastructure manager served
// over MCP: containers, images, volumes, networks, projects and users on one
// make-believe host, with read tools, write tools and destructive tools
// (annotated as such) that refuse to act without confirm: true and say so
// in their result.
//
// Every connection starts from the seed data in seed.yaml, so an action
// suite run with fresh_target: true gives each attempt its own host. It is
// the embedded target of the ops action suite (suite/ beside it).
package ops
