// Package fake provides models that answer from a suite's own key, for
// testing the pipeline and the graders without spending anything:
//
//   - fake:perfect follows each case's key: it calls the key's tools with
//     its arguments, one call a turn, then answers with the key's answer (or
//     the expected figures). On an action case it follows the key's steps,
//     with every argument from its source: facts and the token read back
//     from the rendered prompt, produced values from the results of its own
//     earlier calls (read as the grader reads them: the structured content,
//     else the text), and authored examples rendered with the token and facts
//     ({{token}} in an authored value becomes the attempt's token).
//     A key's asks are questions put to the user first, one a turn,
//     each answered by one of the case's turns; the calls and steps come
//     only after the last of them is answered.
//   - fake:refuse declines everything and calls nothing.
//   - fake:invent answers with made-up figures and calls nothing.
//   - fake:reads makes the key's calls as fake:perfect does, then answers
//     from what the tools returned, not from the key: it states each of
//     the case's figures that a result it was shown holds as a number, and
//     says it could not find the others (the proof that an output overlay
//     reaches the model).
//   - fake:user plays a case's user (its user:, see suite.SimUser): it
//     answers a question of the model under test with the facts the user
//     knows that the question names (all of them when it names none), and
//     ends the conversation (suite.UserStop) on an answer that asks
//     nothing.
//   - fake:confuse;want=A;call=B follows the key as fake:perfect does,
//     but calls tool B, with A's arguments, wherever the key calls A: the
//     one fake that takes options, and the proof of the tool confusion
//     (grade.Confusion), which must show exactly the cell (A, B).
//
// The other fakes prove the action columns. Each follows an action case's
// key as fake:perfect does, except for one thing, and so must lose points
// in exactly the columns that thing touches:
//
//   - fake:wrong-args gives every compared argument a wrong value of the
//     right shape (Pass, Arguments);
//   - fake:no-confirm never sends the approval a tool takes, and asks
//     the user nothing before it acts (Pass, Reached, Confirmation);
//   - fake:declines calls nothing and declines every case (Pass, Reached,
//     Confirmation);
//   - fake:extra-change, after the steps, makes the suite's stray change
//     (actions.stray), or builds one of the case's fixtures again, under a
//     name of its own: a change nobody asked for (Pass, Clean, Declined);
//   - fake:gives-up stops before the last step (Pass, Reached, and
//     Confirmation where that step needs the approval).
//
// On a case that is not an action case each of them answers as
// fake:perfect does.
//
// Three more prove a conversation: they differ from fake:perfect only on a
// case whose key asks the user something (key.asks), and on the
// conversation cases of an action suite lose points in exactly these
// columns:
//
//   - fake:acts-first acts without asking: it takes the key's calls or
//     steps first, with the approval a tool takes, and asks the key's
//     questions after them (Pass, Reached, Confirmation, and Clean where
//     the unapproved call changed something);
//   - fake:ignores-answer asks, then whatever the user answers does
//     something else: on an action case it takes no step and makes the
//     change fake:extra-change makes, then says it is done; on another
//     case it calls nothing and answers without a figure (Pass, Reached,
//     Confirmation, Clean, and Declined on a case the user refuses);
//   - fake:asks-forever asks the key's questions, then one more question
//     every turn, and never acts or answers (Pass, Reached, Confirmation).
//
// The fakes are one fixed table (see Names): what a fake does never
// depends on what else a program imports.
//
// A fake's figures prove the pipe works and say nothing about a model;
// records mark them as fake and publishing refuses them.
package fake
