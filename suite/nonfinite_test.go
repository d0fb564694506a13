package suite

import (
	"strings"
	"testing"
	"time"
)

// TestRefusesSilentNumbers checks that a suite whose numbers would make
// a grade lie is refused at load, with the file and line: an infinite
// figure (passes every answer), NaN (passes none), attempts: 0 or
// turn_cap: 0 (silently the default), an infinite tolerance or bound, an
// argument rule whose min is above its max (which nothing passes), a
// connect timeout that is no positive duration (0s silently meant 30s).
func TestRefusesSilentNumbers(t *testing.T) {
	const head = "name: demo\ntarget: builtin:household\nsystem_prompt: x\n"
	const caseHead = "cases:\n  - id: g/a\n    prompt: How much?\n"
	for _, tc := range []struct{ name, body, want string }{
		{"inf", head + caseHead + "    figures: [{value: .inf}]\n", "suite.yaml:5: case g/a: figure 1: value +Inf: want a finite number"},
		{"-inf", head + caseHead + "    figures: [{value: -.inf}]\n", "figure 1: value -Inf: want a finite number"},
		{"nan", head + caseHead + "    figures: [{value: .nan}]\n", "figure 1: value NaN: want a finite number"},
		{"suite attempts 0", head + "attempts: 0\n" + caseHead + "    figures: [{value: 1}]\n", "suite.yaml:4: attempts is 0"},
		{"case attempts 0", head + caseHead + "    attempts: 0\n    figures: [{value: 1}]\n", "suite.yaml:7:15: case g/a: attempts is 0"},
		{"inf tolerance", head + caseHead + "    figures: [{value: 1, tolerance: inf}]\n", `tolerance "inf"`},
		{"nan tolerance", head + caseHead + "    figures: [{value: 1, tolerance: \"NaN%\"}]\n", `tolerance "NaN%"`},
		{"inf bound", head + caseHead + "    figures: [{value: 1}]\n    args: [{tool: t, arg: n, min: .inf}]\n", "bound +Inf: want a finite number"},
		{"bare connect timeout", "name: demo\ntarget: {spec: builtin:household, connect_timeout: 30}\nsystem_prompt: x\n" + caseHead + "    figures: [{value: 1}]\n", "suite.yaml:2:52: cannot construct !!int `30` into time.Duration"},
		{"negative connect timeout", "name: demo\ntarget: {spec: builtin:household, connect_timeout: -1s}\nsystem_prompt: x\n" + caseHead + "    figures: [{value: 1}]\n", "suite.yaml:2:52: target: connect_timeout -1s"},
		{"zero connect timeout", "name: demo\ntarget: {spec: builtin:household, connect_timeout: 0s}\nsystem_prompt: x\n" + caseHead + "    figures: [{value: 1}]\n", "suite.yaml:2:52: target: connect_timeout 0s: want a positive duration"},
		{"zero connect timeout, block", "name: demo\ntarget:\n  spec: builtin:household\n  connect_timeout: 0\nsystem_prompt: x\n" + caseHead + "    figures: [{value: 1}]\n", "suite.yaml:4:20: target: connect_timeout 0s"},
		{"zero connect timeout of a server", "name: demo\ntargets:\n  a: {spec: builtin:household, connect_timeout: 0s}\nsystem_prompt: x\n" + caseHead + "    figures: [{value: 1}]\n", "suite.yaml:3:49: targets: a: connect_timeout 0s"},
		{"turn cap 0", head + "turn_cap: 0\n" + caseHead + "    figures: [{value: 1}]\n", "suite.yaml:4:11: turn_cap is 0: want a positive number"},
		{"negative turn cap", head + "turn_cap: -2\n" + caseHead + "    figures: [{value: 1}]\n", "suite.yaml:4:11: turn_cap is -2"},
		{"min above max", head + caseHead + "    figures: [{value: 1}]\n    args: [{tool: t, arg: n, min: 5, max: 1}]\n", "suite.yaml:5: case g/a: argument rule 1 (t.n): min 5 is above max 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(write(t, t.TempDir(), "suite.yaml", tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load = %v, want an error with %q", err, tc.want)
			}
		})
	}
	// An action case's turn_cap: 0 silently meant the default too.
	if _, err := loadString(strings.Replace(actionGood, "turn_cap: 2", "turn_cap: 0", 1)); err == nil || !strings.Contains(err.Error(), "s.yaml:31:39: case decline/vague: action turn_cap is 0: want a positive number") {
		t.Errorf("Load = %v, want the action's turn_cap: 0 refused at its line", err)
	}
	// What is fine loads.
	ok := "name: demo\ntarget: {spec: stdio:srv, inherit_env: true, connect_timeout: 45s}\nsystem_prompt: x\nattempts: 2\n" + caseHead + "    attempts: 1\n    figures: [{value: 1, tolerance: '0.5%'}]\n"
	s, err := Load(write(t, t.TempDir(), "suite.yaml", ok))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Target.InheritEnv || s.Target.ConnectTimeout != 45*time.Second {
		t.Errorf("target %+v", s.Target)
	}
}
