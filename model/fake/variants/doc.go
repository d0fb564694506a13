// Package variants adds the fake models that prove the action columns, and
// makes fake:perfect follow the steps of action cases.
//
// Each variant follows an action case's key as fake:perfect does, except
// for one thing, and so must lose points in exactly the columns that thing
// touches:
//
//   - fake:wrong-args gives every compared argument a wrong value of the
//     right shape (Pass, Arguments);
//   - fake:no-confirm never sends the approval a destructive tool needs
//     (Pass, Reached, Confirmation);
//   - fake:declines calls nothing and declines every case (Pass, Reached,
//     Confirmation);
//   - fake:extra-change, after the steps, makes the suite's stray change
//     (actions.stray), or builds one of the case's fixtures again, under a
//     name of its own: a change nobody asked for (Pass, Clean, Declined);
//   - fake:gives-up stops before the last step (Pass, Reached, and
//     Confirmation where that step is destructive).
//
// The fakes read what they need from the conversation: facts and the
// token from the rendered prompt (matched against the case's prompt
// template), produced values from the results of their own earlier calls,
// and which tools take the approval from the input schemas they are shown.
// Importing the package registers them.
package variants
