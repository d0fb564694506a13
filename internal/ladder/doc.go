// Package ladder sets runs of one suite on several models side by side, the
// strongest model first, and reads each case the way calibration does:
//
//   - a case that fails on the strongest model is a case defect or a
//     product gap, never a description problem: fix the case or the
//     product first;
//   - a case that passes on the strongest model and fails lower down
//     points at the tool descriptions (or the tools' output): they do not
//     carry a weaker model.
//
// Only a calibrated suite (every case passing on the strongest model) can
// attribute a weaker model's failures to descriptions. A Ladder is built
// from graded runs and rendered as Text, Markdown or JSON.
package ladder
