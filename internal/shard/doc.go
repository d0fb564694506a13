// Package shard splits a run across machines and puts it back together.
//
// A run with --shard K/N makes only the planned attempts whose index i in
// the plan (from 0) has i % N == K-1, and records which slice it holds.
// Merge takes the N shard records, checks that they measured the same
// thing (suite, tools, model and options, target, attempts, ...) and that
// together they hold every slice exactly once, and writes one run record
// holding the whole plan in plan order: a CI matrix or a Kubernetes
// indexed job runs a large suite with no scheduler of ours. MergeDirs
// does the same from the shards' directories, attempt by attempt, in
// memory that does not grow with the size of the records.
package shard
