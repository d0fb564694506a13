package record

import "errors"

// check reports an attempt line that no writer makes: one that names no
// case, or ends in error without saying why. Such a line would mislead
// grading, so reading refuses it rather than passing it on.
func (a *Attempt) check() error {
	switch {
	case a.Case == "":
		return errors.New("an attempt with no case")
	case a.N < 1:
		return errors.New("an attempt numbered below 1")
	case a.End == EndError && a.Error == nil:
		return errors.New("an attempt that ended in error without saying why")
	}
	return nil
}
