package suite

// Action is the part of a case that evaluates actions: what kind of case it
// is, the ordered steps of its key, the fixtures it needs and the state to
// verify after it. See the action suites under corpus/ for examples.
type Action struct {
	// Kind is "read", "write", "sequence", "destructive" or "decline".
	Kind string `yaml:"kind"`
	// Steps are the key: the ordered steps a correct agent takes.
	Steps []Step `yaml:"steps,omitempty"`
	// ExpectedErrors lists tools allowed to fail on purpose in this case;
	// any other tool error counts against it.
	ExpectedErrors []string `yaml:"expected_errors,omitempty"`
}

// Step is one step of an action key.
type Step struct {
	// Tool is the tool the step calls.
	Tool string `yaml:"tool"`
	// Args maps each compared argument to where its truth comes from.
	Args map[string]ArgSource `yaml:"args,omitempty"`
	// Optional steps may be skipped.
	Optional bool `yaml:"optional,omitempty"`
}

// ArgSource says where a compared argument's true value comes from.
type ArgSource struct {
	// Fact names a value the fixtures built (accepting its other spellings).
	Fact string `yaml:"fact,omitempty"`
	// Literal is a value that must appear in the prompt.
	Literal any `yaml:"literal,omitempty"`
	// Produced names a value an earlier step's result produced.
	Produced string `yaml:"produced,omitempty"`
	// Authored marks free text the model writes, never compared.
	Authored bool `yaml:"authored,omitempty"`
}

// extraChecks counts the checks a case declares beyond those of the read
// cases.
func (c *Case) extraChecks() int {
	if c.Action == nil {
		return 0
	}
	return len(c.Action.Steps) + 1
}

// ActionSettings are the suite-wide settings of an action suite.
type ActionSettings struct {
	// TurnsPerStep sets the turn cap of an action case: TurnsPerStep turns
	// per declared step, plus TurnsExtra (3 and 4 when zero).
	TurnsPerStep int `yaml:"turns_per_step,omitempty"`
	TurnsExtra   int `yaml:"turns_extra,omitempty"`
}
