package publish

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// Repo is the git repository a ledger is committed in.
type Repo interface {
	// HasCommit reports whether commit names a commit in the repository.
	// The error says the repository could not be asked at all.
	HasCommit(commit string) (bool, error)
	// Changes lists the tracked files with uncommitted changes, as
	// absolute paths.
	Changes() ([]string, error)
}

// Git is the repository holding Dir, asked through the git command.
type Git struct{ Dir string }

// HasCommit implements Repo.
func (g Git) HasCommit(commit string) (bool, error) {
	if _, err := g.root(); err != nil {
		return false, err
	}
	err := exec.Command("git", "-C", g.Dir, "cat-file", "-e", commit+"^{commit}").Run()
	return err == nil, nil
}

// Changes implements Repo.
func (g Git) Changes() ([]string, error) {
	root, err := g.root()
	if err != nil {
		return nil, err
	}
	out, err := exec.Command("git", "-C", root, "status", "--porcelain", "-z", "--untracked-files=no").Output()
	if err != nil {
		return nil, fmt.Errorf("asking git for uncommitted changes in %s: %v", root, err)
	}
	var files []string
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		files = append(files, filepath.Join(root, f[3:]))
		if f[0] == 'R' || f[0] == 'C' { // a rename is followed by its old name
			i++
		}
	}
	return files, nil
}

func (g Git) root() (string, error) {
	out, err := exec.Command("git", "-C", g.Dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("%s is not in a git repository", g.Dir)
	}
	return strings.TrimSpace(string(out)), nil
}
