// Package judge asks a second model whether an answer declines, and keeps
// its opinions beside a run's grades. An opinion is advisory: it is
// recorded next to the grade and never changes it, because a judge's
// agreement with people has to be measured before it can be trusted (and
// a judge from the same family as the model under test may be lenient
// towards its own phrasing).
//
// New wraps any model.Model with a short fixed rubric (Rubric) and reads a
// one-word verdict; Fake decides by phrases, for tests. Ask puts a run's
// decline answers to a Judge; its Opinions are stored in the run
// directory's judge.json (Write, Read), so re-scoring a record keeps them
// without asking again, and Attach sets them beside the grades as
// grade.Opinion, the one type of an opinion.
//
// Ask reads only the attempts Reads picks, and of each only what Question
// keeps, so that a run read as a stream hands it those alone.
//
// Every ask costs: a judge made by New records each ask's tokens and its
// dollars at its own price (WithPrices takes a --prices set), counts them
// against a run's budget (WithBudget) and asks no more once it is spent.
// Opinions.Lines totals them per judge model, the asks the budget stopped
// counted apart, for the run's usage.json.
package judge
