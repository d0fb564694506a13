package suite

import "testing"

func TestConcurrencySetting(t *testing.T) {
	const tail = "cases:\n  - id: a/b\n    prompt: p\n    decline: true\n"
	for _, tc := range []struct {
		name, head string
		want       int
	}{
		{"unset", "name: x\n", 0},
		{"bound", "name: x\nconcurrency: 2\n", 2},
		{"serial", "name: x\nserial: true\n", 1},
		{"serial and one", "name: x\nserial: true\nconcurrency: 1\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Load(write(t, t.TempDir(), "suite.yaml", tc.head+tail))
			if err != nil {
				t.Fatal(err)
			}
			if got := s.ConcurrencyBound(); got != tc.want {
				t.Errorf("ConcurrencyBound() = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestConcurrencySettingErrors(t *testing.T) {
	const tail = "cases:\n  - id: a/b\n    prompt: p\n    decline: true\n"
	for _, tc := range []struct {
		name, head string
		want       []string
	}{
		{"zero", "name: x\nconcurrency: 0\n", []string{"suite.yaml:2: concurrency is 0: want a positive number"}},
		{"negative", "name: x\nconcurrency: -3\n", []string{"suite.yaml:2: concurrency is -3: want a positive number"}},
		{"serial above one", "name: x\nserial: true\nconcurrency: 4\n",
			[]string{"suite.yaml:3: concurrency is 4 but serial is true", "serial runs one attempt at a time"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(write(t, t.TempDir(), "suite.yaml", tc.head+tail))
			wantLoadError(t, err, tc.want...)
		})
	}
}
