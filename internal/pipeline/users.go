package pipeline

import (
	"fmt"

	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
)

// OpenUsers opens the models that play suite s's simulated users (its
// cases' user:), by spec, for runner.Config.Users. It spends nothing, but
// a paid user model will when the run asks it: the caller holds it to its
// spend guard first, as it does the model under test.
func OpenUsers(s *suite.Suite) (map[string]runner.User, error) {
	specs := s.UserModels()
	if len(specs) == 0 {
		return nil, nil
	}
	users := map[string]runner.User{}
	for _, spec := range specs {
		m, info, err := provider.Open(spec, provider.Options{Suite: s})
		if err != nil {
			return nil, fmt.Errorf("opening user model %s: %w", spec, err)
		}
		users[spec] = runner.User{Model: m, Info: info}
	}
	return users, nil
}
