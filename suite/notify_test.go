package suite

import "testing"

func TestNotifySettingsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"log level", "name: x\nlog_level: loud\n", []string{`suite.yaml:2: log_level "loud": want off or one of debug, info`}},
		{"root scheme", "name: x\nroots:\n  - {uri: data}\n  - {uri: \"https://example.com/x\"}\n", []string{`suite.yaml:4:5: roots 2: uri "https://example.com/x": want a file:// URI or a path`}},
		{"root empty", "name: x\nroots:\n  - {name: nothing}\n", []string{`suite.yaml:3:5: roots 1: no uri`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(write(t, t.TempDir(), "suite.yaml", tc.body))
			wantLoadError(t, err, tc.want...)
		})
	}
}
