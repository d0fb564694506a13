package suite

// Unverified reports whether the case was drafted by a tool and not yet
// checked by a person: it says verified: false.
func (c *Case) Unverified() bool { return c.Verified != nil && !*c.Verified }

// VerifiedCases returns how many of the suite's cases a person has
// checked (every case not marked verified: false) and how many cases it
// has.
func (s *Suite) VerifiedCases() (verified, total int) {
	for _, c := range s.Cases {
		if !c.Unverified() {
			verified++
		}
	}
	return verified, len(s.Cases)
}

// UnverifiedIDs returns the ids of the cases marked verified: false, in
// suite order.
func (s *Suite) UnverifiedIDs() []string {
	var ids []string
	for _, c := range s.Cases {
		if c.Unverified() {
			ids = append(ids, c.ID)
		}
	}
	return ids
}
