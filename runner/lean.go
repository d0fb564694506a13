package runner

import "github.com/mcpeval/mcpeval/record"

// readBack reads the finished record in dir again: whole, or with
// Config.Lean only its header, end and warnings.
func (r *run) readBack(dir string) (*record.Run, error) {
	if !r.cfg.Lean {
		return record.Read(dir)
	}
	rd, err := record.Open(dir)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.Run(), nil
}
