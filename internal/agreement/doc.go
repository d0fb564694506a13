// Package agreement measures the advisory judge against people: over the
// attempts both the judge and a person read, how often they agree and how
// far that is beyond chance (Cohen's kappa, with an interval), and where
// they disagree. It reads grades with the judge's opinions attached and
// the reviews applied to them; it asks no one.
//
// Saved is a measured agreement as a run directory keeps it
// (RUN/agreement.json): reports show it beside the cases graded by the
// judge, and the ledger publishes such cases only with it.
package agreement
