package main

import (
	"errors"
	"flag"
	"math"
	"strconv"
)

// floatValue is every float flag of every command: it refuses, when the
// flag is parsed, what no gate, level or budget means. NaN and the
// infinities would switch a check off (every comparison with NaN is
// false, and no spending reaches +Inf), and none of these flags means
// anything below 0.
type floatValue struct{ p *float64 }

// floatVar defines a float flag through floatValue; use it in place of
// flag's Float64Var and Float64.
func floatVar(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var(floatValue{p}, name, usage)
}

// floatFlag is floatVar returning the flag's value, as flag's Float64 does.
func floatFlag(fs *flag.FlagSet, name string, value float64, usage string) *float64 {
	p := new(float64)
	floatVar(fs, p, name, value, usage)
	return p
}

// String implements flag.Value.
func (v floatValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

// Set implements flag.Value.
func (v floatValue) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil:
		return errors.New("not a number")
	case math.IsNaN(f) || math.IsInf(f, 0):
		return errors.New("want a finite number (NaN or an infinity would switch the check off)")
	case f < 0:
		return errors.New("must not be negative")
	}
	*v.p = f
	return nil
}

// Get implements flag.Getter.
func (v floatValue) Get() any { return *v.p }
